/** Football's names for clubs, competitions and players on the real data, and what a person means by them (bench/similar.ts and its real-data test). */
export const FOOTBALL_NAMES: ReadonlyArray<readonly [string, string]> = [
  ['psg', 'Paris Saint-Germain'], ['man utd', 'Manchester United'], ['man city', 'Manchester City'], ['spurs', 'Tottenham Hotspur'],
  ['barca', 'FC Barcelona'], ['atleti', 'Atlético de Madrid'], ['inter', 'Inter Milan'], ['bayern munchen', 'Bayern Munich'],
  ['gladbach', 'Borussia Mönchengladbach'], ['bvb', 'Borussia Dortmund'], ['la liga', 'Laliga'], ['premier league', 'Premier League'],
  ['serie a', 'Serie A'], ['bundesliga', 'Bundesliga'], ['ligue 1', 'Ligue 1'], ['champions league', 'Uefa Champions League'],
  ['debruyne', 'Kevin De Bruyne'], ['vandijk', 'Virgil van Dijk'], ['terstegen', 'Marc-André ter Stegen'], ['vinicius', 'Vinicius Junior'],
  ['mbappe', 'Kylian Mbappé'], ['odegaard', 'Martin Ødegaard'], ['vini jun', 'Vinicius Junior'], ['haalnd', 'Erling Haaland'],
];
