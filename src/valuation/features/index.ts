/**
 * Features shared by the valuation models, read from a Snapshot at any date up to its as-of date.
 *
 * Every reader takes an `at` date and never looks at a row dated after it: a market value counts
 * only once published, a career step only once started, a club's strength is computed from values
 * and careers as they stood on a reference date on or before `at`, and a season's minutes only once
 * the season is over. The snapshot is indexed once (typed columns, features/columns.ts; binary
 * search) and the index is cached per snapshot object, so a fit over thousands of transfers takes seconds.
 */
import type { Snapshot } from '../../domain/snapshot.js';
import { POSITION_GROUP, isPositionCode, type PositionGroup } from '../../domain/positions.js';
import { seasonOf } from '../../domain/season.js';
import { memoFor } from '../../domain/memo.js';
import { buildFeatureColumns, clubNumberAtDay, lastInRange, stepIndexAtDay, valueIndexAtDay, type FeatureColumns } from './columns.js';
import { addDays, dayOf, isoOfDay } from '../../domain/days.js';

/** A value older than this no longer says what the player is worth (retired, dropped out of the data). */
export const STALE_VALUE_DAYS = 540;

/** Last index i with arr[i] <= x, or -1. */
function lastAtOrBefore(arr: ArrayLike<number>, x: number): number {
  return lastInRange(arr, 0, arr.length, x);
}

export interface FeatureIndex extends FeatureColumns {
  readonly snapshot: Snapshot;
  readonly asOfDay: number;
  /** player id -> row */
  readonly playerRow: ReadonlyMap<string, number>;
  /** club id -> number */
  readonly clubNumber: ReadonlyMap<string, number>;
}

export interface ValueAt {
  valueEur: number;
  date: string;
  clubId: string | null;
}

/** A player's market values: days and EUR amounts, oldest first (views of the index's columns). */
export interface ValueSeries {
  readonly days: Int32Array;
  readonly values: Float64Array;
}

/** The feature index of a snapshot, built on first use and kept while the snapshot lives. */
export function featureIndex(snapshot: Snapshot): FeatureIndex {
  return memoFor(snapshot.dataIdentity, 'features.index', () => indexOf(snapshot, buildFeatureColumns(snapshot)));
}

/**
 * Makes `columns` (built by another thread from the same snapshot source) the snapshot's feature
 * index, so it is not built a second time. Throws when they were built from another snapshot.
 */
export function adoptFeatureColumns(snapshot: Snapshot, columns: FeatureColumns): FeatureIndex {
  if (columns.asOf !== snapshot.asOf || columns.dataVersion !== snapshot.dataVersion) {
    throw new Error(`feature columns of ${columns.dataVersion} as of ${columns.asOf} offered to a snapshot of ${snapshot.dataVersion} as of ${snapshot.asOf}`);
  }
  return memoFor(snapshot.dataIdentity, 'features.index', () => indexOf(snapshot, columns));
}

/** The index's columns alone (what a worker adopts). */
export function featureColumnsOf(idx: FeatureIndex): FeatureColumns {
  const {
    asOf, dataVersion, playerIds, valued, valueFrom, valueDays, valueEur, valueClub, peakLog, careerFrom, careerStarts, careerEnds, careerClub, clubIds,
    refDays, clubStrength, leagueOf, leagueStrength, inflation, inflationYears, leagueGames, startsKnown,
  } = idx;
  return {
    asOf, dataVersion, playerIds, valued, valueFrom, valueDays, valueEur, valueClub, peakLog, careerFrom, careerStarts, careerEnds, careerClub, clubIds,
    refDays, clubStrength, leagueOf, leagueStrength, inflation, inflationYears, leagueGames, startsKnown,
  };
}

function indexOf(snapshot: Snapshot, columns: FeatureColumns): FeatureIndex {
  const playerRow = new Map<string, number>();
  columns.playerIds.forEach((id, r) => playerRow.set(id, r));
  const clubNumber = new Map<string, number>();
  columns.clubIds.forEach((id, c) => clubNumber.set(id, c));
  return { ...columns, snapshot, asOfDay: dayOf(snapshot.asOf), playerRow, clubNumber };
}

function checkAt(idx: FeatureIndex, day: number): void {
  if (day > idx.asOfDay) throw new RangeError(`feature date ${isoOfDay(day)} is after the snapshot's as-of date ${idx.snapshot.asOf}`);
}

function valueAtDay(idx: FeatureIndex, playerId: string, day: number): ValueAt | null {
  const r = idx.playerRow.get(playerId);
  if (r === undefined) return null;
  const i = valueIndexAtDay(idx, r, day);
  if (i < 0) return null;
  const club = idx.valueClub[i];
  return { valueEur: idx.valueEur[i], date: isoOfDay(idx.valueDays[i]), clubId: club < 0 ? null : idx.clubIds[club] };
}

function clubAtDay(idx: FeatureIndex, playerId: string, day: number): string | null {
  const r = idx.playerRow.get(playerId);
  if (r === undefined) return null;
  const club = clubNumberAtDay(idx, r, day);
  return club === null ? null : idx.clubIds[club];
}

/** The player's market values (null when he has none). */
export function valueSeriesOf(idx: FeatureIndex, playerId: string): ValueSeries | null {
  const r = idx.playerRow.get(playerId);
  return r === undefined || r >= idx.valued ? null : seriesOfRow(idx, r);
}

function seriesOfRow(idx: FeatureIndex, r: number): ValueSeries {
  const from = idx.valueFrom[r];
  const to = idx.valueFrom[r + 1];
  return { days: idx.valueDays.subarray(from, to), values: idx.valueEur.subarray(from, to) };
}

/** Every player with market values and his values, in the snapshot's order. */
export function* valueSeries(idx: FeatureIndex): Generator<[string, ValueSeries]> {
  for (let r = 0; r < idx.valued; r++) yield [idx.playerIds[r], seriesOfRow(idx, r)];
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
  const r = idx.playerRow.get(playerId);
  if (r === undefined) return NaN;
  const i = valueIndexAtDay(idx, r, day);
  if (i < 0 || day - idx.valueDays[i] > maxAgeDays || !(idx.valueEur[i] > 0)) return NaN;
  return Math.log(idx.valueEur[i]);
}

/** Highest log value published on or before `at` (NaN when none). */
export function peakLogValueAt(idx: FeatureIndex, playerId: string, at: string): number {
  const day = dayOf(at);
  checkAt(idx, day);
  const r = idx.playerRow.get(playerId);
  if (r === undefined) return NaN;
  const i = valueIndexAtDay(idx, r, day);
  return i < 0 || !Number.isFinite(idx.peakLog[i]) ? NaN : idx.peakLog[i];
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
  const s = valueSeriesOf(idx, playerId);
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
  const r = idx.playerRow.get(playerId);
  if (r === undefined) return null;
  const i = stepIndexAtDay(idx, r, day);
  return i >= 0 ? isoOfDay(idx.careerStarts[i]) : null;
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
  const club = idx.clubNumber.get(clubId);
  if (club === undefined) return NaN;
  for (let j = i; j >= Math.max(0, i - 2); j--) {
    const s = idx.clubStrength[j * idx.clubIds.length + club];
    if (!Number.isNaN(s)) return s;
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
