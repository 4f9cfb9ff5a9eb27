/**
 * Features shared by the valuation models, read from a Snapshot at any date up to its as-of date.
 *
 * Every reader takes an `at` date and never looks at a row dated after it: a market value counts
 * only once published, a career step only once started, a club's strength is computed from values
 * and careers as they stood on a reference date on or before `at`, and a season's minutes only once
 * the season is over. The snapshot is indexed once (sorted day arrays, binary search) and the index
 * is cached per snapshot object, so a fit over thousands of transfers takes seconds.
 */
import type { CareerStepRow, ClubSeasonRow } from '../../domain/world.js';
import type { Snapshot } from '../../domain/snapshot.js';
import { POSITION_GROUP, isPositionCode, type PositionGroup } from '../../domain/positions.js';
import { seasonOf } from '../../domain/season.js';
import { memoFor } from '../../domain/memo.js';
import { median } from '../ml/metrics.js';
import { addDays, dayOf, isoOfDay } from '../../domain/days.js';

/** A value older than this no longer says what the player is worth (retired, dropped out of the data). */
export const STALE_VALUE_DAYS = 540;
/** Club strength counts the most valuable players of the squad, so squad size does not decide it. */
export const SQUAD_TOP = 25;

/** Last index i with arr[i] <= x, or -1. */
function lastAtOrBefore(arr: ArrayLike<number>, x: number): number {
  let lo = 0;
  let hi = arr.length - 1;
  let ans = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (arr[mid] <= x) {
      ans = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return ans;
}

interface ValueSeries {
  days: Int32Array;
  values: Float64Array;
  clubs: (string | null)[];
  /** Running maximum of log value up to each index. */
  peakLog: Float64Array;
}

interface CareerSeries {
  starts: Int32Array;
  ends: Int32Array; // Number.MAX_SAFE_INTEGER-like sentinel for running steps
  steps: readonly CareerStepRow[];
}

export interface ValueAt {
  valueEur: number;
  date: string;
  clubId: string | null;
}

export interface FeatureIndex {
  readonly snapshot: Snapshot;
  readonly asOfDay: number;
  readonly values: ReadonlyMap<string, ValueSeries>;
  readonly careers: ReadonlyMap<string, CareerSeries>;
  /** Reference days (1 January and 1 July) on which club strength was computed, ascending. */
  readonly refDays: Int32Array;
  /** Per reference day: club id -> log1p(value of the SQUAD_TOP most valuable players, EUR). */
  readonly clubStrength: ReadonlyMap<string, number>[];
  /** Domestic league per club and season. */
  readonly leagueOf: ReadonlyMap<string, string>;
  /** Per reference day: league id -> median club strength of its clubs that season. */
  readonly leagueStrength: ReadonlyMap<string, number>[];
  /** Per calendar year: median log market value of the values published that year (inflation). */
  readonly inflation: ReadonlyMap<number, number>;
  readonly inflationYears: Int32Array;
  /** Per season: league match count per club, for minutes shares. */
  readonly leagueGames: ReadonlyMap<string, number>;
  /**
   * Seasons in which the data knows who started (some appearance counts a start): the dataset's
   * game_lineups. Without them every start count is 0, which says nothing, so the starts share is missing.
   */
  readonly startsKnown: ReadonlySet<number>;
}

/** The feature index of a snapshot, built on first use and kept while the snapshot lives. */
export function featureIndex(snapshot: Snapshot): FeatureIndex {
  return memoFor(snapshot.dataIdentity, 'features.index', () => buildFeatureIndex(snapshot));
}

const RUNNING = 2 ** 30;

function buildFeatureIndex(snapshot: Snapshot): FeatureIndex {
  const asOfDay = dayOf(snapshot.asOf);
  const values = new Map<string, ValueSeries>();
  let minDay = asOfDay;
  const logsByYear = new Map<number, number[]>();
  for (const [pid, rows] of snapshot.values) {
    const n = rows.length;
    const s: ValueSeries = { days: new Int32Array(n), values: new Float64Array(n), clubs: new Array<string | null>(n), peakLog: new Float64Array(n) };
    let peak = -Infinity;
    for (let i = 0; i < n; i++) {
      const r = rows[i];
      const d = dayOf(r.date);
      s.days[i] = d;
      s.values[i] = r.value_eur;
      s.clubs[i] = r.club_id;
      if (r.value_eur > 0) peak = Math.max(peak, Math.log(r.value_eur));
      s.peakLog[i] = peak;
      if (d < minDay) minDay = d;
      if (r.value_eur > 0) {
        const y = Number(r.date.slice(0, 4));
        let list = logsByYear.get(y);
        if (!list) logsByYear.set(y, (list = []));
        list.push(Math.log(r.value_eur));
      }
    }
    values.set(pid, s);
  }
  const inflation = new Map<number, number>();
  for (const [y, list] of logsByYear) if (list.length >= 20) inflation.set(y, median(list));
  const inflationYears = Int32Array.from([...inflation.keys()].sort((a, b) => a - b));

  const careers = new Map<string, CareerSeries>();
  for (const [pid, steps] of snapshot.careers) {
    const n = steps.length;
    const c: CareerSeries = { starts: new Int32Array(n), ends: new Int32Array(n), steps };
    for (let i = 0; i < n; i++) {
      c.starts[i] = dayOf(steps[i].start_date);
      c.ends[i] = steps[i].end_date === null ? RUNNING : dayOf(steps[i].end_date!);
    }
    careers.set(pid, c);
  }

  const leagueOf = new Map<string, string>();
  const leagueType = (cs: ClubSeasonRow) => snapshot.competitions.get(cs.competition_id)?.type === 'DOMESTIC_LEAGUE';
  for (const cs of snapshot.clubSeasons) if (leagueType(cs)) leagueOf.set(`${cs.club_id}|${cs.season}`, cs.competition_id);

  // Reference days: every 1 January and 1 July from the first value to the as-of date.
  const refs: number[] = [];
  const firstYear = Number(isoOfDay(minDay).slice(0, 4));
  const lastYear = Number(snapshot.asOf.slice(0, 4));
  for (let y = firstYear; y <= lastYear; y++) {
    for (const md of ['01-01', '07-01']) {
      const d = dayOf(`${y}-${md}`);
      if (d >= minDay && d <= asOfDay) refs.push(d);
    }
  }
  const refDays = Int32Array.from(refs);
  const partial: FeatureIndex = {
    snapshot, asOfDay, values, careers, refDays, clubStrength: [], leagueOf, leagueStrength: [], inflation, inflationYears, leagueGames: new Map(), startsKnown: new Set(),
  };
  const clubStrength: Map<string, number>[] = [];
  const leagueStrength: Map<string, number>[] = [];
  const playerIds = [...new Set([...values.keys()])];
  for (const ref of refs) {
    const byClub = new Map<string, number[]>();
    for (const pid of playerIds) {
      const v = valueAtDay(partial, pid, ref);
      if (!v || v.valueEur <= 0) continue;
      const club = clubAtDay(partial, pid, ref) ?? v.clubId;
      if (!club) continue;
      let list = byClub.get(club);
      if (!list) byClub.set(club, (list = []));
      list.push(v.valueEur);
    }
    const strength = new Map<string, number>();
    for (const [club, list] of byClub) {
      list.sort((a, b) => b - a);
      let sum = 0;
      for (let i = 0; i < Math.min(SQUAD_TOP, list.length); i++) sum += list[i];
      strength.set(club, Math.log1p(sum));
    }
    clubStrength.push(strength);
    const season = seasonOf(isoOfDay(ref));
    const perLeague = new Map<string, number[]>();
    for (const [club, s] of strength) {
      const league = leagueOf.get(`${club}|${season}`) ?? leagueOf.get(`${club}|${season - 1}`);
      if (!league) continue;
      let list = perLeague.get(league);
      if (!list) perLeague.set(league, (list = []));
      list.push(s);
    }
    const ls = new Map<string, number>();
    for (const [league, list] of perLeague) if (list.length >= 3) ls.set(league, median(list));
    leagueStrength.push(ls);
  }

  const leagueGames = new Map<string, number>();
  for (const m of snapshot.matches) {
    if (snapshot.competitions.get(m.competition_id)?.type !== 'DOMESTIC_LEAGUE') continue;
    for (const c of [m.home_club_id, m.away_club_id]) {
      const k = `${c}|${m.season}`;
      leagueGames.set(k, (leagueGames.get(k) ?? 0) + 1);
    }
  }
  const startsKnown = new Set<number>();
  for (const rows of snapshot.appearances.values()) for (const a of rows) if (a.starts > 0) startsKnown.add(a.season);
  return { ...partial, clubStrength, leagueStrength, leagueGames, startsKnown };
}

function checkAt(idx: FeatureIndex, day: number): void {
  if (day > idx.asOfDay) throw new RangeError(`feature date ${isoOfDay(day)} is after the snapshot's as-of date ${idx.snapshot.asOf}`);
}

function valueAtDay(idx: FeatureIndex, playerId: string, day: number): ValueAt | null {
  const s = idx.values.get(playerId);
  if (!s) return null;
  const i = lastAtOrBefore(s.days, day);
  if (i < 0) return null;
  return { valueEur: s.values[i], date: isoOfDay(s.days[i]), clubId: s.clubs[i] };
}

function clubAtDay(idx: FeatureIndex, playerId: string, day: number): string | null {
  const c = idx.careers.get(playerId);
  if (!c) return null;
  // The latest step started on or before the day, if it had not ended before it.
  const i = lastAtOrBefore(c.starts, day);
  return i >= 0 && c.ends[i] >= day ? c.steps[i].club_id : null;
}

/** The latest market value published on or before `at` (null when none). */
export function latestValue(idx: FeatureIndex, playerId: string, at: string): ValueAt | null {
  const day = dayOf(at);
  checkAt(idx, day);
  return valueAtDay(idx, playerId, day);
}

/** Log of the latest value on or before `at`, NaN when none or when older than STALE_VALUE_DAYS. */
export function logValueAt(idx: FeatureIndex, playerId: string, at: string, maxAgeDays = STALE_VALUE_DAYS): number {
  const day = dayOf(at);
  checkAt(idx, day);
  const s = idx.values.get(playerId);
  if (!s) return NaN;
  const i = lastAtOrBefore(s.days, day);
  if (i < 0 || day - s.days[i] > maxAgeDays || !(s.values[i] > 0)) return NaN;
  return Math.log(s.values[i]);
}

/** Highest log value published on or before `at` (NaN when none). */
export function peakLogValueAt(idx: FeatureIndex, playerId: string, at: string): number {
  const day = dayOf(at);
  checkAt(idx, day);
  const s = idx.values.get(playerId);
  if (!s) return NaN;
  const i = lastAtOrBefore(s.days, day);
  return i < 0 || !Number.isFinite(s.peakLog[i]) ? NaN : s.peakLog[i];
}

/** Change of log value over the year before `at` (NaN when either end is unknown). */
export function valueTrendAt(idx: FeatureIndex, playerId: string, at: string): number {
  const now = logValueAt(idx, playerId, at);
  const before = logValueAt(idx, playerId, addDays(at, -365), 400);
  return now - before;
}

/**
 * Log of his first published value when it falls within the `days` before `at` and is not his latest
 * value there (NaN otherwise): where a player valued only since then starts. A teenager first valued
 * at 25M ten months ago and at 90M now has risen by x3.6 in the year; with no value a year back his
 * plain trend is unknown, and models that meet few unknown trends at the top of the market price him
 * from the trees' missing-value branch instead of from his rise.
 */
export function firstLogValueWithin(idx: FeatureIndex, playerId: string, at: string, days: number): number {
  const day = dayOf(at);
  checkAt(idx, day);
  const s = idx.values.get(playerId);
  if (!s) return NaN;
  const last = lastAtOrBefore(s.days, day);
  let first = 0;
  while (first <= last && !(s.values[first] > 0)) first++;
  if (first >= last || day - s.days[first] > days) return NaN;
  return Math.log(s.values[first]);
}

/**
 * Change of log value over the year before `at`, counted from his first published value when he
 * has been valued for less than a year (see firstLogValueWithin); NaN when still unknown.
 */
export function valueRiseAt(idx: FeatureIndex, playerId: string, at: string): number {
  const trend = valueTrendAt(idx, playerId, at);
  if (Number.isFinite(trend)) return trend;
  return logValueAt(idx, playerId, at) - firstLogValueWithin(idx, playerId, at, 365);
}

/** Club the player was at on `at` (the loan club while on loan), from his career, else his latest value's club. */
export function clubAt(idx: FeatureIndex, playerId: string, at: string): string | null {
  const day = dayOf(at);
  checkAt(idx, day);
  return clubAtDay(idx, playerId, day) ?? valueAtDay(idx, playerId, day)?.clubId ?? null;
}

/** Day the player joined the club he was at on `at` (start of the running step), null when unknown. */
export function joinedClubOn(idx: FeatureIndex, playerId: string, at: string): string | null {
  const day = dayOf(at);
  checkAt(idx, day);
  const c = idx.careers.get(playerId);
  if (!c) return null;
  const i = lastAtOrBefore(c.starts, day);
  return i >= 0 && c.ends[i] >= day ? c.steps[i].start_date : null;
}

function refIndex(idx: FeatureIndex, at: string): number {
  const day = dayOf(at);
  checkAt(idx, day);
  return lastAtOrBefore(idx.refDays, day);
}

/** log1p of the club's top-25 squad value on the last reference day on or before `at` (NaN when unknown). */
export function clubStrengthAt(idx: FeatureIndex, clubId: string | null, at: string): number {
  if (!clubId) return NaN;
  const i = refIndex(idx, at);
  if (i < 0) return NaN;
  // A club with no valued player on that day (e.g. a lower-league side) borrows the previous reading.
  for (let j = i; j >= Math.max(0, i - 2); j--) {
    const s = idx.clubStrength[j].get(clubId);
    if (s !== undefined) return s;
  }
  return NaN;
}

/** Domestic league of the club in the season of `at` (or the season before), null when unknown. */
export function leagueAt(idx: FeatureIndex, clubId: string | null, at: string): string | null {
  if (!clubId) return null;
  const season = seasonOf(at);
  // The season's club list is known from its start, which is on or before `at`.
  return idx.leagueOf.get(`${clubId}|${season}`) ?? idx.leagueOf.get(`${clubId}|${season - 1}`) ?? null;
}

/** Median club strength of the club's league at `at` (NaN when the league is unknown). */
export function leagueStrengthAt(idx: FeatureIndex, clubId: string | null, at: string): number {
  const league = leagueAt(idx, clubId, at);
  if (!league) return NaN;
  const i = refIndex(idx, at);
  for (let j = i; j >= Math.max(0, i - 2); j--) {
    const s = idx.leagueStrength[j]?.get(league);
    if (s !== undefined) return s;
  }
  return NaN;
}

/** League tier of the club at `at` (1 = top flight), NaN when unknown. */
export function tierAt(idx: FeatureIndex, clubId: string | null, at: string): number {
  const league = leagueAt(idx, clubId, at);
  const tier = league ? idx.snapshot.competitions.get(league)?.tier : null;
  return tier ?? NaN;
}

/** Fractional age in years at `at` (NaN without a birth date). */
export function ageAt(idx: FeatureIndex, playerId: string, at: string): number {
  const birth = idx.snapshot.players.get(playerId)?.birth_date;
  if (!birth) return NaN;
  return (dayOf(at) - dayOf(birth)) / 365.2425;
}

export const GROUP_CODE: Record<PositionGroup, number> = { GK: 0, DEF: 1, MID: 2, FWD: 3 };

/** The player's main position (ratings per season may refine it), 'CM' when unknown. */
export function positionOf(idx: FeatureIndex, playerId: string): string {
  const p = idx.snapshot.players.get(playerId)?.position;
  return p && isPositionCode(p) ? p : 'CM';
}

export function positionGroupOf(position: string): PositionGroup {
  return isPositionCode(position) ? POSITION_GROUP[position] : 'MID';
}

/**
 * Months left on the contract at `at`: from the contract in force (signed on or before `at`), or
 * from an explicit end date. NaN when unknown; 0 once it has run out.
 */
export function contractMonthsAt(idx: FeatureIndex, playerId: string, at: string, endOverride?: string | null): number {
  const day = dayOf(at);
  checkAt(idx, day);
  let end: string | null = endOverride ?? null;
  if (!end) {
    const c = idx.snapshot.contracts.get(playerId);
    if (!c || !c.end_date || dayOf(c.signed_date) > day) return NaN;
    end = c.end_date;
  }
  return Math.max(0, (dayOf(end) - day) / 30.4369);
}

/**
 * Share of his club's league minutes he played in the last season completed by `at`
 * (NaN when the data holds no appearances for it).
 */
export function minutesShareAt(idx: FeatureIndex, playerId: string, at: string): number {
  checkAt(idx, dayOf(at));
  return playingSharesIn(idx, playerId, seasonOf(at) - 1)[0];
}

/**
 * His share of his clubs' league minutes and of their league games started in `season` (NaN, NaN
 * without appearances; the starts share NaN in a season the data has no lineups for).
 */
export function playingSharesIn(idx: FeatureIndex, playerId: string, season: number): [number, number] {
  const rows = idx.snapshot.appearances.get(playerId);
  if (!rows || rows.length === 0) return [NaN, NaN];
  let minutes = 0;
  let starts = 0;
  let games = 0;
  const clubsSeen = new Set<string>();
  for (const r of rows) {
    if (r.season !== season || idx.snapshot.competitions.get(r.competition_id)?.type !== 'DOMESTIC_LEAGUE') continue;
    minutes += r.minutes;
    starts += r.starts;
    if (!clubsSeen.has(r.club_id)) {
      clubsSeen.add(r.club_id);
      games += idx.leagueGames.get(`${r.club_id}|${season}`) ?? 34;
    }
  }
  if (games === 0) return [NaN, NaN];
  return [Math.min(1, minutes / (90 * games)), idx.startsKnown.has(season) ? Math.min(1, starts / games) : NaN];
}

/** Median log market value of the year of `at` (or the latest year before it with enough values). */
export function inflationAt(idx: FeatureIndex, at: string): number {
  const y = Number(at.slice(0, 4));
  // The current year's median would include values after `at`: use the previous full year.
  const i = lastAtOrBefore(idx.inflationYears, y - 1);
  return i < 0 ? NaN : idx.inflation.get(idx.inflationYears[i])!;
}

/** Year as a number with a fraction, for trends. */
export function yearFraction(at: string): number {
  return 1970 + dayOf(at) / 365.2425;
}
