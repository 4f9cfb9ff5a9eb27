import { seasonOf } from '../domain/season.js';
import { ratingReleaseDate } from './rating-releases.js';
import type {
  AppearanceRow, CareerStepRow, ClubRow, ClubSeasonRow, CompetitionRow, ContractRow, MarketValueRow, MatchRow,
  PlayerAttribute, PlayerRow, RatingRow, RoleRow, TransferRow, WorldData,
} from './world.js';

/**
 * The world as of one date, held in memory with the indexes the endpoints need. Built from the
 * stored rows; nothing dated after the as-of date is kept, so no reader can see the future.
 */
export interface Snapshot {
  /**
   * The same object for a snapshot and each of its season-membership variants (withSeasonClubs): what depends
   * only on the data as of the date (player facts, feature and discovery indexes) is cached on it, so naming next
   * season's clubs rebuilds none of that.
   */
  readonly dataIdentity: object;
  readonly asOf: string;
  readonly dataVersion: string;
  /** Version of our model ratings in the data ('none' before the first training). */
  readonly ratingsVersion: string;
  readonly currentSeason: number;
  readonly analysisSeason: number;
  readonly competitions: ReadonlyMap<string, CompetitionRow>;
  readonly clubs: ReadonlyMap<string, ClubRow>;
  readonly clubByRegistryA: ReadonlyMap<number, ClubRow>;
  readonly players: ReadonlyMap<string, PlayerRow>;
  readonly playerByRegistryA: ReadonlyMap<number, PlayerRow>;
  readonly playerByRegistryB: ReadonlyMap<number, PlayerRow>;
  readonly roles: readonly RoleRow[];
  /** Domestic league of each club in every season up to the current one. */
  readonly clubSeasons: readonly ClubSeasonRow[];
  /** League of each club in the current season. */
  readonly leagueOfClub: ReadonlyMap<string, string>;
  /** Clubs of each league in the current season, by name. */
  readonly clubsOfLeague: ReadonlyMap<string, readonly string[]>;
  /** Version of the stored season membership in force ('none' when nothing was set). */
  readonly membershipVersion: string;
  /** League of each club in the analysis season: the operator's membership, else the current season's. */
  readonly analysisLeagueOfClub: ReadonlyMap<string, string>;
  /** Clubs of each league in the analysis season, by name; every simulation reads these. */
  readonly analysisClubsOfLeague: ReadonlyMap<string, readonly string[]>;
  /** Leagues whose analysis-season clubs the operator named; every other league assumes the current season's. */
  readonly declaredLeagues: ReadonlySet<string>;
  /** Clubs playing in each competition this season: a league's members, a cup's participants. */
  readonly clubsOfCompetition: ReadonlyMap<string, readonly string[]>;
  /** Career steps per player, oldest first; a step still running at the as-of date has end_date null. */
  readonly careers: ReadonlyMap<string, readonly CareerStepRow[]>;
  /** Players whose current team is the club, by name. */
  readonly squads: ReadonlyMap<string, readonly string[]>;
  readonly appearances: ReadonlyMap<string, readonly AppearanceRow[]>;
  /** Market values per player, oldest first. */
  readonly values: ReadonlyMap<string, readonly MarketValueRow[]>;
  readonly transfers: readonly TransferRow[];
  readonly transfersOfPlayer: ReadonlyMap<string, readonly TransferRow[]>;
  /** Our own ratings per player, oldest season first. */
  readonly ratings: ReadonlyMap<string, readonly RatingRow[]>;
  /** External ratings (source other than 'model') released on or before the as-of date (see rating-releases.ts). */
  readonly externalRatings: readonly RatingRow[];
  /**
   * External ratings released after the as-of date. Only the rating model's fit reads them, to learn
   * how a rating moves from one edition to the next (cross-fitted, so no player's own later rating
   * reaches his rating); nothing serves them.
   */
  readonly laterExternalRatings: readonly RatingRow[];
  /** Each player's latest external attribute profile released by the current season (none for most). */
  readonly attributes: ReadonlyMap<string, Readonly<Partial<Record<PlayerAttribute, number>>>>;
  /** The contract in force at the as-of date. */
  readonly contracts: ReadonlyMap<string, ContractRow>;
  readonly matches: readonly MatchRow[];
}

function groupBy<T>(rows: readonly T[], key: (r: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}

export function buildSnapshot(world: WorldData, asOf: string, dataVersion: string, ratingsVersion = 'none'): Snapshot {
  const currentSeason = seasonOf(asOf);
  const competitions = new Map(world.competitions.map((c) => [c.id, c]));
  const clubs = new Map(world.clubs.map((c) => [c.id, c]));
  const clubByRegistryA = new Map<number, ClubRow>();
  for (const c of world.clubs) if (c.registry_a_id !== null) clubByRegistryA.set(c.registry_a_id, c);

  // Once our models have rated the world, analysis needs a recent rating as well as the data flag.
  const ratedRecently = new Set(
    world.ratings.filter((r) => r.source === 'model' && r.season <= currentSeason && r.season >= currentSeason - 1).map((r) => r.player_id),
  );
  const analysable = (p: PlayerRow) => p.analysis_available && (ratingsVersion === 'none' || ratedRecently.has(p.id));
  const players = new Map(world.players.map((p) => [p.id, analysable(p) === p.analysis_available ? p : { ...p, analysis_available: false }]));
  const playerByRegistryA = new Map<number, PlayerRow>();
  const playerByRegistryB = new Map<number, PlayerRow>();
  for (const p of world.players) {
    if (p.registry_a_id !== null) playerByRegistryA.set(p.registry_a_id, p);
    if (p.registry_b_id !== null && !playerByRegistryB.has(p.registry_b_id)) playerByRegistryB.set(p.registry_b_id, p);
  }

  const clubSeasons = world.club_seasons.filter((cs) => cs.season <= currentSeason);
  const leagueOfClub = new Map<string, string>();
  for (const cs of clubSeasons) {
    if (cs.season === currentSeason && competitions.get(cs.competition_id)?.type === 'DOMESTIC_LEAGUE') {
      leagueOfClub.set(cs.club_id, cs.competition_id);
    }
  }
  const byName = (a: string, b: string) => (clubs.get(a)?.name ?? '').localeCompare(clubs.get(b)?.name ?? '') || a.localeCompare(b);
  const clubsOfLeague = new Map<string, string[]>();
  for (const [club, league] of leagueOfClub) {
    const list = clubsOfLeague.get(league) ?? [];
    list.push(club);
    clubsOfLeague.set(league, list);
  }
  for (const list of clubsOfLeague.values()) list.sort(byName);
  const clubsOfCompetition = new Map<string, string[]>(clubsOfLeague);
  {
    // Cups have no membership rows: their participants are the clubs seen in this season's games or appearances.
    const participants = new Map<string, Set<string>>();
    const seen = (competitionId: string, clubId: string) => {
      const type = competitions.get(competitionId)?.type;
      if (type === undefined || type === 'DOMESTIC_LEAGUE' || !clubs.has(clubId)) return;
      const set = participants.get(competitionId) ?? new Set<string>();
      set.add(clubId);
      participants.set(competitionId, set);
    };
    for (const m of world.matches) {
      if (m.season !== currentSeason || m.date > asOf) continue;
      seen(m.competition_id, m.home_club_id);
      seen(m.competition_id, m.away_club_id);
    }
    for (const a of world.appearances) if (a.season === currentSeason) seen(a.competition_id, a.club_id);
    for (const [competitionId, set] of participants) clubsOfCompetition.set(competitionId, [...set].sort(byName));
  }

  // Steps that start later are unknown; steps that end later are still running.
  const careers = groupBy(
    world.career_steps
      .filter((s) => s.start_date <= asOf)
      .map((s) => (s.end_date !== null && s.end_date > asOf ? { ...s, end_date: null } : s)),
    (s) => s.player_id,
  );
  const squadsMut = new Map<string, string[]>();
  for (const [playerId, steps] of careers) {
    steps.sort((a, b) => a.start_date.localeCompare(b.start_date) || a.club_id.localeCompare(b.club_id));
    const last = steps[steps.length - 1];
    if (last.end_date === null) {
      const list = squadsMut.get(last.club_id) ?? [];
      list.push(playerId);
      squadsMut.set(last.club_id, list);
    }
  }
  const byPlayerName = (a: string, b: string) =>
    (players.get(a)?.name ?? '').localeCompare(players.get(b)?.name ?? '') || a.localeCompare(b);
  for (const list of squadsMut.values()) list.sort(byPlayerName);

  const appearances = groupBy(
    world.appearances.filter((a) => a.season <= currentSeason),
    (a) => a.player_id,
  );
  const values = groupBy(
    world.market_values.filter((v) => v.date <= asOf),
    (v) => v.player_id,
  );
  for (const list of values.values()) list.sort((a, b) => a.date.localeCompare(b.date));

  const transfers = world.transfers.filter((t) => t.date <= asOf).sort((a, b) => a.date.localeCompare(b.date) || a.id.localeCompare(b.id));
  const transfersOfPlayer = groupBy(transfers, (t) => t.player_id);

  const visibleRatings = world.ratings.filter((r) => r.season <= currentSeason);
  const ratings = groupBy(
    visibleRatings.filter((r) => r.source === 'model'),
    (r) => r.player_id,
  );
  for (const list of ratings.values()) list.sort((a, b) => a.season - b.season);

  // An edition released after the as-of date (season later than the current one) is not known yet.
  const attributes = new Map<string, Partial<Record<PlayerAttribute, number>>>();
  const attributeSeason = new Map<string, number>();
  for (const a of world.player_attributes ?? []) {
    if (a.season > currentSeason || (attributeSeason.get(a.player_id) ?? -Infinity) >= a.season) continue;
    attributeSeason.set(a.player_id, a.season);
    attributes.set(a.player_id, JSON.parse(a.attributes) as Partial<Record<PlayerAttribute, number>>);
  }

  const contracts = new Map<string, ContractRow>();
  for (const c of world.contracts) {
    if (c.signed_date > asOf) continue;
    const prev = contracts.get(c.player_id);
    if (!prev || c.signed_date > prev.signed_date) contracts.set(c.player_id, c);
  }

  return {
    asOf,
    dataVersion,
    ratingsVersion,
    currentSeason,
    analysisSeason: currentSeason + 1,
    competitions,
    clubs,
    clubByRegistryA,
    players,
    playerByRegistryA,
    playerByRegistryB,
    roles: world.roles,
    clubSeasons,
    leagueOfClub,
    clubsOfLeague,
    dataIdentity: {},
    membershipVersion: 'none',
    analysisLeagueOfClub: leagueOfClub,
    analysisClubsOfLeague: clubsOfLeague,
    declaredLeagues: new Set<string>(),
    clubsOfCompetition,
    careers,
    squads: squadsMut,
    appearances,
    values,
    transfers,
    transfersOfPlayer,
    ratings,
    externalRatings: world.ratings.filter((r) => r.source !== 'model' && ratingReleaseDate(r.source, r.season) <= asOf),
    laterExternalRatings: world.ratings.filter((r) => r.source !== 'model' && ratingReleaseDate(r.source, r.season) > asOf),
    attributes,
    contracts,
    matches: world.matches.filter((m) => m.date <= asOf),
  };
}

/** The operator's membership of one league in one season (see `leagues set-clubs`). */
export interface SeasonClubsRow {
  competition_id: string;
  season: number;
  club_id: string;
}

/**
 * The snapshot with the analysis season's leagues taken from the stored membership: a league named
 * for that season holds exactly the clubs set, each club moves to it, and every other league keeps
 * the current season's clubs minus those that moved. Rows of other seasons, unknown clubs or
 * competitions that are not domestic leagues are ignored. Cheap: the rest of the snapshot is shared.
 */
export function withSeasonClubs(snapshot: Snapshot, rows: readonly SeasonClubsRow[], membershipVersion: string): Snapshot {
  const set = new Map<string, string[]>();
  for (const r of rows) {
    if (r.season !== snapshot.analysisSeason || !snapshot.clubs.has(r.club_id)) continue;
    if (snapshot.competitions.get(r.competition_id)?.type !== 'DOMESTIC_LEAGUE') continue;
    const list = set.get(r.competition_id) ?? [];
    list.push(r.club_id);
    set.set(r.competition_id, list);
  }
  if (set.size === 0) {
    return {
      ...snapshot, membershipVersion, analysisLeagueOfClub: snapshot.leagueOfClub, analysisClubsOfLeague: snapshot.clubsOfLeague, declaredLeagues: new Set<string>(),
    };
  }
  const leagueOf = new Map<string, string>();
  for (const [club, league] of snapshot.leagueOfClub) if (!set.has(league)) leagueOf.set(club, league);
  for (const [league, clubs] of [...set].sort(([a], [b]) => a.localeCompare(b))) for (const c of clubs) leagueOf.set(c, league);
  const byName = (a: string, b: string) => (snapshot.clubs.get(a)?.name ?? '').localeCompare(snapshot.clubs.get(b)?.name ?? '') || a.localeCompare(b);
  const clubsOf = new Map<string, string[]>();
  for (const [club, league] of leagueOf) {
    const list = clubsOf.get(league) ?? [];
    list.push(club);
    clubsOf.set(league, list);
  }
  // A league emptied by moves keeps an empty entry rather than disappearing from the analysis season.
  for (const league of snapshot.clubsOfLeague.keys()) if (!clubsOf.has(league)) clubsOf.set(league, []);
  for (const list of clubsOf.values()) list.sort(byName);
  return { ...snapshot, membershipVersion, analysisLeagueOfClub: leagueOf, analysisClubsOfLeague: clubsOf, declaredLeagues: new Set(set.keys()) };
}
