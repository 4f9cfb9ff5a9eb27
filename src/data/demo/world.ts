import { stableId } from '../../domain/ids.js';
import { POSITION_GROUP, type PositionCode, type PositionGroup } from '../../domain/positions.js';
import { ROLES } from '../../domain/roles.js';
import { seasonOf } from '../../domain/season.js';
import type {
  AppearanceRow,
  CareerStepRow,
  ClubRow,
  ClubSeasonRow,
  CompetitionRow,
  ContractRow,
  MarketValueRow,
  MatchRow,
  PlayerRow,
  RatingRow,
  RoleRow,
  TransferRow,
  WorldData,
} from '../../domain/world.js';
import { dayOf, isoOf, saturdayOnOrAfter, wholeAge, yearsBetween, ymd } from './dates.js';
import {
  CHALLENGE_CUP,
  CHAMPIONS_CUP,
  COUNTRY_CUPS,
  LEAGUES,
  NATIONAL_MATCHES,
  PROMOTION_PLACES,
  SUPER_CUP,
  leagueCompetition,
  type LeagueDef,
} from './leagues.js';
import { AGENCIES, ALIASES, CLUB_NAMING, FOREIGN_CLUBS, NATIONALITIES, type Nationality } from './names.js';
import { Rng } from './rng.js';

export interface DemoWorldOptions {
  /** Any integer; the same seed and as-of date give the same world, ids included. */
  seed: number;
  /** ISO date: nothing in the world is dated after it; its season is the current one. */
  asOf: string;
}

/** Seasons of history, the current one included. */
export const DEMO_SEASONS = 10;
/**
 * Seasons simulated before the first one shown, so squads, ages and careers reach a steady state;
 * only the careers, contracts and transfers of players still around by then are kept.
 */
const BURN_IN = 8;

const GROUPS: readonly PositionGroup[] = ['GK', 'DEF', 'MID', 'FWD'];
/** Squad shape a club aims for: 3 GK, 9 defenders, 9 midfielders, 6 forwards. */
const GROUP_TARGET: Record<PositionGroup, number> = { GK: 3, DEF: 9, MID: 9, FWD: 6 };
/** Starting places per group in the 4-3-3 used for strength and playing time. */
const XI_SLOTS: Record<PositionGroup, number> = { GK: 1, DEF: 4, MID: 3, FWD: 3 };
/** Positions within a group, flank variants folded onto their main code. */
const POSITION_TARGET: readonly (readonly [PositionCode, number])[] = [
  ['GK', 3], ['CB', 4], ['LB', 2], ['RB', 2], ['CDM', 2], ['CM', 3], ['LM', 1], ['RM', 1], ['CAM', 2],
  ['ST', 2], ['CF', 1], ['LW', 1], ['RW', 1],
];
const FOLD: Partial<Record<PositionCode, PositionCode>> = { LWB: 'LB', RWB: 'RB', LF: 'LW', RF: 'RW' };
const VARIANTS: Partial<Record<PositionCode, readonly [readonly PositionCode[], readonly number[]]>> = {
  LB: [['LB', 'LWB'], [0.85, 0.15]],
  RB: [['RB', 'RWB'], [0.85, 0.15]],
  LW: [['LW', 'LF'], [0.75, 0.25]],
  RW: [['RW', 'RF'], [0.75, 0.25]],
};
const SQUAD_MIN = 26;
const SQUAD_MAX = 30;
const MAX_LOANS_OUT = 4;
/** Ages of the very first squads, close to the steady state the simulation settles into. */
const AGE_WEIGHTS: readonly (readonly [number, number])[] = [
  [16, 3], [17, 6], [18, 6.5], [19, 6.5], [20, 6.5], [21, 6.5], [22, 6.5], [23, 6.5], [24, 6.5], [25, 6.5],
  [26, 6.5], [27, 6.5], [28, 6.5], [29, 6.5], [30, 6.5], [31, 6], [32, 5], [33, 3], [34, 1], [35, 0.4],
];
const IMPORT_AGES: readonly (readonly [number, number])[] = [
  [19, 3], [20, 5], [21, 7], [22, 8], [23, 9], [24, 9], [25, 9], [26, 8], [27, 7], [28, 6], [29, 4], [30, 3], [31, 2],
];
const HEIGHT: Record<PositionCode, readonly [number, number]> = {
  GK: [191, 4], CB: [188, 4], LB: [178, 5], RB: [178, 5], LWB: [177, 5], RWB: [177, 5], CDM: [183, 5],
  CM: [180, 5], LM: [176, 5], RM: [176, 5], CAM: [177, 5], LW: [175, 6], RW: [175, 6], LF: [177, 6],
  RF: [177, 6], CF: [181, 6], ST: [185, 6],
};
const ROLES_BY_POSITION = new Map(
  (Object.keys(POSITION_GROUP) as PositionCode[]).map((pos) => [pos, ROLES.filter((r) => r.positions.includes(pos))]),
);
/** The big agencies (first in the list) hold more players. */
const AGENCY_WEIGHTS = AGENCIES.map((_, i) => (i < 8 ? 3 : 1));
const LEFT_SIDE = new Set<PositionCode>(['LB', 'LWB', 'LM', 'LW', 'LF']);
const RIGHT_SIDE = new Set<PositionCode>(['RB', 'RWB', 'RM', 'RW', 'RF']);

interface Club {
  idx: number;
  row: ClubRow;
  kind: 'league' | 'foreign' | 'national';
  /** Rating level the club can afford (best-XI scale); drifts with results. */
  q: number;
  league: LeagueDef | null;
  feeder: boolean;
  team: Set<Player>;
  /** Players of each position group in `team`, kept in step with it. */
  groups: Record<PositionGroup, number>;
  loansOut: number;
  strength: number;
}

interface Spell {
  club: Club;
  start: number;
  end: number | null;
  loan: boolean;
  parent: Club | null;
}

interface SeasonRating {
  rating: number;
  potential: number;
  /** Form and availability for the season: who plays, how often. */
  form: number;
  avail: number;
}

interface Player {
  idx: number;
  row: PlayerRow;
  birthDay: number;
  pos: PositionCode;
  group: PositionGroup;
  role: string;
  rating: number;
  talent: number;
  vNoise: number;
  vAr: number;
  agency: string | null;
  team: Club | null;
  owner: Club | null;
  lastClub: Club | null;
  onLoan: boolean;
  /** The current contract ends on 30 June of this year. */
  contractEnd: number;
  spells: Spell[];
  open: Spell | null;
  status: 'active' | 'retired' | 'abroad';
  movedSeason: number;
  ratings: Map<number, SeasonRating>;
}

interface Participation {
  season: number;
  comp: CompetitionRow;
  club: Club;
  dates: number[];
  /** Set for national teams: the called-up players. */
  members?: Player[];
}

interface SeasonResults {
  tables: Map<string, Club[]>;
  cupWinners: Map<string, Club>;
  championsWinner: Club;
  challengeWinner: Club;
}

interface Listing {
  p: Player;
  free: boolean;
  sold: boolean;
  age: number;
}

const SEASON_CACHE = new Map<number, number>();
const seasonOfDay = (day: number): number => {
  let s = SEASON_CACHE.get(day);
  if (s === undefined) {
    s = seasonOf(isoOf(day));
    SEASON_CACHE.set(day, s);
  }
  return s;
};
const fold = (pos: PositionCode): PositionCode => FOLD[pos] ?? pos;
const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));
/** Peaks above the mid eighties are rare: halves whatever lies beyond. */
const softCap = (talent: number): number => (talent > 85 ? 85 + (talent - 85) * 0.5 : talent);

/** Rounds money the way valuation sites quote it. */
function roundMoney(v: number): number {
  const step = v < 1e6 ? 25_000 : v < 5e6 ? 100_000 : v < 20e6 ? 500_000 : 1_000_000;
  return Math.max(step, Math.round(v / step) * step);
}

export class DemoWorld {
  private readonly seed: number;
  private readonly asOfDay: number;
  readonly current: number;
  readonly first: number;
  private readonly start: number;
  private readonly rng: Rng;
  private readonly matchRng: Rng;
  private readonly appRng: Rng;

  private readonly clubs: Club[] = [];
  private readonly leagueClubs = new Map<string, Club[]>();
  private readonly foreign: Club[] = [];
  private readonly nations = new Map<string, Club>();
  private readonly players: Player[] = [];
  private readonly usedNames = new Set<string>();
  private readonly natByName = new Map<string, Nationality>(NATIONALITIES.map((n) => [n.name, n]));

  private readonly competitions: CompetitionRow[] = [];
  private readonly clubSeasons: ClubSeasonRow[] = [];
  private readonly contracts: ContractRow[] = [];
  private readonly contractKeys = new Map<number, ContractRow>();
  private readonly transfers: TransferRow[] = [];
  private readonly ratings: RatingRow[] = [];
  private readonly values: MarketValueRow[] = [];
  private readonly matches: MatchRow[] = [];
  private readonly participations: Participation[] = [];
  private prev: SeasonResults | null = null;
  private season = 0;

  constructor(opts: DemoWorldOptions) {
    this.seed = opts.seed;
    this.asOfDay = dayOf(opts.asOf);
    if (!Number.isFinite(this.asOfDay)) throw new Error(`Invalid asOf date: ${opts.asOf}`);
    this.current = seasonOf(opts.asOf);
    this.first = this.current - DEMO_SEASONS + 1;
    this.start = this.first - BURN_IN;
    this.rng = Rng.stream(opts.seed, 'world');
    this.matchRng = Rng.stream(opts.seed, 'matches');
    this.appRng = Rng.stream(opts.seed, 'appearances');
  }

  generate(): WorldData {
    this.buildCompetitions();
    this.buildClubs();
    for (let s = this.start; s <= this.current; s++) {
      this.season = s;
      const window = this.windowRange(ymd(s, 7, 2), ymd(s, 8, 31));
      if (s === this.start) this.initialSquads(s);
      else this.summer(s, window);
      this.summerLoans(s, window);
      this.fillAndTrim(s, window);
      for (const p of this.players) if (this.inWorld(p)) this.ensureRated(p, s);
      this.playSeason(s);
      this.renewals(s);
      this.emitValues(ymd(s, 12, 1));
      this.winter(s);
      this.emitValues(ymd(s + 1, 6, 1));
      if (s < this.current) this.endSeason();
    }
    this.nationalTeams();
    const appearances = this.appearances();
    // Players gone before the first shown season never appear, nor do their rows.
    const kept = this.players.filter((p) => p.ratings.size > 0);
    const keptIds = new Set(kept.map((p) => p.row.id));
    return {
      roles: ROLES.map((r): RoleRow => ({ id: r.role, name: r.name, description: r.description, positions: [...r.positions] })),
      competitions: this.competitions,
      clubs: this.clubs.map((c) => c.row),
      club_seasons: this.clubSeasons,
      players: kept.map((p) => p.row),
      contracts: this.contracts.filter((c) => keptIds.has(c.player_id)),
      career_steps: this.careerSteps(kept),
      appearances,
      market_values: this.values,
      transfers: this.transfers.filter((t) => keptIds.has(t.player_id)),
      ratings: this.ratings,
      // The demo world has no external attribute profiles: similarity reads its ratings and roles.
      player_attributes: [],
      matches: this.matches,
    };
  }

  // ---------------------------------------------------------------- setup

  private buildCompetitions(): void {
    for (const l of LEAGUES) this.competitions.push(leagueCompetition(l));
    for (const c of COUNTRY_CUPS) this.competitions.push(c.cup, c.supercup);
    this.competitions.push(CHAMPIONS_CUP, CHALLENGE_CUP, SUPER_CUP, NATIONAL_MATCHES);
  }

  private newClub(name: string, country: string, kind: Club['kind'], q: number, league: LeagueDef | null, feeder = false): Club {
    const idx = this.clubs.length;
    const club: Club = {
      idx,
      row: {
        id: stableId('C', `demo:${this.seed}:club:${idx}`),
        registry_a_id: 1000 + idx * 7 + this.rng.int(0, 6),
        name,
        country,
        is_national_team: kind === 'national',
      },
      kind,
      q,
      league,
      feeder,
      team: new Set(),
      groups: { GK: 0, DEF: 0, MID: 0, FWD: 0 },
      loansOut: 0,
      strength: q,
    };
    this.clubs.push(club);
    return club;
  }

  private buildClubs(): void {
    const usedClubNames = new Set<string>();
    const townsLeft = new Map<string, string[]>();
    for (const [country, naming] of Object.entries(CLUB_NAMING)) townsLeft.set(country, this.rng.shuffle([...naming.towns]));
    for (const l of LEAGUES) {
      const naming = CLUB_NAMING[l.country];
      const towns = townsLeft.get(l.country) ?? [];
      const list: Club[] = [];
      for (let i = 0; i < l.size; i++) {
        let name = '';
        do {
          const town = towns.pop() ?? `Nova ${i}`;
          name = this.rng.pick(naming.patterns).replace('{T}', town);
        } while (usedClubNames.has(name));
        usedClubNames.add(name);
        // Clubs are spread from the top of the table down, with a couple of giants in each top flight.
        const rank = 1 - (i + 0.5) / l.size;
        const giant = l.tier === 1 && i < 2 ? 1.5 : 0;
        const q = l.base + l.spread * (rank - 0.5) + giant + this.rng.normal(0, 0.8);
        list.push(this.newClub(name, l.country, 'league', q, l));
      }
      this.leagueClubs.set(l.id, list);
    }
    // Lower-division clubs at home: where many signings come from and where veterans drop down.
    for (const country of new Set(LEAGUES.map((l) => l.country))) {
      const naming = CLUB_NAMING[country];
      const towns = townsLeft.get(country) ?? [];
      for (let i = 0; i < 2; i++) {
        let name = '';
        do {
          name = this.rng.pick(naming.patterns).replace('{T}', towns.pop() ?? `Vale ${i}`);
        } while (usedClubNames.has(name));
        usedClubNames.add(name);
        this.foreign.push(this.newClub(name, country, 'foreign', 63 + this.rng.normal(0, 1), null, true));
      }
    }
    for (const f of FOREIGN_CLUBS) this.foreign.push(this.newClub(f.name, f.country, 'foreign', f.level, null, f.feeder));
    for (const n of NATIONALITIES) this.nations.set(n.name, this.newClub(n.name, n.name, 'national', 0, null));
  }

  private leagueClubCache: Club[] | null = null;
  /** Every club in a simulated league this season, in league order (reset when clubs change league). */
  private allLeagueClubs(): Club[] {
    if (!this.leagueClubCache) {
      const out: Club[] = [];
      for (const l of LEAGUES) out.push(...(this.leagueClubs.get(l.id) ?? []));
      this.leagueClubCache = out;
    }
    return this.leagueClubCache;
  }

  // ---------------------------------------------------------------- players

  private foreignNationality(exclude: string): string {
    const pool = NATIONALITIES.filter((n) => n.name !== exclude);
    return this.rng.weighted(pool, pool.map((n) => n.exportWeight)).name;
  }

  private birthForAge(age: number, refDay: number): number {
    // Stay clear of birthdays so the whole age on refDay is exactly `age`.
    return refDay - Math.floor((age + 0.02 + this.rng.next() * 0.96) * 365.2425);
  }

  private positionFor(slot: PositionCode): PositionCode {
    const v = VARIANTS[slot];
    return v ? this.rng.weighted(v[0], v[1]) : slot;
  }

  private createPlayer(nat: string, pos: PositionCode, birthDay: number, rating: number, talent: number): Player {
    const idx = this.players.length;
    const n = this.natByName.get(nat) ?? NATIONALITIES[0];
    let first = '';
    let last = '';
    for (let attempt = 0; attempt < 8; attempt++) {
      first = this.rng.pick(n.first);
      last = this.rng.pick(n.last);
      if (!this.usedNames.has(`${first} ${last}`)) break;
    }
    this.usedNames.add(`${first} ${last}`);
    const [hMean, hSd] = HEIGHT[pos];
    const leftShare = LEFT_SIDE.has(pos) ? 0.6 : RIGHT_SIDE.has(pos) ? 0.08 : 0.14;
    const u = this.rng.next();
    const foot = u < 0.05 ? 'Both' : u < 0.05 + leftShare * 0.95 ? 'Left' : 'Right';
    const roles = ROLES_BY_POSITION.get(pos) ?? ROLES;
    const p: Player = {
      idx,
      row: {
        id: stableId('P', `demo:${this.seed}:player:${idx}`),
        registry_a_id: 200_000 + idx * 13 + this.rng.int(0, 12),
        registry_b_id: this.rng.chance(0.85) ? 700_000 + idx * 11 + this.rng.int(0, 10) : null,
        name: `${first} ${last}`,
        first_name: first,
        last_name: last,
        alias: this.rng.chance(n.aliasShare) ? this.rng.pick(ALIASES) : null,
        nationality: n.name,
        birth_date: isoOf(birthDay),
        height_cm: Math.round(clamp(this.rng.normal(hMean, hSd), 160, 204)),
        foot,
        position: pos,
        national_team_id: null,
        analysis_available: !this.rng.chance(0.03),
      },
      birthDay,
      pos,
      group: POSITION_GROUP[pos],
      role: this.rng.pick(roles).role,
      rating: clamp(rating, 38, 92),
      talent: clamp(Math.max(softCap(talent), rating), 38, 95),
      vNoise: this.rng.normal(0, 0.2),
      vAr: 0,
      agency: this.rng.chance(0.88) ? this.rng.weighted(AGENCIES, AGENCY_WEIGHTS) : null,
      team: null,
      owner: null,
      lastClub: null,
      onLoan: false,
      contractEnd: 0,
      spells: [],
      open: null,
      status: 'active',
      movedSeason: -1,
      ratings: new Map(),
    };
    this.players.push(p);
    return p;
  }

  /** Talent (peak) implied by a current rating at an age: the young have room to grow. */
  private talentFor(rating: number, age: number): number {
    return age < 27 ? rating + (27 - age) * 1.8 * this.rng.uniform(0.4, 1.35) : rating + Math.abs(this.rng.normal(0, 1));
  }

  private ageOn(p: Player, day: number): number {
    return yearsBetween(p.birthDay, day);
  }

  private potentialOf(p: Player, age: number): number {
    const r = p.rating;
    if (age < 27) return Math.max(r, p.talent);
    if (age < 30) return r + Math.max(0, p.talent - r) * ((30 - age) / 3);
    return r;
  }

  private ensureRated(p: Player, s: number): void {
    if (s < this.first || s > this.current || p.ratings.has(s)) return;
    const age = this.ageOn(p, ymd(s, 7, 1));
    const rating = clamp(Math.round(p.rating), 35, 94);
    const potNoise = age < 27 ? this.rng.normal(0, 1.2) : 0;
    const potential = Math.max(rating, Math.min(95, Math.round(this.potentialOf(p, age) + potNoise)));
    const avail = this.rng.chance(0.75) ? this.rng.uniform(0.85, 1) : this.rng.uniform(0.35, 0.85);
    p.ratings.set(s, { rating, potential, form: this.rng.normal(0, 2), avail });
    this.ratings.push({ player_id: p.row.id, season: s, rating, potential, best_role: p.role, position: p.pos, source: 'demo' });
  }

  private develop(p: Player, s: number): void {
    const age = this.ageOn(p, ymd(s, 7, 1));
    const gap = p.talent - p.rating;
    let d: number;
    if (age < 24) d = gap * 0.3 + this.rng.normal(0, 1.8);
    else if (age < 27) d = gap * 0.35 + this.rng.normal(0, 1.2);
    else if (age < 30) d = (gap > 0 ? gap * 0.2 : 0) + this.rng.normal(0, 1);
    else {
      const x = Math.max(0, age - (p.group === 'GK' ? 31 : 29));
      d = -(0.4 * x + 0.08 * x * x) + this.rng.normal(0, 1.2);
    }
    p.rating = clamp(p.rating + d, 38, 92);
    if (age < 24) p.talent = softCap(p.talent + this.rng.normal(0, 1.2));
    p.talent = clamp(Math.max(p.talent, p.rating), 38, 95);
    p.vAr = 0.6 * p.vAr + this.rng.normal(0, 0.15);
  }

  // ---------------------------------------------------------------- money

  private valueAt(p: Player, day: number, club: Club | null): number {
    const age = this.ageOn(p, day);
    const r = p.rating;
    const pot = this.potentialOf(p, age);
    const eff = r + Math.max(0, pot - r) * clamp((27 - age) / 18, 0, 0.5);
    let lv = Math.log(7.5e6) + 0.165 * (eff - 75) + p.vNoise + p.vAr;
    if (age < 18) lv -= 0.35;
    else if (age < 20) lv -= 0.15;
    else if (age > 27) {
      const x = age - 27;
      lv -= 0.05 * x + 0.03 * x * x;
    }
    if (club?.league) lv += club.league.valueAdj + 0.02 * (club.q - club.league.base);
    else lv -= 0.5;
    if (p.contractEnd > 0 && yearsBetween(day, ymd(p.contractEnd, 6, 30)) < 1) lv -= 0.12;
    let v = Math.exp(lv);
    if (v > 120e6) v = 120e6 + (v - 120e6) * 0.4;
    return roundMoney(clamp(v, 50_000, 200e6));
  }

  private feeFor(p: Player, day: number, from: Club, to: Club): number | null {
    const value = this.valueAt(p, day, from);
    const left = yearsBetween(day, ymd(p.contractEnd, 6, 30));
    const contract = left < 0.6 ? 0.5 : left < 1.5 ? 0.8 : left < 2.5 ? 1 : 1.15;
    const age = this.ageOn(p, day);
    const ageF = age <= 21 ? 1.2 : age >= 32 ? 0.6 : age >= 30 ? 0.8 : 1;
    const premium = Math.exp(0.025 * clamp(to.q - from.q, -8, 10));
    const unknown = from.kind === 'foreign' || to.kind === 'foreign' ? 0.3 : 0.08;
    const fee = roundMoney(Math.min(200e6, value * contract * ageF * premium * Math.exp(this.rng.normal(0, 0.3))));
    return this.rng.chance(unknown) ? null : fee;
  }

  private contractYears(age: number): number {
    if (age <= 23) return this.rng.weighted([3, 4, 5], [0.35, 0.35, 0.3]);
    if (age <= 29) return this.rng.weighted([2, 3, 4, 5], [0.2, 0.35, 0.3, 0.15]);
    if (age <= 32) return this.rng.weighted([1, 2, 3], [0.35, 0.45, 0.2]);
    return this.rng.weighted([1, 2], [0.7, 0.3]);
  }

  /** Signs a contract ending on 30 June of `endYear` (1 to 5 years after the signing season). */
  private sign(p: Player, club: Club, day: number, endYear: number): void {
    const s = seasonOfDay(day);
    const end = clamp(endYear, s + 1, s + 5);
    if (p.agency !== null && this.rng.chance(0.04)) p.agency = this.rng.pick(AGENCIES);
    else if (p.agency === null && this.rng.chance(0.05)) p.agency = this.rng.pick(AGENCIES);
    p.contractEnd = end;
    const key = (p.idx * 100_000 + day) * 1000 + club.idx;
    const existing = this.contractKeys.get(key);
    if (existing) {
      existing.end_date = `${end}-06-30`;
      return;
    }
    const row: ContractRow = { player_id: p.row.id, club_id: club.row.id, signed_date: isoOf(day), end_date: `${end}-06-30`, agency_name: p.agency };
    this.contractKeys.set(key, row);
    this.contracts.push(row);
  }

  private addTransfer(p: Player, day: number, from: Club | null, to: Club | null, fee: number | null, isLoan: boolean): void {
    this.transfers.push({
      id: `T${this.seed}-${String(this.transfers.length + 1).padStart(6, '0')}`,
      player_id: p.row.id,
      date: isoOf(day),
      from_club_id: from?.row.id ?? null,
      to_club_id: to?.row.id ?? null,
      fee_eur: fee,
      market_value_eur: from ? this.valueAt(p, day, from) : null,
      is_loan: isLoan,
    });
  }

  // ---------------------------------------------------------------- career moves

  private openSpell(p: Player, club: Club, day: number, loan: boolean, parent: Club | null): void {
    const spell: Spell = { club, start: day, end: null, loan, parent };
    p.spells.push(spell);
    p.open = spell;
    this.join(p, club);
    if (club.kind === 'league') this.ensureRated(p, seasonOfDay(day));
  }

  private join(p: Player, club: Club): void {
    if (p.team) this.drop(p);
    p.team = club;
    club.team.add(p);
    club.groups[p.group]++;
  }

  private drop(p: Player): void {
    if (!p.team) return;
    p.team.team.delete(p);
    p.team.groups[p.group]--;
    p.team = null;
  }

  private closeSpell(p: Player, endDay: number): void {
    this.drop(p);
    if (!p.open) return;
    if (endDay < p.open.start) throw new Error(`demo world: spell of player ${p.idx} would end before it starts`);
    p.open.end = endDay;
    p.open = null;
  }

  /** A permanent move (transfer, free signing or option to buy) on `day`. */
  private permanent(p: Player, to: Club, day: number, fee: number | null): void {
    const from = p.owner ?? p.lastClub;
    if (p.onLoan && p.owner) p.owner.loansOut--;
    p.onLoan = false;
    this.addTransfer(p, day, from, to, fee, false);
    this.closeSpell(p, day - 1);
    this.openSpell(p, to, day, false, null);
    p.owner = to;
    p.lastClub = to;
    p.movedSeason = seasonOfDay(day);
    this.sign(p, to, day, seasonOfDay(day) + this.contractYears(this.ageOn(p, day)));
    if (to.kind === 'foreign') p.status = 'abroad';
  }

  private loan(p: Player, to: Club, day: number): void {
    const parent = p.owner;
    if (!parent) return;
    const s = seasonOfDay(day);
    // The registration must outlast the loan: extend first where needed.
    if (p.contractEnd < s + 1) this.sign(p, parent, day, s + 1 + this.rng.int(1, 3));
    const fee = this.rng.chance(0.25) ? roundMoney(this.valueAt(p, day, parent) * this.rng.uniform(0.04, 0.15)) : 0;
    this.addTransfer(p, day, parent, to, fee, true);
    this.closeSpell(p, day - 1);
    this.openSpell(p, to, day, true, parent);
    p.onLoan = true;
    parent.loansOut++;
    p.movedSeason = s;
  }

  private loanReturn(p: Player, day: number): void {
    const parent = p.owner;
    if (!parent) return;
    this.addTransfer(p, day, p.team, parent, 0, true);
    parent.loansOut--;
    p.onLoan = false;
    this.closeSpell(p, day - 1);
    this.openSpell(p, parent, day, false, null);
  }

  /** Leaves the club on `day - 1` without a new one: free agent or retired. */
  private leave(p: Player, day: number, status: Player['status']): void {
    if (p.onLoan && p.owner) p.owner.loansOut--;
    p.onLoan = false;
    p.lastClub = p.owner ?? p.team;
    p.owner = null;
    this.closeSpell(p, day - 1);
    p.status = status;
  }

  private freeSigning(p: Player, to: Club, day: number): void {
    this.addTransfer(p, day, p.lastClub, to, 0, false);
    this.openSpell(p, to, day, false, null);
    p.owner = to;
    p.lastClub = to;
    p.status = to.kind === 'foreign' ? 'abroad' : 'active';
    p.movedSeason = seasonOfDay(day);
    this.sign(p, to, day, seasonOfDay(day) + this.contractYears(this.ageOn(p, day)));
  }

  private inWorld(p: Player): boolean {
    return p.status === 'active' && p.owner !== null && p.owner.kind === 'league';
  }

  // ---------------------------------------------------------------- squads

  private groupCount(club: Club, g: PositionGroup): number {
    return club.groups[g];
  }

  /** The folded position of the group the club is shortest of. */
  private neededPosition(club: Club, g: PositionGroup): PositionCode {
    const counts = new Map<PositionCode, number>();
    for (const p of club.team) if (p.group === g) counts.set(fold(p.pos), (counts.get(fold(p.pos)) ?? 0) + 1);
    let best: PositionCode | null = null;
    let bestDeficit = 0;
    for (const [pos, target] of POSITION_TARGET) {
      if (POSITION_GROUP[pos] !== g) continue;
      const deficit = target - (counts.get(pos) ?? 0);
      if (deficit > bestDeficit) {
        best = pos;
        bestDeficit = deficit;
      }
    }
    if (best) return best;
    const options = POSITION_TARGET.filter(([pos]) => POSITION_GROUP[pos] === g);
    return this.rng.weighted(options.map(([pos]) => pos), options.map(([, n]) => n));
  }

  private mostNeededGroup(club: Club): PositionGroup {
    let best: PositionGroup = 'MID';
    let bestDeficit = -Infinity;
    for (const g of GROUPS) {
      const deficit = (GROUP_TARGET[g] - this.groupCount(club, g)) / GROUP_TARGET[g];
      if (deficit > bestDeficit) {
        best = g;
        bestDeficit = deficit;
      }
    }
    return best;
  }

  private bestXi(club: Club): number {
    let sum = 0;
    for (const g of GROUPS) {
      const rs = [...club.team].filter((p) => p.group === g).map((p) => p.rating).sort((a, b) => b - a);
      for (let i = 0; i < XI_SLOTS[g]; i++) sum += rs[i] ?? 50;
    }
    return sum / 11;
  }

  private nationalityFor(club: Club, foreignShare: number): string {
    return this.rng.chance(foreignShare) ? this.foreignNationality(club.row.country ?? '') : (club.row.country ?? 'England');
  }

  /** A player who starts at `club` as an academy product on 1 July of a season. */
  private createYouth(club: Club, jul1: number, s: number, group?: PositionGroup): Player {
    const age = this.rng.chance(0.6) ? 16 : 17;
    const g = group ?? this.rng.weighted(GROUPS, [0.1, 0.32, 0.32, 0.26]);
    const pos = this.positionFor(this.neededPosition(club, g));
    const rating = club.q - 17 + this.rng.normal(0, 4);
    const talent = rating + (27 - age) * 1.8 * this.rng.uniform(0.5, 1.5);
    const p = this.createPlayer(this.nationalityFor(club, 0.18), pos, this.birthForAge(age, jul1), rating, talent);
    p.owner = club;
    p.lastClub = club;
    p.movedSeason = s;
    this.openSpell(p, club, jul1, false, null);
    this.sign(p, club, jul1, s + 3);
    return p;
  }

  /** A player from outside the leagues: some years at a feeder club abroad, then the move on `day`. */
  private createImport(club: Club, g: PositionGroup, day: number, level: number): Player {
    const s = seasonOfDay(day);
    const age = this.rng.weighted(IMPORT_AGES.map(([a]) => a), IMPORT_AGES.map(([, w]) => w));
    const home = club.row.country ?? 'England';
    const lower = this.foreign.filter((f) => f.row.country === home);
    const source = lower.length > 0 && this.rng.chance(0.45) ? this.rng.pick(lower) : this.rng.pick(this.foreign.filter((f) => f.feeder && f.row.country !== home));
    const sourceCountry = source.row.country ?? '';
    const nat = sourceCountry === home
      ? (this.rng.chance(0.85) ? home : this.foreignNationality(home))
      : this.rng.chance(0.6) && this.natByName.has(sourceCountry) ? sourceCountry : this.rng.chance(0.15) ? home : this.foreignNationality(home);
    const rating = level + this.rng.normal(0, 3) - Math.max(0, 22 - age) * 1.5;
    const pos = this.positionFor(this.neededPosition(club, g));
    const p = this.createPlayer(nat, pos, this.birthForAge(age, day), rating, this.talentFor(rating, age));
    const startSeason = Math.max(s - this.rng.int(1, 4), seasonOfDay(p.birthDay) + 17);
    const start = ymd(Math.min(startSeason, s - 1), 7, 1) + this.rng.int(0, 40);
    this.openSpell(p, source, start, false, null);
    this.sign(p, source, start, s + this.rng.int(1, 2));
    p.owner = null;
    p.lastClub = source;
    this.permanent(p, club, day, this.feeFor(p, day, source, club));
    return p;
  }

  private initialSquads(s: number): void {
    const jul1 = ymd(s, 7, 1);
    const template: PositionCode[] = ['GK', 'GK', 'GK', 'CB', 'CB', 'CB', 'CB', 'LB', 'LB', 'RB', 'RB', 'CDM', 'CDM', 'CM', 'CM', 'CM', 'LM', 'RM', 'CAM', 'CAM', 'ST', 'ST', 'CF', 'LW', 'RW'];
    const all = this.allLeagueClubs();
    for (const club of all) {
      const league = club.league as LeagueDef;
      const slots: PositionCode[] = [...template, this.rng.pick(['CB', 'LB', 'RB'] as const), this.rng.pick(['ST', 'LW', 'RW'] as const)];
      const extras = this.rng.int(0, 2);
      for (let i = 0; i < extras; i++) slots.push(this.rng.pick(template));
      for (const slot of slots) {
        const age = this.rng.weighted(AGE_WEIGHTS.map(([a]) => a), AGE_WEIGHTS.map(([, w]) => w));
        const rating = club.q - 1.5 + this.rng.normal(0, 3.5) - Math.max(0, 23 - age) * 2 - Math.max(0, age - 32) * 1.5;
        const p = this.createPlayer(this.nationalityFor(club, league.foreignShare), this.positionFor(slot), this.birthForAge(age, jul1), rating, this.talentFor(rating, age));
        const homegrown = p.row.nationality === club.row.country && this.rng.chance(age <= 21 ? 0.6 : 0.15);
        if (homegrown) {
          const academy = s - (age - 16);
          this.openSpell(p, club, ymd(academy, 7, 1), false, null);
          p.owner = club;
          p.lastClub = club;
          const endYear = s + 1 + this.rng.int(0, 3);
          const signedSeason = Math.min(s, Math.max(academy, endYear - this.rng.int(2, 5)));
          this.sign(p, club, ymd(signedSeason, 7, 1) + this.rng.int(0, 50), endYear);
          continue;
        }
        // Joined some summers ago from another club (same country, abroad in the leagues, or outside them).
        const j = Math.min(this.rng.weighted([0, 1, 2, 3, 4], [3, 3, 2.5, 1.5, 1]), Math.max(0, age - 18));
        const joinSeason = s - j;
        const joinDay = j === 0 ? this.rng.int(ymd(s, 7, 2), ymd(s, 8, 31)) : ymd(joinSeason, 7, 1) + this.rng.int(1, 60);
        const u = this.rng.next();
        const candidates = u < 0.35 ? all.filter((c) => c !== club && c.row.country === club.row.country) : u < 0.6 ? all.filter((c) => c !== club) : this.foreign.filter((f) => f.feeder);
        const prev = this.rng.pick(candidates);
        const ageAtJoin = Math.floor(this.ageOn(p, joinDay));
        const prevStartSeason = Math.max(joinSeason - this.rng.int(1, 4), joinSeason - Math.max(1, ageAtJoin - 16));
        const prevStart = ymd(prevStartSeason, 7, 1) + this.rng.int(0, 30);
        this.openSpell(p, prev, prevStart, false, null);
        this.drop(p);
        this.sign(p, prev, prevStart, joinSeason + this.rng.int(1, 2));
        p.lastClub = prev;
        const fee = this.rng.chance(0.15) ? 0 : this.feeFor(p, joinDay, prev, club);
        this.addTransfer(p, joinDay, prev, club, fee, false);
        p.open = null;
        (p.spells[p.spells.length - 1] as Spell).end = joinDay - 1;
        this.openSpell(p, club, joinDay, false, null);
        p.owner = club;
        p.lastClub = club;
        p.movedSeason = joinSeason;
        this.sign(p, club, joinDay, Math.max(s + 1, joinSeason + this.contractYears(ageAtJoin)));
      }
    }
  }

  private windowRange(lo: number, hi: number): [number, number] | null {
    const top = Math.min(hi, this.asOfDay);
    return lo <= top ? [lo, top] : null;
  }

  private summer(s: number, window: [number, number] | null): void {
    const jul1 = ymd(s, 7, 1);
    for (const p of this.players) {
      if (p.status !== 'abroad' || !p.open) continue;
      const age = wholeAge(p.birthDay, jul1);
      if (age >= 37 || (age >= 33 && this.rng.chance(0.3))) {
        this.closeSpell(p, jul1 - 1);
        p.status = 'retired';
      }
    }
    const active = this.players.filter((p) => p.status === 'active');
    for (const p of active) this.develop(p, s);
    const free: Player[] = [];
    for (const p of active) {
      if (!p.onLoan) continue;
      const borrower = p.team as Club;
      if (p.contractEnd <= s) {
        this.leave(p, jul1, 'active');
        free.push(p);
      } else if (borrower.kind === 'league' && this.ageOn(p, jul1) < 25 && p.rating >= borrower.q - 3 && borrower.team.size < SQUAD_MAX && this.rng.chance(0.25)) {
        this.permanent(p, borrower, jul1, this.feeFor(p, jul1, p.owner as Club, borrower));
      } else {
        this.loanReturn(p, jul1);
      }
    }
    for (const p of active) {
      if (p.status !== 'active' || !p.owner) continue;
      const age = wholeAge(p.birthDay, jul1);
      const weak = p.rating < p.owner.q - 10 && age >= 30 ? 0.2 : 0;
      const base = age >= 38 ? 1 : age === 37 ? 0.8 : age === 36 ? 0.6 : age === 35 ? 0.45 : age === 34 ? 0.3 : age === 33 ? 0.15 : age === 32 ? 0.05 : 0;
      if (this.rng.chance(base + weak)) this.leave(p, jul1, 'retired');
      else if (p.contractEnd <= s) {
        this.leave(p, jul1, 'active');
        free.push(p);
      }
    }
    const clubs = this.allLeagueClubs();
    for (const club of clubs) {
      const n = this.rng.weighted([1, 2, 3], [0.45, 0.4, 0.15]);
      for (let i = 0; i < n; i++) this.createYouth(club, jul1, s);
    }
    if (!window) {
      for (const p of free) if (p.status === 'active' && !p.owner) p.status = 'retired';
      return;
    }
    const pool: Listing[] = free.map((p) => ({ p, free: true, sold: false, age: this.ageOn(p, jul1) }));
    for (const club of clubs) {
      for (const p of club.team) {
        if (p.owner !== club || p.movedSeason === s) continue;
        const age = this.ageOn(p, jul1);
        const listed =
          (p.rating >= club.q + 4 && age <= 30 && this.rng.chance(0.45)) ||
          (p.rating < club.q - 7 && age >= 23 && this.rng.chance(0.5)) ||
          (age >= 30 && p.rating < club.q + 2 && this.rng.chance(0.3)) ||
          (p.contractEnd === s + 1 && age <= 30 && this.rng.chance(0.25)) ||
          this.rng.chance(0.04);
        if (listed) pool.push({ p, free: false, sold: false, age });
      }
    }
    const byRating = (x: Listing, y: Listing): number => x.p.rating - y.p.rating || x.p.idx - y.p.idx;
    const pools = new Map<PositionGroup, Listing[]>(GROUPS.map((g) => [g, pool.filter((l) => l.p.group === g).sort(byRating)]));
    const buyers = [...clubs].sort((a, b) => b.q - a.q || a.idx - b.idx);
    for (let round = 0; round < 3; round++) {
      for (const club of buyers) {
        for (const g of GROUPS) {
          let deficit = GROUP_TARGET[g] - this.groupCount(club, g);
          while (deficit > 0) {
            const pos = this.neededPosition(club, g);
            const pick = this.findCandidate(pools, club, g, pos, club.q - 8, club.q + 4);
            if (!pick) break;
            this.buy(pick, club, window);
            deficit--;
          }
        }
        if (round > 0) continue;
        const upgrades = this.rng.weighted([0, 1, 2, 3], [0.2, 0.4, 0.3, 0.1]);
        for (let i = 0; i < upgrades; i++) {
          const g = this.rng.weighted(GROUPS, [0.08, 0.3, 0.3, 0.32]);
          const rs = [...club.team].filter((p) => p.group === g).map((p) => p.rating).sort((a, b) => b - a);
          const weakestStarter = rs[XI_SLOTS[g] - 1] ?? 0;
          const pick = this.findCandidate(pools, club, g, null, Math.max(club.q + 1, weakestStarter + 1), club.q + 6);
          if (!pick) continue;
          this.buy(pick, club, window);
          if (this.groupCount(club, g) > GROUP_TARGET[g] + 1) {
            const surplus = [...club.team]
              .filter((p) => p.group === g && p.owner === club && p.movedSeason !== s && this.ageOn(p, jul1) > 21)
              .sort((a, b) => a.rating - b.rating)[0];
            if (surplus) {
              const l: Listing = { p: surplus, free: false, sold: false, age: this.ageOn(surplus, jul1) };
              pool.push(l);
              const list = pools.get(g) as Listing[];
              list.push(l);
              list.sort(byRating);
            }
          }
        }
      }
    }
    // Unwanted free agents go abroad or stop.
    const destinations = this.foreign;
    for (const l of pool) {
      if (!l.free || l.sold) continue;
      const p = l.p;
      if (l.age <= 32 && p.rating >= 58 && this.rng.chance(0.8)) {
        const to = l.age >= 29 ? this.rng.pick(destinations.filter((f) => !f.feeder)) : this.rng.pick(destinations);
        this.freeSigning(p, to, this.rng.int(window[0], window[1]));
      } else {
        p.status = 'retired';
      }
    }
  }

  private findCandidate(pools: Map<PositionGroup, Listing[]>, buyer: Club, g: PositionGroup, pos: PositionCode | null, lo: number, hi: number): Listing | null {
    let best: Listing | null = null;
    let bestScore = -Infinity;
    // Pools are sorted by rating: start at the first listing inside the window.
    const list = pools.get(g) ?? [];
    let a = 0;
    let b = list.length;
    while (a < b) {
      const mid = (a + b) >> 1;
      if (list[mid].p.rating < lo) a = mid + 1;
      else b = mid;
    }
    for (let i = a; i < list.length && list[i].p.rating <= hi; i++) {
      const l = list[i];
      const p = l.p;
      if (l.sold || p.owner === buyer || p.team === buyer || p.rating < lo || p.rating > hi) continue;
      if (p.movedSeason === this.season || (l.free ? p.lastClub === buyer : p.status !== 'active' || p.onLoan)) continue;
      const old = Math.max(0, l.age - 28);
      // Clubs prefer players they know: their own nationals and those playing in the same country.
      const home = (p.row.nationality === buyer.row.country ? 1.5 : 0) + ((p.owner ?? p.lastClub)?.row.country === buyer.row.country ? 1 : 0);
      const score = p.rating + this.rng.uniform(-3, 3) - 0.5 * old * old + (pos && fold(p.pos) === pos ? 3 : 0) + (l.free ? 1 : 0) + home;
      if (score > bestScore) {
        best = l;
        bestScore = score;
      }
    }
    return best;
  }

  private buy(l: Listing, club: Club, window: [number, number]): void {
    const day = this.rng.int(window[0], window[1]);
    l.sold = true;
    if (l.free) this.freeSigning(l.p, club, day);
    else this.permanent(l.p, club, day, this.feeFor(l.p, day, l.p.owner as Club, club));
  }

  private loanBorrower(p: Player, parent: Club, maxSize: number): Club | null {
    const options = this.allLeagueClubs().filter(
      (c) => c !== parent && c.q >= p.rating - 1 && c.q <= p.rating + 6 && c.team.size < maxSize && this.groupCount(c, p.group) <= GROUP_TARGET[p.group],
    );
    if (options.length > 0 && this.rng.chance(0.85)) return this.rng.pick(options);
    return this.rng.chance(0.5) ? this.rng.pick(this.foreign.filter((f) => f.feeder)) : null;
  }

  private summerLoans(s: number, window: [number, number] | null): void {
    if (!window) return;
    const jul1 = ymd(s, 7, 1);
    for (const club of this.allLeagueClubs()) {
      const young = [...club.team]
        .filter((p) => p.owner === club && !p.onLoan && p.movedSeason !== s && this.ageOn(p, jul1) <= 22 && p.rating < club.q - 4)
        .sort((a, b) => a.rating - b.rating || a.idx - b.idx);
      for (const p of young) {
        if (club.loansOut >= MAX_LOANS_OUT) break;
        if (!this.rng.chance(0.45)) continue;
        const to = this.loanBorrower(p, club, SQUAD_MAX);
        if (to) this.loan(p, to, this.rng.int(window[0], window[1]));
      }
    }
  }

  private fillAndTrim(s: number, window: [number, number] | null): void {
    const jul1 = ymd(s, 7, 1);
    const day = (): number => (window ? this.rng.int(window[0], window[1]) : jul1);
    for (const club of this.allLeagueClubs()) {
      // Every group stays playable (three keepers), then the squad reaches its minimum size.
      for (const g of GROUPS) {
        while (this.groupCount(club, g) < GROUP_TARGET[g] - (g === 'GK' ? 0 : 1)) {
          if (window) this.createImport(club, g, day(), club.q - 2);
          else this.createYouth(club, jul1, s, g);
        }
      }
      while (club.team.size < SQUAD_MIN) {
        const g = this.mostNeededGroup(club);
        if (window) this.createImport(club, g, day(), club.q - 2);
        else this.createYouth(club, jul1, s);
      }
      if (!window) continue;
      while (club.team.size > SQUAD_MAX) {
        const surplus = [...club.team]
          .filter((p) => p.owner === club && !p.onLoan && p.movedSeason !== s && this.groupCount(club, p.group) > GROUP_TARGET[p.group] - 1)
          .sort((a, b) => a.rating - Math.max(0, 24 - this.ageOn(a, jul1)) * 1.5 - (b.rating - Math.max(0, 24 - this.ageOn(b, jul1)) * 1.5) || a.idx - b.idx)[0];
        if (!surplus) break;
        const lower = this.allLeagueClubs().filter((c) => c !== club && c.q <= surplus.rating + 3 && c.q >= surplus.rating - 6 && c.team.size < SQUAD_MAX - 1);
        const to = lower.length > 0 && this.rng.chance(0.5) ? this.rng.pick(lower) : this.rng.pick(this.foreign);
        const d = day();
        this.permanent(surplus, to, d, this.feeFor(surplus, d, club, to));
      }
    }
  }

  private renewals(s: number): void {
    for (const p of this.players) {
      if (!this.inWorld(p)) continue;
      const owner = p.owner as Club;
      const age = this.ageOn(p, ymd(s, 10, 1));
      let prob = 0;
      let end = 0;
      if (p.contractEnd === s + 1) {
        const keep = p.rating >= owner.q - 2 ? 0.65 : p.rating >= owner.q - 6 ? 0.45 : age <= 23 ? 0.6 : 0.2;
        prob = keep * (age >= 34 ? 0.3 : age >= 32 ? 0.5 : age >= 30 ? 0.75 : 1);
        end = s + 1 + (age >= 31 ? this.rng.int(1, 2) : this.rng.int(1, 4));
      } else if (p.contractEnd === s + 2 && p.rating >= owner.q + 2 && age <= 29) {
        prob = 0.25;
        end = s + 2 + this.rng.int(1, 3);
      }
      if (prob === 0 || !this.rng.chance(prob)) continue;
      const day = this.rng.int(ymd(s, 9, 1), ymd(s + 1, 4, 30));
      if (day > this.asOfDay) continue;
      this.sign(p, owner, day, end);
    }
  }

  private winter(s: number): void {
    const window = this.windowRange(ymd(s + 1, 1, 3), ymd(s + 1, 1, 31));
    if (!window) return;
    const clubs = this.allLeagueClubs();
    for (const club of clubs) {
      if (this.rng.chance(0.3) && club.team.size > SQUAD_MIN && club.loansOut < MAX_LOANS_OUT) {
        const day = this.rng.int(window[0], window[1]);
        const cand = [...club.team]
          .filter((p) => p.owner === club && !p.onLoan && p.movedSeason !== s && this.ageOn(p, day) <= 22 && p.rating < club.q - 4 && this.groupCount(club, p.group) >= GROUP_TARGET[p.group])
          .sort((a, b) => a.rating - b.rating || a.idx - b.idx)[0];
        const to = cand ? this.loanBorrower(cand, club, SQUAD_MAX) : null;
        if (cand && to) this.loan(cand, to, day);
      }
      if (this.rng.chance(0.18) && club.team.size < SQUAD_MAX) {
        const day = this.rng.int(window[0], window[1]);
        const g = this.rng.weighted(GROUPS, [0.05, 0.3, 0.3, 0.35]);
        let best: Player | null = null;
        let bestScore = -Infinity;
        for (const seller of clubs) {
          if (seller === club || seller.team.size <= SQUAD_MIN) continue;
          for (const p of seller.team) {
            if (p.group !== g || p.owner !== seller || p.onLoan || p.movedSeason === s || p.rating < club.q + 1 || p.rating > club.q + 7) continue;
            if (this.groupCount(seller, g) < GROUP_TARGET[g]) continue;
            const score = p.rating + this.rng.normal(0, 2) + (p.row.nationality === club.row.country ? 1.5 : 0) + (seller.row.country === club.row.country ? 1 : 0);
            if (score > bestScore) {
              best = p;
              bestScore = score;
            }
          }
        }
        if (best) {
          const fee = this.feeFor(best, day, best.owner as Club, club);
          // January deals carry a premium.
          this.permanent(best, club, day, fee === null ? null : roundMoney(Math.min(200e6, fee * 1.15)));
        }
      }
    }
  }

  // ---------------------------------------------------------------- competitions

  private seasonDay(s: number, month: number, day: number): number {
    return ymd(month >= 7 ? s : s + 1, month, day);
  }

  private winProb(a: Club, b: Club): number {
    return 1 / (1 + Math.exp(-0.13 * (a.strength - b.strength)));
  }

  private goals(home: Club, away: Club, neutral = false): [number, number] {
    const d = home.strength - away.strength;
    const mu = Math.log(1.3);
    const h = neutral ? 0 : 0.13;
    return [this.matchRng.poisson(Math.exp(mu + h + 0.045 * d)), this.matchRng.poisson(Math.exp(mu - 0.045 * d))];
  }

  private participate(s: number, comp: CompetitionRow, club: Club, dates: number[]): void {
    if (s < this.first) return;
    const played = dates.filter((d) => d <= this.asOfDay).sort((a, b) => a - b);
    if (played.length > 0) this.participations.push({ season: s, comp, club, dates: played });
  }

  private playSeason(s: number): void {
    const clubs = this.allLeagueClubs();
    for (const c of clubs) c.strength = this.bestXi(c) + this.matchRng.normal(0, 1);
    const prev = this.prev;
    const byStrength = (list: Club[]): Club[] => [...list].sort((a, b) => b.strength - a.strength || a.idx - b.idx);
    const tableOf = (l: LeagueDef): Club[] => prev?.tables.get(l.id) ?? byStrength(this.leagueClubs.get(l.id) ?? []);

    // Super cups open the season.
    for (const cc of COUNTRY_CUPS) {
      const top = LEAGUES.find((l) => l.country === cc.country && l.tier === 1) as LeagueDef;
      const table = tableOf(top).filter((c) => c.kind === 'league');
      const champion = table[0];
      let other = prev?.cupWinners.get(cc.country) ?? table[1];
      if (other === champion) other = table[1];
      for (const c of [champion, other]) this.participate(s, cc.supercup, c, [this.seasonDay(s, 8, 4)]);
    }
    const all = byStrength(clubs);
    const superA = prev?.championsWinner ?? all[0];
    let superB = prev?.challengeWinner ?? all.find((c) => c.league !== superA.league && all.indexOf(c) >= 5) ?? all[5];
    if (superB === superA) superB = all.find((c) => c !== superA) as Club;
    for (const c of [superA, superB]) this.participate(s, SUPER_CUP, c, [this.seasonDay(s, 8, 13)]);

    const tables = new Map<string, Club[]>();
    for (const l of LEAGUES) tables.set(l.id, this.playLeague(s, l));

    const cupWinners = new Map<string, Club>();
    for (const cc of COUNTRY_CUPS) {
      const entrants = clubs.filter((c) => c.row.country === cc.country);
      cupWinners.set(cc.country, this.domesticCup(s, cc.cup, entrants));
    }

    const champions: Club[] = [];
    const challenge: Club[] = [];
    for (const l of LEAGUES) {
      if (l.tier !== 1) continue;
      const table = tableOf(l).filter((c) => c.league?.tier === 1 || prev === null);
      champions.push(...table.slice(0, l.championsPlaces));
      challenge.push(...table.slice(l.championsPlaces, l.championsPlaces + l.challengePlaces));
    }
    const d = (m: number, day: number): number => this.seasonDay(s, m, day);
    const championsWinner = this.groupCup(s, CHAMPIONS_CUP, champions, 4,
      [d(9, 17), d(10, 1), d(10, 22), d(11, 5), d(11, 26), d(12, 10)], [[d(3, 4), d(3, 11)], [d(4, 22), d(4, 29)]], d(5, 30));
    const challengeWinner = this.groupCup(s, CHALLENGE_CUP, challenge, 2,
      [d(9, 18), d(10, 2), d(10, 23), d(11, 6), d(11, 27), d(12, 11), d(2, 19), d(2, 26)], [[d(4, 16), d(4, 23)]], d(5, 21));
    this.prev = { tables, cupWinners, championsWinner, challengeWinner };
  }

  private playLeague(s: number, l: LeagueDef): Club[] {
    const clubs = this.leagueClubs.get(l.id) ?? [];
    const shown = s >= this.first;
    if (shown) for (const c of clubs) this.clubSeasons.push({ club_id: c.row.id, season: s, competition_id: l.id });
    const n = clubs.length;
    const order = this.matchRng.shuffle([...clubs]);
    const rounds = 2 * (n - 1);
    const firstSat = saturdayOnOrAfter(ymd(s, l.opening[0], l.opening[1]));
    const lastSat = saturdayOnOrAfter(ymd(s + 1, l.closing[0], l.closing[1]) - 6);
    const weeks = Math.floor((lastSat - firstSat) / 7) + 1;
    const comp = this.competitions.find((c) => c.id === l.id) as CompetitionRow;
    const dates = new Map<Club, number[]>(clubs.map((c) => [c, []]));
    const pts = new Map<Club, [number, number, number]>(clubs.map((c) => [c, [0, 0, 0]]));
    const ring = order.slice(1);
    for (let r = 0; r < n - 1; r++) {
      const pairs: [Club, Club][] = [];
      const line = [order[0], ...ring];
      for (let i = 0; i < n / 2; i++) {
        const a = line[i];
        const b = line[n - 1 - i];
        pairs.push(i === 0 ? (r % 2 === 0 ? [a, b] : [b, a]) : i % 2 === 0 ? [a, b] : [b, a]);
      }
      ring.unshift(ring.pop() as Club);
      for (const leg of [0, 1]) {
        const round = leg * (n - 1) + r;
        const sat = firstSat + 7 * Math.round((round * (weeks - 1)) / (rounds - 1));
        pairs.forEach(([x, y], k) => {
          const [home, away] = leg === 0 ? [x, y] : [y, x];
          const day = sat + this.matchRng.weighted([-1, 0, 1, 2], [0.1, 0.5, 0.3, 0.1]);
          const [hg, ag] = this.goals(home, away);
          const ph = pts.get(home) as [number, number, number];
          const pa = pts.get(away) as [number, number, number];
          ph[1] += hg - ag; pa[1] += ag - hg; ph[2] += hg; pa[2] += ag;
          if (hg > ag) ph[0] += 3;
          else if (hg < ag) pa[0] += 3;
          else { ph[0]++; pa[0]++; }
          if (day > this.asOfDay || !shown) return;
          (dates.get(home) as number[]).push(day);
          (dates.get(away) as number[]).push(day);
          this.matches.push({
            id: `M${this.seed}-${l.code}-${s}-${String(round + 1).padStart(2, '0')}-${k + 1}`,
            competition_id: l.id, season: s, date: isoOf(day), home_club_id: home.row.id, away_club_id: away.row.id, home_goals: hg, away_goals: ag,
          });
        });
      }
    }
    for (const c of clubs) this.participate(s, comp, c, dates.get(c) as number[]);
    return [...clubs].sort((a, b) => {
      const x = pts.get(a) as [number, number, number];
      const y = pts.get(b) as [number, number, number];
      return y[0] - x[0] || y[1] - x[1] || y[2] - x[2] || b.strength - a.strength || a.idx - b.idx;
    });
  }

  /** Single-match knock-out; the weakest clubs play a preliminary round when the field is not a power of two. */
  private domesticCup(s: number, comp: CompetitionRow, entrants: Club[]): Club {
    const played = new Map<Club, number[]>(entrants.map((c) => [c, []]));
    const roundDates = [[9, 24], [10, 29], [12, 3], [1, 14], [2, 11], [3, 4], [4, 22], [5, 16]].map(([m, d]) => this.seasonDay(s, m, d));
    let size = 1;
    while (size * 2 <= entrants.length) size *= 2;
    const extra = entrants.length - size;
    const totalRounds = Math.log2(size) + (extra > 0 ? 1 : 0);
    let dateIdx = roundDates.length - totalRounds;
    let alive = this.matchRng.shuffle([...entrants]);
    if (extra > 0) {
      const weakest = [...alive].sort((a, b) => a.strength - b.strength || a.idx - b.idx).slice(0, 2 * extra);
      const winners = this.knockoutRound(weakest, roundDates[dateIdx++], played);
      alive = this.matchRng.shuffle([...alive.filter((c) => !weakest.includes(c)), ...winners]);
    }
    while (alive.length > 1) alive = this.knockoutRound(alive, roundDates[dateIdx++], played);
    for (const c of entrants) this.participate(s, comp, c, played.get(c) as number[]);
    return alive[0];
  }

  private knockoutRound(clubs: Club[], day: number, played: Map<Club, number[]>): Club[] {
    const winners: Club[] = [];
    for (let i = 0; i + 1 < clubs.length; i += 2) {
      const [a, b] = [clubs[i], clubs[i + 1]];
      (played.get(a) as number[]).push(day);
      (played.get(b) as number[]).push(day);
      winners.push(this.matchRng.chance(this.winProb(a, b) + 0.03) ? a : b);
    }
    return winners;
  }

  /** Group stage (double round robin, two go through) then two-legged ties and a one-match final. */
  private groupCup(s: number, comp: CompetitionRow, entrants: Club[], groups: number, groupDates: number[], legs: [number, number][], finalDay: number): Club {
    const played = new Map<Club, number[]>(entrants.map((c) => [c, []]));
    const seeded = [...entrants].sort((a, b) => b.strength - a.strength || a.idx - b.idx);
    const groupsOf: Club[][] = Array.from({ length: groups }, () => []);
    seeded.forEach((c, i) => {
      const pot = Math.floor(i / groups);
      groupsOf[pot % 2 === 0 ? i % groups : groups - 1 - (i % groups)].push(c);
    });
    const winners: Club[] = [];
    const runners: Club[] = [];
    for (const group of groupsOf) {
      const pts = new Map<Club, number>(group.map((c) => [c, 0]));
      const gd = new Map<Club, number>(group.map((c) => [c, 0]));
      for (const home of group) {
        for (const away of group) {
          if (home === away) continue;
          const [hg, ag] = this.goals(home, away);
          pts.set(home, (pts.get(home) ?? 0) + (hg > ag ? 3 : hg === ag ? 1 : 0));
          pts.set(away, (pts.get(away) ?? 0) + (ag > hg ? 3 : hg === ag ? 1 : 0));
          gd.set(home, (gd.get(home) ?? 0) + hg - ag);
          gd.set(away, (gd.get(away) ?? 0) + ag - hg);
        }
      }
      for (const c of group) (played.get(c) as number[]).push(...groupDates.slice(0, 2 * (group.length - 1)));
      const ranked = [...group].sort((a, b) => (pts.get(b) ?? 0) - (pts.get(a) ?? 0) || (gd.get(b) ?? 0) - (gd.get(a) ?? 0) || b.strength - a.strength);
      winners.push(ranked[0]);
      runners.push(ranked[1]);
    }
    let alive: Club[] = [];
    winners.forEach((w, i) => alive.push(w, runners[(i + 1) % runners.length]));
    for (const [leg1, leg2] of legs) {
      const next: Club[] = [];
      for (let i = 0; i + 1 < alive.length; i += 2) {
        const [a, b] = [alive[i], alive[i + 1]];
        for (const c of [a, b]) (played.get(c) as number[]).push(leg1, leg2);
        const [g1b, g1a] = this.goals(b, a);
        const [g2a, g2b] = this.goals(a, b);
        const diff = g1a + g2a - g1b - g2b;
        next.push(diff > 0 ? a : diff < 0 ? b : this.matchRng.chance(this.winProb(a, b)) ? a : b);
      }
      alive = next;
    }
    const [fa, fb] = alive;
    for (const c of [fa, fb]) (played.get(c) as number[]).push(finalDay);
    const champion = this.matchRng.chance(this.winProb(fa, fb)) ? fa : fb;
    for (const c of entrants) this.participate(s, comp, c, played.get(c) as number[]);
    return champion;
  }

  /** Budgets follow results; the bottom of the top flight swaps with the top of the second tier. */
  private endSeason(): void {
    const prev = this.prev as SeasonResults;
    for (const l of LEAGUES) {
      const table = prev.tables.get(l.id) ?? [];
      table.forEach((c, i) => {
        const target = l.base + l.spread * (0.5 - i / Math.max(1, table.length - 1));
        c.q += 0.25 * (target - c.q) + this.rng.normal(0, 0.6);
      });
    }
    for (const top of LEAGUES) {
      const second = LEAGUES.find((l) => l.country === top.country && l.tier === 2);
      if (top.tier !== 1 || !second) continue;
      const down = (prev.tables.get(top.id) ?? []).slice(-PROMOTION_PLACES);
      const up = (prev.tables.get(second.id) ?? []).slice(0, PROMOTION_PLACES);
      const topList = (this.leagueClubs.get(top.id) ?? []).filter((c) => !down.includes(c));
      const secondList = (this.leagueClubs.get(second.id) ?? []).filter((c) => !up.includes(c));
      for (const c of up) {
        c.league = top;
        c.q += 1.5;
        topList.push(c);
      }
      for (const c of down) {
        c.league = second;
        c.q -= 1.5;
        secondList.push(c);
      }
      this.leagueClubCache = null;
      this.leagueClubs.set(top.id, topList);
      this.leagueClubs.set(second.id, secondList);
    }
  }

  // ---------------------------------------------------------------- values, careers, playing time

  private emitValues(day: number): void {
    if (day > this.asOfDay || seasonOfDay(day) < this.first) return;
    const date = isoOf(day);
    for (const p of this.players) {
      if (!this.inWorld(p) || !p.team) continue;
      this.values.push({ player_id: p.row.id, date, value_eur: this.valueAt(p, day, p.team), club_id: p.team.row.id });
    }
  }

  /**
   * The squads the generator holds once it is done (club id -> player ids, sorted), of the players its
   * output keeps: what the career steps must say, for tests.
   */
  squads(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const c of this.clubs) {
      const ids = [...c.team].filter((p) => p.ratings.size > 0).map((p) => p.row.id).sort();
      if (ids.length > 0) out.set(c.row.id, ids);
    }
    return out;
  }

  private careerSteps(players: Player[]): CareerStepRow[] {
    const out: CareerStepRow[] = [];
    for (const p of players) {
      for (const sp of p.spells) {
        out.push({
          player_id: p.row.id,
          club_id: sp.club.row.id,
          start_date: isoOf(sp.start),
          end_date: sp.end === null ? null : isoOf(sp.end),
          is_loan: sp.loan,
          parent_club_id: sp.parent?.row.id ?? null,
        });
      }
    }
    return out;
  }

  private nationalTeams(): void {
    const fixtures: [number, number][] = [[9, 5], [9, 9], [10, 10], [10, 14], [11, 14], [11, 18], [3, 21], [3, 25], [6, 6], [6, 10]];
    for (let s = this.first; s <= this.current; s++) {
      const byNation = new Map<string, Player[]>();
      for (const p of this.players) {
        if (!p.ratings.has(s)) continue;
        const list = byNation.get(p.row.nationality) ?? [];
        list.push(p);
        byNation.set(p.row.nationality, list);
      }
      const dates = fixtures.map(([m, d]) => this.seasonDay(s, m, d));
      for (const n of NATIONALITIES) {
        const nation = this.nations.get(n.name) as Club;
        const rated = (byNation.get(n.name) ?? []).map((p) => ({ p, r: p.ratings.get(s) as SeasonRating }));
        const squad = rated
          .filter((x) => x.r.rating >= 64)
          .sort((a, b) => b.r.rating + b.r.form - (a.r.rating + a.r.form) || a.p.idx - b.p.idx)
          .slice(0, 26)
          .map((x) => x.p);
        if (squad.length === 0) continue;
        const played = dates.filter((d) => d <= this.asOfDay);
        if (played.length > 0) this.participations.push({ season: s, comp: NATIONAL_MATCHES, club: nation, dates: played, members: squad });
      }
    }
  }

  private appearances(): AppearanceRow[] {
    // Spells at league clubs, by season and club.
    const spells = new Map<number, { p: Player; start: number; end: number }[]>();
    for (const p of this.players) {
      for (const sp of p.spells) {
        if (sp.club.kind !== 'league') continue;
        const end = sp.end ?? this.asOfDay;
        for (let s = Math.max(this.first, seasonOfDay(sp.start)); s <= Math.min(this.current, seasonOfDay(end)); s++) {
          const key = s * 10_000 + sp.club.idx;
          const list = spells.get(key) ?? [];
          list.push({ p, start: sp.start, end });
          spells.set(key, list);
        }
      }
    }
    const rows: AppearanceRow[] = [];
    for (const part of this.participations) {
      const games = new Map<Player, number>();
      if (part.members) {
        for (const p of part.members) games.set(p, part.dates.length);
      } else {
        for (const sp of spells.get(part.season * 10_000 + part.club.idx) ?? []) {
          let n = 0;
          for (const d of part.dates) if (d >= sp.start && d <= sp.end) n++;
          if (n > 0 && sp.p.ratings.has(part.season)) games.set(sp.p, (games.get(sp.p) ?? 0) + n);
        }
      }
      this.allocate(part, games, rows);
    }
    for (const r of rows) {
      if (r.competition_id === NATIONAL_MATCHES.id) {
        const p = this.playerById.get(r.player_id) as Player;
        p.row.national_team_id = r.club_id;
      }
    }
    return rows;
  }

  private playerByIdCache: Map<string, Player> | null = null;
  private get playerById(): Map<string, Player> {
    if (!this.playerByIdCache) this.playerByIdCache = new Map(this.players.map((p) => [p.row.id, p]));
    return this.playerByIdCache;
  }

  /** Shares a club's games in one competition among the players there, by rank in their position group. */
  private allocate(part: Participation, games: Map<Player, number>, rows: AppearanceRow[]): void {
    const total = part.dates.length;
    const rotation = part.comp.type === 'DOMESTIC_CUP' || part.comp.type === 'DOMESTIC_SUPERCUP';
    const starts = new Map<Player, number>();
    const subWeight = new Map<Player, number>();
    for (const g of GROUPS) {
      const members = [...games.keys()]
        .filter((p) => p.group === g)
        .map((p) => ({ p, r: p.ratings.get(part.season) as SeasonRating }))
        .sort((a, b) => b.r.rating + b.r.form - (a.r.rating + a.r.form) || a.p.idx - b.p.idx);
      const k = XI_SLOTS[g];
      const expected = members.map(({ p, r }, rank) => {
        let prop: number;
        if (g === 'GK') prop = rotation ? [0.35, 0.6, 0.05][rank] ?? 0 : [0.93, 0.06, 0.01][rank] ?? 0;
        else prop = rank < k ? 0.9 : rank < k + 1 ? 0.55 : rank < k + 3 ? 0.3 : 0.1;
        if (rotation && g !== 'GK') prop = 0.6 * prop + 0.2;
        return (games.get(p) as number) * prop * r.avail;
      });
      const sum = expected.reduce((a, b) => a + b, 0);
      const scale = sum > 0 ? Math.min(1.6, (k * total) / sum) : 0;
      members.forEach(({ p, r }, i) => {
        const n = games.get(p) as number;
        const st = clamp(Math.round(Math.min(n * 0.98, expected[i] * scale) + this.appRng.normal(0, 0.8)), 0, n);
        starts.set(p, st);
        subWeight.set(p, g === 'GK' ? 0.01 : (n - st) * (i < k ? 0.15 : 0.5) * r.avail);
      });
    }
    const subsPerGame = part.comp.type === 'DOMESTIC_LEAGUE' ? 3.6 : 3;
    const subTotal = total * subsPerGame;
    let wSum = 0;
    for (const w of subWeight.values()) wSum += w;
    for (const [p, n] of games) {
      const st = starts.get(p) ?? 0;
      const w = subWeight.get(p) ?? 0;
      const subs = wSum > 0 ? clamp(Math.round((subTotal * w) / wSum + this.appRng.normal(0, 0.7)), 0, n - st) : 0;
      const apps = st + subs;
      if (apps === 0) continue;
      const perStart = p.group === 'GK' ? 90 : p.group === 'DEF' ? this.appRng.uniform(84, 90) : p.group === 'MID' ? this.appRng.uniform(76, 88) : this.appRng.uniform(70, 84);
      const perSub = this.appRng.uniform(8, 30);
      const minutes = Math.min(90 * apps, Math.round(st * perStart + subs * perSub));
      rows.push({ player_id: p.row.id, season: part.season, competition_id: part.comp.id, club_id: part.club.row.id, appearances: apps, starts: st, minutes });
    }
  }
}
