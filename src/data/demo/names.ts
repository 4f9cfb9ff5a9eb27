/**
 * Invented name material for the demo world: given and family names per nationality, town names
 * and club-name patterns per league country, agencies and the clubs outside the simulated leagues.
 * Family names are common surnames; combinations are drawn at random, so nobody real is meant.
 */

export interface Nationality {
  readonly name: string;
  readonly first: readonly string[];
  readonly last: readonly string[];
  /** Weight as a foreign player in another country's league. */
  readonly exportWeight: number;
  /** Share of players of this nationality who go by a one-word alias. */
  readonly aliasShare: number;
}

const words = (s: string): string[] => s.split(',').map((w) => w.trim()).filter((w) => w.length > 0);

export const NATIONALITIES: readonly Nationality[] = [
  {
    name: 'England', exportWeight: 3, aliasShare: 0,
    first: words('Harry,Jack,Oliver,George,Charlie,Thomas,James,William,Joshua,Daniel,Samuel,Benjamin,Jacob,Alfie,Callum,Connor,Kieran,Lewis,Mason,Reece,Ryan,Jordan,Tyler,Luke,Nathan,Aaron,Bradley,Declan,Ethan,Liam,Marcus,Owen,Jamie,Kyle,Dominic,Rhys,Joe,Scott,Adam,Elliot,Harvey,Jake,Max'),
    last: words('Smith,Jones,Taylor,Brown,Wilson,Walker,Wright,Thompson,White,Hughes,Edwards,Green,Hall,Wood,Harris,Clarke,Jackson,Turner,Hill,Moore,Cooper,Ward,Baker,Morris,Bennett,Gray,Cole,Barnes,Marsh,Shaw,Holt,Palmer,Fletcher,Pearce,Lambert,Rowe,Ashworth,Kemp,Naylor,Whitfield,Brooks,Heaton,Tindall,Barlow'),
  },
  {
    name: 'Spain', exportWeight: 8, aliasShare: 0.04,
    first: words('Alejandro,Pablo,Álvaro,Daniel,Javier,Sergio,Adrián,Diego,Carlos,Raúl,Iker,Marcos,Rubén,Íñigo,Jorge,Mario,Hugo,Gonzalo,Óscar,Víctor,Unai,Aitor,Borja,Rodrigo,Fernando,Miguel,Andrés,Jesús,Ignacio,Samuel,Alberto,Joan,Pau,Ferran,Eric,Mikel,Asier,Gerard,Iván,Luis,Ander,Martín'),
    last: words('García,Fernández,González,Rodríguez,López,Martínez,Sánchez,Pérez,Gómez,Martín,Jiménez,Ruiz,Hernández,Díaz,Moreno,Muñoz,Álvarez,Romero,Alonso,Gutiérrez,Navarro,Torres,Domínguez,Vázquez,Ramos,Gil,Serrano,Blanco,Molina,Morales,Ortega,Delgado,Castro,Ortiz,Rubio,Marín,Sanz,Iglesias,Medina,Garrido,Cortés,Castillo,Lozano,Cano,Prieto'),
  },
  {
    name: 'Germany', exportWeight: 5, aliasShare: 0,
    first: words('Lukas,Leon,Jonas,Felix,Maximilian,Paul,Niklas,Tim,Julian,Moritz,Florian,Tobias,Jan,Kevin,Marcel,Dennis,Sebastian,Philipp,Fabian,Matthias,Benedikt,Timo,Lennart,Nico,Robin,Marvin,Kai,Joshua,Dominik,Christoph,Stefan,Thilo,Yannick,Maurice,Luca,Erik,Malte,Henrik,Till,Jannik,Niclas'),
    last: words('Müller,Schmidt,Schneider,Fischer,Weber,Meyer,Wagner,Becker,Schulz,Hoffmann,Koch,Richter,Klein,Wolf,Schröder,Neumann,Schwarz,Zimmermann,Braun,Krüger,Hofmann,Hartmann,Lange,Schmitt,Werner,Krause,Meier,Lehmann,Köhler,Herrmann,König,Walter,Mayer,Huber,Kaiser,Fuchs,Peters,Lang,Scholz,Möller,Weiß,Jung,Hahn,Vogel,Brandt'),
  },
  {
    name: 'Italy', exportWeight: 4, aliasShare: 0,
    first: words('Alessandro,Lorenzo,Matteo,Andrea,Francesco,Leonardo,Riccardo,Gabriele,Tommaso,Federico,Marco,Davide,Simone,Luca,Giacomo,Nicolò,Stefano,Giorgio,Pietro,Antonio,Daniele,Emanuele,Filippo,Giovanni,Manuel,Mattia,Michele,Paolo,Roberto,Salvatore,Samuele,Valerio,Vincenzo,Cristian,Domenico,Fabio,Gianluca,Alberto,Edoardo,Raffaele,Diego'),
    last: words("Rossi,Russo,Ferrari,Esposito,Bianchi,Romano,Colombo,Ricci,Marino,Greco,Bruno,Gallo,Conti,De Luca,Mancini,Costa,Giordano,Rizzo,Lombardi,Moretti,Barbieri,Fontana,Santoro,Mariani,Rinaldi,Caruso,Ferrara,Galli,Martini,Leone,Longo,Gentile,Martinelli,Vitale,Lombardo,Serra,Coppola,De Santis,D'Angelo,Marchetti,Parisi,Villa,Conte,Ferri,Fabbri"),
  },
  {
    name: 'France', exportWeight: 10, aliasShare: 0,
    first: words('Lucas,Hugo,Théo,Nathan,Louis,Mathis,Enzo,Raphaël,Arthur,Jules,Maxime,Antoine,Clément,Thomas,Alexandre,Quentin,Romain,Julien,Benjamin,Adrien,Kylian,Ousmane,Moussa,Mamadou,Ibrahima,Yacine,Rayan,Adam,Killian,Baptiste,Florian,Valentin,Corentin,Dylan,Jordan,Aurélien,Jérémy,Loïc,Steven,Wesley,Kevin,Mathéo'),
    last: words('Martin,Bernard,Dubois,Thomas,Robert,Richard,Petit,Durand,Leroy,Moreau,Simon,Laurent,Lefebvre,Michel,Garcia,David,Bertrand,Roux,Vincent,Fournier,Morel,Girard,André,Mercier,Dupont,Lambert,Bonnet,François,Legrand,Garnier,Faure,Rousseau,Blanc,Guérin,Muller,Henry,Roussel,Nicolas,Perrin,Morin,Mathieu,Gauthier,Diallo,Traoré,Koné,Camara,Sissoko'),
  },
  {
    name: 'Brazil', exportWeight: 12, aliasShare: 0.45,
    first: words('Gabriel,Lucas,Matheus,Pedro,Guilherme,Rafael,Felipe,Gustavo,Vinícius,Bruno,Thiago,Rodrigo,Diego,João,Carlos,Éder,Anderson,Wellington,Willian,Douglas,Everton,Fabrício,Renan,Danilo,Leandro,Marcelo,Alisson,Ederson,Raphael,Caio,Igor,Vitor,Luan,Kaio,Jefferson,Wesley,Otávio,Cláudio,Emerson,Júlio,Henrique,Murilo'),
    last: words('Silva,Santos,Oliveira,Souza,Rodrigues,Ferreira,Alves,Pereira,Lima,Gomes,Costa,Ribeiro,Martins,Carvalho,Almeida,Lopes,Soares,Fernandes,Vieira,Barbosa,Rocha,Dias,Nascimento,Andrade,Moreira,Nunes,Marques,Machado,Mendes,Freitas,Cardoso,Ramos,Gonçalves,Santana,Teixeira,Araújo,Pinto,Cavalcanti,Monteiro,Moraes,Campos,Correia'),
  },
  {
    name: 'Argentina', exportWeight: 8, aliasShare: 0.03,
    first: words('Santiago,Matías,Nicolás,Facundo,Lautaro,Julián,Gonzalo,Agustín,Franco,Joaquín,Tomás,Martín,Ezequiel,Maximiliano,Federico,Leandro,Emiliano,Cristian,Ángel,Germán,Lisandro,Nahuel,Thiago,Valentín,Exequiel,Rodrigo,Enzo,Alexis,Giovani,Guido,Marcos,Lucas,Paulo,Ramiro,Bruno,Hernán,Pablo,Sebastián,Walter,Gastón'),
    last: words('González,Rodríguez,Gómez,Fernández,López,Díaz,Martínez,Pérez,Romero,Sosa,Álvarez,Torres,Ruiz,Ramírez,Flores,Acosta,Benítez,Medina,Herrera,Suárez,Aguirre,Giménez,Gutiérrez,Pereyra,Molina,Castro,Ortiz,Silva,Núñez,Luna,Juárez,Cabrera,Ríos,Ferreyra,Godoy,Morales,Domínguez,Moreno,Peralta,Vega,Correa,Paredes,Ledesma,Barco'),
  },
  {
    name: 'Portugal', exportWeight: 7, aliasShare: 0.08,
    first: words('João,Rodrigo,Martim,Tiago,Diogo,Gonçalo,Francisco,Afonso,Duarte,Tomás,Rúben,Bernardo,Nuno,Pedro,Rafael,André,Bruno,Ricardo,Miguel,Fábio,Hélder,Sérgio,Renato,Daniel,Filipe,Gil,Hugo,José,Luís,Manuel,Mário,Nélson,Paulo,Rui,Samuel,Simão,Vasco,Vítor,Xavier,Henrique'),
    last: words('Silva,Santos,Ferreira,Pereira,Oliveira,Costa,Rodrigues,Martins,Jesus,Sousa,Fernandes,Gonçalves,Gomes,Lopes,Marques,Alves,Almeida,Ribeiro,Pinto,Carvalho,Teixeira,Moreira,Correia,Mendes,Nunes,Soares,Vieira,Monteiro,Cardoso,Rocha,Neves,Coelho,Cruz,Cunha,Pires,Ramos,Reis,Simões,Antunes,Matos,Fonseca,Leite,Barros,Tavares'),
  },
  {
    name: 'Netherlands', exportWeight: 6, aliasShare: 0,
    first: words('Daan,Sem,Lucas,Milan,Levi,Luuk,Thijs,Jesse,Bram,Stijn,Ruben,Tim,Lars,Jurriën,Wout,Joey,Kenneth,Steven,Quincy,Donny,Frenkie,Matthijs,Teun,Cody,Denzel,Xavi,Micky,Justin,Jordy,Bart,Sven,Koen,Jeroen,Niels,Pieter,Rick,Sander,Vincent,Dirk,Wesley,Jasper'),
    last: words('de Jong,Jansen,de Vries,van den Berg,van Dijk,Bakker,Janssen,Visser,Smit,Meijer,de Boer,Mulder,de Groot,Bos,Vos,Peters,Hendriks,van Leeuwen,Dekker,Brouwer,de Wit,Dijkstra,Smits,de Graaf,van der Meer,van der Linden,Kok,Jacobs,de Haan,Vermeulen,van den Heuvel,van der Veen,van den Broek,de Bruijn,Schouten,van Beek,Willems,van Vliet,Hoekstra,Koster,Timmermans,Prins'),
  },
  {
    name: 'Belgium', exportWeight: 5, aliasShare: 0,
    first: words('Lucas,Arthur,Louis,Noah,Jules,Adam,Victor,Liam,Mathis,Thibaut,Kevin,Axel,Yannick,Dries,Toby,Jan,Leander,Youri,Charles,Hans,Amadou,Arne,Timothy,Zeno,Maxim,Lois,Senne,Wout,Jelle,Bram,Pieter,Cédric,Dennis,Nacer,Mousa,Simon,Sander,Ruben,Kobe,Brecht'),
    last: words('Peeters,Janssens,Maes,Jacobs,Mertens,Willems,Claes,Goossens,Wouters,De Smet,Dubois,Lambert,Dupont,Martens,Hermans,Vermeulen,Van Damme,Declercq,Desmet,Lemmens,Verstraete,Pauwels,Michiels,Smets,Aerts,Leclercq,Lejeune,Renard,Claessens,De Wilde,Van Hecke,Bogaert,Cools,Vandenberghe,Stevens,Thys,Verbruggen,Dierckx,Hendrickx,Baert,Segers,Vanhove'),
  },
  {
    name: 'Croatia', exportWeight: 4, aliasShare: 0,
    first: words('Luka,Ivan,Marko,Josip,Mateo,Ante,Mario,Nikola,Domagoj,Dejan,Tin,Lovro,Borna,Duje,Šime,Andrej,Bruno,Dominik,Filip,Ivica,Jakov,Karlo,Kristijan,Leon,Lovre,Martin,Matej,Mislav,Nikša,Petar,Roko,Stipe,Toma,Vedran,Zvonimir,Antonio,Dario,Igor,Hrvoje,Gabrijel,Marin'),
    last: words('Horvat,Kovačević,Babić,Marić,Jurić,Novak,Kovačić,Knežević,Vuković,Marković,Petrović,Matić,Tomić,Pavlović,Perić,Božić,Blažević,Grgić,Pavić,Radić,Šarić,Lovrić,Vidović,Perković,Popović,Bošnjak,Jukić,Barišić,Sučić,Vlašić,Stanišić,Erlić,Budimir,Majer,Pašalić,Galić,Rukavina,Šutalo,Ivanušec,Bradarić,Mikulić'),
  },
  {
    name: 'Denmark', exportWeight: 4, aliasShare: 0,
    first: words('William,Noah,Oscar,Lucas,Victor,Malthe,Emil,Frederik,Oliver,Magnus,Mikkel,Rasmus,Christian,Andreas,Jonas,Mathias,Kasper,Simon,Jesper,Anders,Martin,Nicolai,Thomas,Mads,Jens,Daniel,Joachim,Pierre,Jannik,Jakob,Morten,Søren,Kristoffer,Alexander,Gustav,Villads,Elias,Asger,Jeppe,Mikael,Philip,Tobias'),
    last: words('Nielsen,Jensen,Hansen,Pedersen,Andersen,Christensen,Larsen,Sørensen,Rasmussen,Jørgensen,Petersen,Madsen,Kristensen,Olsen,Thomsen,Christiansen,Poulsen,Johansen,Møller,Mortensen,Knudsen,Jakobsen,Mikkelsen,Frederiksen,Laursen,Holm,Lund,Bech,Dalsgaard,Kjær,Skov,Damsgaard,Vestergaard,Bruun,Nørgaard,Boilesen,Wind,Lindstrøm,Kristiansen,Hjulmand,Østergaard'),
  },
  {
    name: 'Poland', exportWeight: 4, aliasShare: 0,
    first: words('Jakub,Kacper,Piotr,Mateusz,Bartosz,Michał,Krzysztof,Tomasz,Łukasz,Paweł,Kamil,Grzegorz,Wojciech,Sebastian,Adrian,Przemysław,Dawid,Damian,Szymon,Filip,Karol,Maciej,Rafał,Marcin,Arkadiusz,Robert,Jan,Patryk,Oskar,Igor,Aleksander,Hubert,Dominik,Konrad,Jacek,Artur,Mariusz,Wiktor,Antoni,Bartłomiej,Daniel'),
    last: words('Nowak,Kowalski,Wiśniewski,Wójcik,Kowalczyk,Kamiński,Lewandowski,Zieliński,Szymański,Woźniak,Dąbrowski,Kozłowski,Jankowski,Mazur,Kwiatkowski,Krawczyk,Piotrowski,Grabowski,Nowakowski,Pawłowski,Michalski,Nowicki,Adamczyk,Dudek,Zając,Wieczorek,Jabłoński,Król,Majewski,Olszewski,Jaworski,Wróbel,Malinowski,Pawlak,Witkowski,Walczak,Stępień,Górski,Rutkowski,Michalak,Sikora,Ostrowski,Baran'),
  },
  {
    name: 'Nigeria', exportWeight: 5, aliasShare: 0,
    first: words('Chukwuemeka,Oluwaseun,Emmanuel,Samuel,Victor,Ahmed,Kelechi,Wilfred,Alex,Ademola,Taiwo,Kenneth,Moses,Odion,Ola,Calvin,Semi,Frank,Chidera,Ikechukwu,Obinna,Nnamdi,Chinedu,Uche,Tochukwu,Ifeanyi,Babatunde,Olamide,Femi,Kayode,Sunday,Godfrey,Peter,Daniel,Paul,Terem,Raphael,Cyriel,Bright,Musa'),
    last: words('Okafor,Okonkwo,Adeyemi,Balogun,Eze,Nwankwo,Obi,Ogunleye,Onyekuru,Iwobi,Ndidi,Aina,Ejuke,Ekong,Awoniyi,Onuachu,Uzoho,Okoye,Nwabali,Bassey,Omeruo,Iheanacho,Ajayi,Aribo,Onyeka,Akinwale,Adebayo,Olawale,Oyelaran,Ugochukwu,Nnadi,Ezeh,Amadi,Okoro,Ibe,Agu,Olatunji,Afolabi,Chukwu,Nwosu'),
  },
  {
    name: 'Senegal', exportWeight: 5, aliasShare: 0,
    first: words('Moussa,Mamadou,Ibrahima,Cheikh,Sadio,Idrissa,Kalidou,Ismaïla,Bamba,Pape,Abdou,Youssouf,Boulaye,Habib,Krépin,Nampalys,Famara,Lamine,Ousmane,Alioune,Assane,Babacar,Demba,El Hadji,Fodé,Iliman,Joseph,Khadim,Malick,Mbaye,Modou,Nicolas,Omar,Saliou,Samba,Seydou,Souleymane,Abdoulaye,Baye,Formose,Moustapha'),
    last: words('Diop,Ndiaye,Sarr,Mané,Gueye,Koulibaly,Mendy,Diallo,Sow,Ba,Fall,Faye,Seck,Cissé,Diatta,Dieng,Kouyaté,Ciss,Diouf,Niang,Sané,Touré,Camara,Sy,Thiam,Wagué,Badji,Diédhiou,Sabaly,Ndour,Lopy,Mbodji,Diagne,Coly,Gomis,Tall,Kane,Mbaye,Diémé,Sylla,Dramé'),
  },
  {
    name: 'Japan', exportWeight: 3, aliasShare: 0,
    first: words('Takumi,Kaoru,Wataru,Daichi,Takefusa,Ritsu,Hiroki,Ko,Yuki,Shoya,Takehiro,Ayase,Kyogo,Daizen,Junya,Yuto,Genki,Shuto,Yukinari,Koki,Reo,Kento,Hidemasa,Ao,Keito,Takuma,Sota,Haruto,Ren,Riku,Yuma,Kaito,Sho,Naoki,Tomoya,Shinji,Makoto,Kenta,Yosuke,Ryo,Daiki'),
    last: words('Sato,Suzuki,Takahashi,Tanaka,Watanabe,Ito,Yamamoto,Nakamura,Kobayashi,Kato,Yoshida,Yamada,Sasaki,Yamaguchi,Matsumoto,Inoue,Kimura,Hayashi,Shimizu,Yamazaki,Mori,Abe,Ikeda,Hashimoto,Ishikawa,Ogawa,Okada,Goto,Hasegawa,Murakami,Kondo,Ishii,Saito,Sakamoto,Endo,Aoki,Fujii,Nishimura,Fukuda,Ota,Miura,Fujiwara,Okamoto,Matsuda,Nakagawa'),
  },
];

/** One-word names in the Brazilian and Iberian style. */
export const ALIASES: readonly string[] = words(
  'Juninho,Dudu,Tiquinho,Zezinho,Carlinhos,Paulinho,Serginho,Fabinho,Luizão,Bruninho,Pedrinho,Marcão,Guga,Tuca,Nenê,Didi,Léo,Tetê,Dodô,Joãozinho,Rafinha,Danilinho,Pepê,Biro,Cacá,Zeca,Gabigol,Vitinho,Tchê,Betinho,Toninho,Edu,Juan,Chico',
);

export interface ClubNaming {
  readonly towns: readonly string[];
  /** `{T}` is replaced by a town. */
  readonly patterns: readonly string[];
}

export const CLUB_NAMING: Readonly<Record<string, ClubNaming>> = {
  England: {
    towns: words('Ashbourne,Kingsbridge,Harrowfield,Bramford,Castleton,Eastwick,Fernley,Glenhurst,Hadleigh,Ironbridge,Kelsworth,Langford,Marlowe,Northam,Oakhampton,Penmarsh,Queensbury,Redcliffe,Stanmoor,Thornbury,Ulverby,Wexley,Yarborough,Ashcombe,Birchwood,Carlham,Dunmore,Elmsworth,Fallowfield,Grantley,Hollingbrook,Kirkdale,Lindon,Millbrook,Norwood,Pemberton,Rushford,Saltmarsh,Tenbury,Westerby,Whitmore,Brackenridge,Coldstream,Daventon,Halewood,Moorgate,Sedgefield'),
    patterns: words('{T} United,{T} City,{T} Town,{T} Rovers,{T} Athletic,{T} Albion,{T} Wanderers,{T} County,{T} Rangers,{T} Villa,{T} Forest,{T} United,{T} City,{T} Town'),
  },
  Spain: {
    towns: words('Valdoria,Almarena,Montecillo,Villarosa,Torrealba,San Lorenzo,Riberalta,Peñaroja,Castellar,Miraflores,Arroyomar,Benalcázar,Calzada,Fuentesol,Guadalmar,Lucentia,Montejo,Navaluz,Olivenza,Palmares,Quintanar,Robledo,Sotomayor,Urdiales,Valmonte,Zafrilla,Alcorisa,Buenavista,Costaverde,Las Peñas'),
    patterns: words('Real {T},{T} CF,CD {T},UD {T},Atlético {T},Deportivo {T},Racing {T},SD {T},Sporting {T},RC {T},CF {T}'),
  },
  Germany: {
    towns: words('Altenburg,Bergheim,Dornstadt,Eichenau,Falkenrode,Grünwald,Hagenfeld,Kaltenbach,Lindenau,Mühlhagen,Rosenfels,Steinbach,Talheim,Waldkirchen,Zellhausen,Brunnstadt,Dreieichen,Ebersfeld,Haldenstein,Kirchberg,Lauterbach,Mittelfeld,Nordhafen,Ostwald,Rheinau,Sandhofen,Tannenberg,Weißenfels,Wolfsheide,Auerbach'),
    patterns: words('FC {T},SV {T},VfB {T},VfL {T},1. FC {T},Borussia {T},Eintracht {T},TSV {T},SpVgg {T},Fortuna {T},Union {T},Arminia {T},SC {T}'),
  },
  Italy: {
    towns: words('Castelfranco,Montebello,Pontevecchio,Roccalta,San Vitale,Torrebianca,Valverde,Borgomare,Campolungo,Fiorenza,Acquaviva,Belmonte,Casalnuovo,Colleverde,Fontanelle,Marinella,Monteverde,Portomaggiore,Santa Rosa,Serravalle,Terranova,Vallombra,Verolanuova,Pietrasanta,Lagonero,Rivalta,Sangiorgio,Altamura Nuova,Valsesia,Castelnuovo'),
    patterns: words('AC {T},{T} Calcio,US {T},SS {T},AS {T},Virtus {T},Sporting {T},FC {T},Atletico {T},Polisportiva {T}'),
  },
  France: {
    towns: words("Valmont,Beaurivage,Castelnau,Montferrand,Saint-Aubin,Villeneuve-sur-Lys,Rochebrune,Clairvaux,Belleville,Chambourg,Fontaine-les-Bains,Lormont,Mirebeau,Pontmarais,Saint-Clair,Val-d'Aurel,Vauclair,Brionne,Chantemerle,Doubrac,Estérac,Grandpré,Haute-Rive,Lunel-Plage,Sainte-Odile,Bourgneuf,Montlaurier,Pierrefort"),
    patterns: words('Olympique de {T},AS {T},FC {T},Stade {T},RC {T},SC {T},US {T},{T} FC,En Avant {T},AJ {T},Girondins de {T}'),
  },
};

export interface ForeignClubDef {
  readonly name: string;
  readonly country: string;
  /** Typical rating level of the club's first team. */
  readonly level: number;
  /** Sells players into the simulated leagues (true) or mainly buys veterans from them (false). */
  readonly feeder: boolean;
}

/** Clubs outside the simulated leagues: where imports come from and where departures go. */
export const FOREIGN_CLUBS: readonly ForeignClubDef[] = [
  { name: 'Sporting Vale do Sol', country: 'Portugal', level: 72, feeder: true },
  { name: 'Académica do Norte', country: 'Portugal', level: 69, feeder: true },
  { name: 'SV Zuiderhaven', country: 'Netherlands', level: 71, feeder: true },
  { name: 'FC Dijkveld', country: 'Netherlands', level: 68, feeder: true },
  { name: 'KV Scheldeburg', country: 'Belgium', level: 69, feeder: true },
  { name: 'Esporte Clube Serra Azul', country: 'Brazil', level: 70, feeder: true },
  { name: 'Clube Atlético Paulistano', country: 'Brazil', level: 68, feeder: true },
  { name: 'Club Atlético Río Claro', country: 'Argentina', level: 69, feeder: true },
  { name: 'NK Dalmacija', country: 'Croatia', level: 67, feeder: true },
  { name: 'Fjordby BK', country: 'Denmark', level: 66, feeder: true },
  { name: 'KS Warta Zielona', country: 'Poland', level: 65, feeder: true },
  { name: 'Kanto Shinsei FC', country: 'Japan', level: 65, feeder: true },
  { name: 'Lagos Harbour FC', country: 'Nigeria', level: 60, feeder: true },
  { name: 'AS Dakar Plateau', country: 'Senegal', level: 60, feeder: true },
  { name: 'Boğazspor', country: 'Turkey', level: 70, feeder: false },
  { name: 'Al-Wadi Club', country: 'Saudi Arabia', level: 70, feeder: false },
  { name: 'Bayport FC', country: 'United States', level: 66, feeder: false },
  { name: 'Glenmuir Athletic', country: 'Scotland', level: 67, feeder: false },
];

export const AGENCIES: readonly string[] = words(
  'Apex Sports Management,Northline Football Agency,Crown & Pitch Partners,Meridian Athletes,Blue Harbour Sports,Vantage Football Group,Silverline Management,Goalpost Representation,Primeira Talent,Eurostar Players Agency,Keystone Sports Group,Atlas Football Partners,Red Oak Management,Touchstone Athletes,Orbit Sports Agency,Cornerflag Consulting,Helix Football,Summit Player Services,Lionsgate Sports Representation,Novaterra Management,Stadia Partners,Ironclad Sports,Pinnacle Football Advisors,Westbridge Agency,Crescent Talent Group,Falcon Sports Management,Horizon Players,Baseline Sports Group,Sterling Football Partners,Continental Athlete Management',
);
