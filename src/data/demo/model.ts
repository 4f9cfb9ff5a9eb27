/** The demo world's options, sizes and shapes: clubs, players, their spells and seasons. */
import { POSITION_GROUP, type PositionCode, type PositionGroup } from '../../domain/positions.js';
import { ROLES } from '../../domain/roles.js';
import { seasonOf } from '../../domain/season.js';
import type { ClubRow, CompetitionRow, PlayerRow } from '../../domain/world.js';
import { isoOfDay } from '../../domain/days.js';
import type { LeagueDef } from './leagues.js';
import { AGENCIES } from './names.js';

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
export const BURN_IN = 8;

export const GROUPS: readonly PositionGroup[] = ['GK', 'DEF', 'MID', 'FWD'];
/** Squad shape a club aims for: 3 GK, 9 defenders, 9 midfielders, 6 forwards. */
export const GROUP_TARGET: Record<PositionGroup, number> = { GK: 3, DEF: 9, MID: 9, FWD: 6 };
/** Starting places per group in the 4-3-3 used for strength and playing time. */
export const XI_SLOTS: Record<PositionGroup, number> = { GK: 1, DEF: 4, MID: 3, FWD: 3 };
/** Positions within a group, flank variants folded onto their main code. */
export const POSITION_TARGET: readonly (readonly [PositionCode, number])[] = [
  ['GK', 3], ['CB', 4], ['LB', 2], ['RB', 2], ['CDM', 2], ['CM', 3], ['LM', 1], ['RM', 1], ['CAM', 2],
  ['ST', 2], ['CF', 1], ['LW', 1], ['RW', 1],
];
const FOLD: Partial<Record<PositionCode, PositionCode>> = { LWB: 'LB', RWB: 'RB', LF: 'LW', RF: 'RW' };
export const VARIANTS: Partial<Record<PositionCode, readonly [readonly PositionCode[], readonly number[]]>> = {
  LB: [['LB', 'LWB'], [0.85, 0.15]],
  RB: [['RB', 'RWB'], [0.85, 0.15]],
  LW: [['LW', 'LF'], [0.75, 0.25]],
  RW: [['RW', 'RF'], [0.75, 0.25]],
};
export const SQUAD_MIN = 26;
export const SQUAD_MAX = 30;
export const MAX_LOANS_OUT = 4;
/** Ages of the very first squads, close to the steady state the simulation settles into. */
export const AGE_WEIGHTS: readonly (readonly [number, number])[] = [
  [16, 3], [17, 6], [18, 6.5], [19, 6.5], [20, 6.5], [21, 6.5], [22, 6.5], [23, 6.5], [24, 6.5], [25, 6.5],
  [26, 6.5], [27, 6.5], [28, 6.5], [29, 6.5], [30, 6.5], [31, 6], [32, 5], [33, 3], [34, 1], [35, 0.4],
];
export const IMPORT_AGES: readonly (readonly [number, number])[] = [
  [19, 3], [20, 5], [21, 7], [22, 8], [23, 9], [24, 9], [25, 9], [26, 8], [27, 7], [28, 6], [29, 4], [30, 3], [31, 2],
];
export const HEIGHT: Record<PositionCode, readonly [number, number]> = {
  GK: [191, 4], CB: [188, 4], LB: [178, 5], RB: [178, 5], LWB: [177, 5], RWB: [177, 5], CDM: [183, 5],
  CM: [180, 5], LM: [176, 5], RM: [176, 5], CAM: [177, 5], LW: [175, 6], RW: [175, 6], LF: [177, 6],
  RF: [177, 6], CF: [181, 6], ST: [185, 6],
};
export const ROLES_BY_POSITION = new Map(
  (Object.keys(POSITION_GROUP) as PositionCode[]).map((pos) => [pos, ROLES.filter((r) => r.positions.includes(pos))]),
);
/** The big agencies (first in the list) hold more players. */
export const AGENCY_WEIGHTS = AGENCIES.map((_, i) => (i < 8 ? 3 : 1));
export const LEFT_SIDE = new Set<PositionCode>(['LB', 'LWB', 'LM', 'LW', 'LF']);
export const RIGHT_SIDE = new Set<PositionCode>(['RB', 'RWB', 'RM', 'RW', 'RF']);

export interface Club {
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

export interface Spell {
  club: Club;
  start: number;
  end: number | null;
  loan: boolean;
  parent: Club | null;
}

export interface SeasonRating {
  rating: number;
  potential: number;
  /** Form and availability for the season: who plays, how often. */
  form: number;
  avail: number;
}

export interface Player {
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

export interface Participation {
  season: number;
  comp: CompetitionRow;
  club: Club;
  dates: number[];
  /** Set for national teams: the called-up players. */
  members?: Player[];
}

export interface SeasonResults {
  tables: Map<string, Club[]>;
  cupWinners: Map<string, Club>;
  championsWinner: Club;
  challengeWinner: Club;
}

export interface Listing {
  p: Player;
  free: boolean;
  sold: boolean;
  age: number;
}

const SEASON_CACHE = new Map<number, number>();
export const seasonOfDay = (day: number): number => {
  let s = SEASON_CACHE.get(day);
  if (s === undefined) {
    s = seasonOf(isoOfDay(day));
    SEASON_CACHE.set(day, s);
  }
  return s;
};
export const fold = (pos: PositionCode): PositionCode => FOLD[pos] ?? pos;
export const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));
/** Peaks above the mid eighties are rare: halves whatever lies beyond. */
export const softCap = (talent: number): number => (talent > 85 ? 85 + (talent - 85) * 0.5 : talent);

/** A value rounded to the steps valuation sites quote it in (25k below 1M, up to 1M above 20M). */
export function roundToQuotedStep(v: number): number {
  const step = v < 1e6 ? 25_000 : v < 5e6 ? 100_000 : v < 20e6 ? 500_000 : 1_000_000;
  return Math.max(step, Math.round(v / step) * step);
}
