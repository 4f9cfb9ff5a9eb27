/**
 * The market's level at a date, so the future model learns a player's path apart from the market's.
 *
 * Values of the whole market move together: they rose through the boom of 2015-2019, fell in 2020
 * and recovered by 2024. Trained on raw 3-year ratios, the future model learns those moves as if they
 * were properties of the players whose windows they fell in (which age, which club level), and the
 * features deflated by the median of all published values (a median that falls as the data adds
 * ever more cheap players, while the top of the market rose) turned into a proxy of the start year.
 *
 * The level is the mean log market value of the MARKET_TOP most valuable players with a value
 * published in the FRESH_DAYS before the date: the top of the market holds the same kind of player
 * at every date (the first teams of the big leagues, valued since the data's start), so its level
 * moves with the market and not with how many players the data values. Read only from values
 * published on or before the date. The value, club and league features of the future model are
 * measured against it.
 *
 * The market's move over a window at a player's price point (marketMoveAt) is what the trees' target
 * leaves out; its mean over the training windows by price point (fitMarketTrend) is what the answer
 * adds back: the market is assumed to keep the mean pace of the windows the model learned from.
 */
import { memoTable } from '../../domain/memo.js';
import { valueSeries, type FeatureIndex } from '../features/index.js';
import { addYears, dayOf } from '../../domain/days.js';

/** Players whose values make the level: the top of the market, valued at every date of the data. */
export const MARKET_TOP = 500;
/** A value counts at a date when published at most this many days before it. */
const FRESH_DAYS = 365;
/**
 * The top is at most this share of the players valued at the date: a small world (the demo, the
 * tests' synthetic ones, the data's first years) has a smaller top of the same kind.
 */
const TOP_SHARE = 0.25;
/** Below this many players in the top the level is unknown. */
const MIN_TOP = 5;

/** Mean log value of the MARKET_TOP most valuable players valued in the year before `at` (fewer in a small world; NaN when too few). */
export function marketLevelAt(idx: FeatureIndex, at: string): number {
  const table = memoTable<number>(idx.snapshot.dataIdentity, 'future.marketLevel');
  const known = table.get(at);
  if (known !== undefined) return known;
  const logs = freshLogsAt(idx, at);
  const top = Math.min(MARKET_TOP, Math.floor(logs.length * TOP_SHARE));
  let level = NaN;
  if (top >= MIN_TOP) {
    let sum = 0;
    for (let k = 0; k < top; k++) sum += logs[k];
    level = sum / top;
  }
  table.set(at, level);
  return level;
}

/** Log values of the players valued in the FRESH_DAYS before `at`, highest first (kept per snapshot and date). */
function freshLogsAt(idx: FeatureIndex, at: string): Float64Array {
  const table = memoTable<Float64Array>(idx.snapshot.dataIdentity, 'future.freshLogs');
  const known = table.get(at);
  if (known !== undefined) return known;
  const day = dayOf(at);
  if (day > idx.asOfDay) throw new RangeError(`market level at ${at} is after the snapshot's as-of date ${idx.snapshot.asOf}`);
  const logs: number[] = [];
  for (const [, s] of valueSeries(idx)) {
    // Latest value on or before the day (binary search over the sorted days).
    let lo = 0;
    let hi = s.days.length - 1;
    let i = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (s.days[mid] <= day) {
        i = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (i >= 0 && day - s.days[i] <= FRESH_DAYS && s.values[i] > 0) logs.push(Math.log(s.values[i]));
  }
  const sorted = Float64Array.from(logs).sort().reverse();
  table.set(at, sorted);
  return sorted;
}

/** Ranks read at most: beyond, the data's growing coverage (more players valued each year) moves the level of a rank. */
export const MAX_RANK = 2000;
/** The very top is a handful of players: ranks above this read the level around it. */
const MIN_RANK = 20;
/** The level at a rank is the mean over ranks within this factor of it. */
const RANK_BAND = 1.5;

/** Mean log value around rank k (1 = the most valuable) at `at`. */
function levelAtRank(logs: Float64Array, k: number): number {
  const lo = Math.max(0, Math.floor(k / RANK_BAND) - 1);
  const hi = Math.min(logs.length, Math.ceil(k * RANK_BAND));
  if (hi <= lo) return NaN;
  let sum = 0;
  for (let i = lo; i < hi; i++) sum += logs[i];
  return sum / (hi - lo);
}

/**
 * The market's move from `from` to `to` at the price point of a value (log EUR) at `from`: the change
 * of the level around his rank then (the boom of 2015-2019 lifted the top more than the middle), his
 * rank read at most at MAX_RANK. NaN when either date has too few values.
 */
export function marketMoveAt(idx: FeatureIndex, logValue: number, from: string, to: string): number {
  const [k, a, b] = rankAt(idx, logValue, from, to);
  return Number.isFinite(k) ? levelAtRank(b, k) - levelAtRank(a, k) : NaN;
}

/** His rank among the values at `from` (clamped to the ranks read) and both dates' sorted values. */
function rankAt(idx: FeatureIndex, logValue: number, from: string, to: string): [number, Float64Array, Float64Array] {
  const a = freshLogsAt(idx, from);
  const b = freshLogsAt(idx, to);
  // As for the level: in a small world the ranks read stop at its top quarter.
  const maxRank = Math.min(MAX_RANK, Math.floor(Math.min(a.length, b.length) * TOP_SHARE));
  if (maxRank < MIN_TOP) return [NaN, a, b];
  // Rank = 1 + how many were valued above him (binary search in the descending array).
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] > logValue) lo = mid + 1;
    else hi = mid;
  }
  return [Math.max(Math.min(MIN_RANK, maxRank), Math.min(maxRank, lo + 1)), a, b];
}

/**
 * The market's mean move over the horizon at each price point, across the training windows: what
 * the model serves on top of a player's own path (his path is learned net of the market's move).
 * Kept by the log value at the as-of date that marks each rank of a grid, highest first.
 */
export interface MarketTrend {
  logValues: number[];
  moves: number[];
  /** The training windows' start dates the moves are the mean of. */
  from: string[];
  horizonYears: number;
}

/** Ranks of the trend's grid: from MIN_RANK to MAX_RANK, each 1.25 times the previous. */
function rankGrid(): number[] {
  const out: number[] = [];
  for (let k = MIN_RANK; k < MAX_RANK; k = Math.ceil(k * 1.25)) out.push(k);
  out.push(MAX_RANK);
  return out;
}

/** The mean move by price point over the windows starting on `starts` (null when the world is too small). */
export function fitMarketTrend(idx: FeatureIndex, starts: readonly string[], horizonYears: number): MarketTrend | null {
  const now = freshLogsAt(idx, idx.snapshot.asOf);
  const logValues: number[] = [];
  const moves: number[] = [];
  const seen = new Set<number>();
  for (const k of rankGrid()) {
    let sum = 0;
    let n = 0;
    let rank = k;
    for (const from of starts) {
      const to = addYears(from, horizonYears);
      const a = freshLogsAt(idx, from);
      const b = freshLogsAt(idx, to);
      const maxRank = Math.min(MAX_RANK, Math.floor(Math.min(a.length, b.length, now.length) * TOP_SHARE));
      if (maxRank < MIN_TOP) continue;
      rank = Math.min(k, maxRank);
      sum += levelAtRank(b, rank) - levelAtRank(a, rank);
      n++;
    }
    // A small world's grid stops at its top quarter: one point per rank read.
    if (n === 0 || seen.has(rank)) continue;
    seen.add(rank);
    logValues.push(now[rank - 1]);
    moves.push(sum / n);
  }
  return moves.length === 0 ? null : { logValues, moves, from: [...starts], horizonYears };
}

/** The trend at a log value: linear between the grid's points, the end points' beyond them (0 without a trend). */
export function marketTrendFor(trend: MarketTrend | null, logValue: number): number {
  if (!trend || !Number.isFinite(logValue)) return 0;
  const { logValues: v, moves: m } = trend;
  if (logValue >= v[0]) return m[0];
  for (let i = 1; i < v.length; i++) {
    if (logValue >= v[i]) return v[i - 1] === v[i] ? m[i] : m[i] + ((logValue - v[i]) / (v[i - 1] - v[i])) * (m[i - 1] - m[i]);
  }
  return m[m.length - 1];
}
