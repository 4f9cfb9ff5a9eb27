/**
 * Future transfer value over 3 years as one predicted distribution of the player's own value.
 *
 * Training rows are player-seasons (comparables): his features on 30 June of season s and his
 * value 3 years later. Two boosted models give the location and scale of log(value in 3 years /
 * value now) from his value, age, position group, rating and potential, value trend and peak,
 * club and league strength, contract and minutes; the shape is the standardised out-of-fold
 * residuals by age (distribution.ts). For a query the distribution starts from his latest market
 * value: its median is the future value, its 10th/90th percentiles the range, and its mass in the
 * bands of future value / baseline the six probabilities (bands.ts). The baseline only frames the
 * bands, so the band that holds the median is the value category, and label and number agree.
 * Nearest comparables (rating, potential, age, value, club; within his position group and side of
 * the age-30 line) are shown as similar players.
 */
import { hashString } from '../../domain/hash.js';
import type { Snapshot } from '../../domain/snapshot.js';
import { playerFacts } from '../../domain/player-facts.js';
import { seasonLabel } from '../../domain/season.js';
import { buildIndex, nearest, revivedIndex, type KnnIndex } from '../ml/knn.js';
import { comparableAt, comparablesOf, revivedComparables, type Comparable, type Comparables } from './comparables.js';
import {
  GROUP_CODE, ageAt, clubAt, clubStrengthAt, featureIndex, inflationAt, latestValue,
  leagueStrengthAt, logValueAt, minutesShareAt, peakLogValueAt, positionGroupOf, positionOf, tierAt, valueSeries, valueTrendAt,
  type FeatureIndex,
} from '../features/index.js';
import { addDays, addYears, dayOf, isoOfDay } from '../../domain/days.js';
import { bestRole, rateAt, type RatingArtifact } from '../rating/index.js';
import { CATEGORY_NAMES, VALUE_CATEGORIES, bandMasses, categoryOf, categoryOfValue, type ValueCategory } from './bands.js';
import { clubMoveLogEffect, fitClubMoveEffect, type ClubMoveEffect } from './club-move.js';
import { futureDrivers, referenceRow, type Driver } from './drivers.js';
import { MARKET_TOP, fitMarketTrend, marketLevelAt, marketMoveAt, marketTrendFor, type MarketTrend } from './market.js';
import {
  fitLogRatioModel, logRatioCdf, logRatioDistribution, logRatioQuantile, scaledHalves, type LogRatioModel, type LogRatioSettings,
} from './distribution.js';
import { halfScalesAt, type HalfScales } from '../ml/conformal.js';

export { CATEGORY_NAMES, VALUE_CATEGORIES, bandMasses, categoryOf, categoryOfValue, type ValueCategory } from './bands.js';
export { DRIVER_FACTORS, roundedDrivers, type Driver, type DriverFactor } from './drivers.js';
export { comparableAt, type Comparable, type Comparables } from './comparables.js';

export const FUTURE_MODEL_VERSION = 8;
export const HORIZON_YEARS = 3;
/** A value counts as his worth at a date when published at most this many days before it. */
export const FRESH_VALUE_DAYS = 365;

/** What the distribution is predicted from, at a date, for a player at a club. */
export const FUTURE_FEATURES = [
  'rel_log_value', 'age', 'position_group', 'rating', 'potential', 'headroom', 'trend_1y', 'trend_2y', 'below_peak',
  'value_age_days', 'rel_club_strength', 'rel_league_strength', 'tier', 'value_vs_club', 'contract_months', 'minutes_share',
] as const;
/** Features of the comparables search (similar players), standardised. */
export const COMPARABLE_FEATURES = ['rating', 'potential', 'age', 'rel_log_value', 'rel_club_strength'] as const;

/** Shape buckets of the residual distribution, by age at the start: <21, 21-24, 25-28, 29-31, 32+. */
const SHAPE_AGES = [21, 25, 29, 32];
function shapeBucket(age: number): number {
  let b = 0;
  while (b < SHAPE_AGES.length && age >= SHAPE_AGES[b]) b++;
  return b;
}

export interface FutureSettings {
  /** Neighbours shown as similar players and counted as sample_size (default 50). */
  k?: number;
  /** Feature weights of the comparables search, in COMPARABLE_FEATURES order. */
  weights?: readonly number[];
  /** Only the latest this many comparable seasons are kept (default 10). */
  maxSeasons?: number;
  distribution?: LogRatioSettings;
  /**
   * How the market (market.ts) enters. `trend` (default): the trees learn each window's change net of
   * the market's move at the player's price point, the features are deflated by the market's level,
   * and the answer adds the market's mean move at his price point over the training windows. `flat`:
   * the same served with the market held flat (no move). `features`: raw changes, features deflated
   * by the market's level. `off`: the model before (raw changes, features deflated by the median of
   * all published values).
   */
  market?: MarketMode;
  seed?: number;
}

export type MarketMode = 'trend' | 'flat' | 'features' | 'off';

/** A comparable player-season, compact for the artifact. */
export interface FutureArtifact {
  kind: 'future';
  version: number;
  trainedAsOf: string;
  horizonYears: number;
  /** The bands of future value / baseline, published with the model. */
  categories: typeof VALUE_CATEGORIES;
  features: readonly string[];
  settings: { k: number; weights: number[]; maxSeasons: number; seed: number; market: MarketMode };
  /**
   * The market (market.ts): its level (mean log value of its MARKET_TOP most valuable players) on the
   * training seasons' start dates and at the as-of date, for the model card; and, with `trend`, its
   * mean 3-year move by price point over the training windows, added to the trees' ratio (which is
   * net of the market's move).
   */
  market: { top: number; levels: { date: string; level: number }[]; trend: MarketTrend | null };
  distribution: LogRatioModel;
  /** What a move to a stronger or weaker club does to his value (club-move.ts); null: too few moves in the data. */
  clubMove: ClubMoveEffect | null;
  /** The typical training row (per-feature medians) the drivers start from. */
  reference: number[];
  /** The comparables' nearest-neighbour index; row i is comparables' i. */
  index: KnnIndex;
  comparables: Comparables;
  /**
   * How far the 10th and 90th percentiles sit from the median, scaled per bin of his log value so
   * that held-back outcomes fall between them 80% of the time, half the misses on each side: learned
   * by training from the backtest (backtest/index.ts); null: as fitted.
   */
  rangeScales: HalfScales | null;
  stats: { comparables: number; seasons: number[]; oofRmse: number; medianScale: number };
}

export interface FutureInput {
  playerId: string;
  clubId: string;
  baselineValueEur?: number | null;
}

export interface SimilarPlayer {
  player_id: string;
  name: string;
  initial_value: number;
  initial_rating: number;
  initial_potential: number;
  later_transfer_value: number;
  age: number;
  season: string;
  position: string;
  best_role: string;
}

export interface FutureOutput {
  /** Median of the predicted value in 3 years. */
  futureValueEur: number;
  /** 10th and 90th percentiles of the same distribution. */
  lowEur: number;
  highEur: number;
  /** His own worth the distribution starts from: latest market value, else the baseline. */
  anchorEur: number;
  /** Frames the bands: value_category and probabilities are of future value / baseline. */
  baselineValueEur: number;
  /** The band holding futureValueEur / baseline. */
  valueCategory: ValueCategory;
  /** Mass of the distribution in each band; sums to 1. */
  probabilities: Record<ValueCategory, number>;
  sampleSize: number;
  overThirty: boolean;
  similarPlayers: SimilarPlayer[];
  /** Multipliers on the baseline whose product is futureValueEur / baselineValueEur (empty without a value or a baseline). */
  drivers: Driver[];
}

/** True when the player is older than 30 at some point of the horizon. */
export function overThirtyDuring(age: number, horizonYears = HORIZON_YEARS): boolean {
  return Number.isFinite(age) && age + horizonYears > 30;
}

function bucketOf(position: string, age: number): string {
  return `${positionGroupOf(position)}|${overThirtyDuring(age) ? 1 : 0}`;
}

interface PlayerAt {
  x: Float64Array;
  comparable: number[];
  rating: number;
  potential: number;
  age: number;
  position: string;
}

/**
 * His features at `at` as a player of `clubId` (for training rows his own club then; for a query
 * the club he would join). `logValue` is the log of the value the ratio starts from.
 */
function playerAt(idx: FeatureIndex, rating: RatingArtifact, playerId: string, at: string, clubId: string | null, logValue: number, market: MarketMode): PlayerAt {
  const position = positionOf(idx, playerId);
  const r = rateAt(rating, idx, playerId, at, position);
  const age = Number.isFinite(r.age) ? r.age : ageAt(idx, playerId, at);
  const infl = deflatorAt(idx, at, market);
  const club = clubStrengthAt(idx, clubId, at) - infl;
  const league = leagueStrengthAt(idx, clubId, at) - infl;
  const twoYearsAgo = logValueAt(idx, playerId, addDays(at, -730), 400);
  const last = latestValue(idx, playerId, at);
  const x = Float64Array.from([
    logValue - infl,
    age,
    GROUP_CODE[positionGroupOf(position)],
    r.rating,
    r.potential,
    r.potential - r.rating,
    valueTrendAt(idx, playerId, at),
    logValue - twoYearsAgo,
    peakLogValueAt(idx, playerId, at) - logValue,
    last ? dayOf(at) - dayOf(last.date) : NaN,
    club,
    league,
    tierAt(idx, clubId, at),
    logValue - infl - club,
    // Not read: the registry holds the contract as of its snapshot, so a past season's months left would
    // come from a later contract, known only for players still at that club years on (a look-ahead).
    NaN,
    minutesShareAt(idx, playerId, at),
  ], (v) => (Number.isFinite(v) ? v : NaN));
  return { x, comparable: [r.rating, r.potential, age, logValue - infl, club], rating: r.rating, potential: r.potential, age, position };
}

/** What the value features are measured against at a date: the market's level, or (before it) the median published value. */
function deflatorAt(idx: FeatureIndex, at: string, market: MarketMode): number {
  return market === 'off' ? inflationAt(idx, at) : marketLevelAt(idx, at);
}

/** One of two folds, by a stable hash of his id. */
function foldOf(playerId: string): number {
  return hashString(playerId) & 1;
}

/**
 * Comparable player-seasons start on 30 June of season s with a value published in the year
 * before; their outcome is the latest value on or before 30 June of s+3, if published in the year
 * before that date (a player who is no longer valued has no outcome). Only the latest
 * `maxSeasons` seasons whose outcome date is on or before the as-of date and the data's last value.
 */
export function fitFutureModel(snapshot: Snapshot, ratingArtifact: RatingArtifact, settings: FutureSettings = {}): FutureArtifact {
  const idx = featureIndex(snapshot);
  const resolved = {
    k: settings.k ?? 50,
    weights: [...(settings.weights ?? [1, 1, 1.5, 1, 0.7])],
    maxSeasons: settings.maxSeasons ?? 10,
    seed: settings.seed ?? 0,
    market: settings.market ?? ('trend' as MarketMode),
  };
  let lastValueDay = 0;
  for (const [, s] of valueSeries(idx)) if (s.days.length > 0) lastValueDay = Math.max(lastValueDay, s.days[s.days.length - 1]);
  const dataEnd = isoOfDay(Math.min(lastValueDay, dayOf(snapshot.asOf)));
  const lastSeason = Number(dataEnd.slice(0, 4)) - HORIZON_YEARS - (dataEnd.slice(5) >= '06-30' ? 0 : 1);
  const seasons: number[] = [];
  for (let s = lastSeason; s > lastSeason - resolved.maxSeasons; s--) seasons.unshift(s);
  const X: Float64Array[] = [];
  const y: number[] = [];
  const folds: number[] = [];
  const shapes: number[] = [];
  const knnRows: { features: number[]; category: string }[] = [];
  const comparables: Comparable[] = [];
  for (const pid of idx.playerIds.slice(0, idx.valued).sort()) {
    if (!snapshot.players.has(pid)) continue;
    for (const s of seasons) {
      const d0 = `${s}-06-30`;
      const d3 = addYears(d0, HORIZON_YEARS);
      if (d3 > dataEnd) continue;
      const lv0 = logValueAt(idx, pid, d0, FRESH_VALUE_DAYS);
      if (!Number.isFinite(lv0)) continue;
      const lv3 = logValueAt(idx, pid, d3, FRESH_VALUE_DAYS);
      if (!Number.isFinite(lv3)) continue;
      // His path against the market's: the market's own move over the window is not his.
      const marketMove = resolved.market === 'trend' || resolved.market === 'flat' ? marketMoveAt(idx, lv0, d0, d3) : 0;
      if (!Number.isFinite(marketMove)) continue;
      const f = playerAt(idx, ratingArtifact, pid, d0, clubAt(idx, pid, d0), lv0, resolved.market);
      if (!Number.isFinite(f.age)) continue;
      const v0 = Math.exp(lv0);
      const v3 = Math.exp(lv3);
      X.push(f.x);
      y.push(lv3 - lv0 - marketMove);
      folds.push(foldOf(pid));
      shapes.push(shapeBucket(f.age));
      knnRows.push({ features: f.comparable, category: bucketOf(f.position, f.age) });
      comparables.push({ p: pid, s, v0, v3, r: Math.round(f.rating), pt: Math.round(f.potential), a: Math.floor(f.age), pos: f.position, c: categoryOf(v3 / v0) });
    }
  }
  if (X.length < 200) throw new Error(`future model: ${X.length} comparable player-seasons before ${snapshot.asOf}, need at least 200`);
  const distribution = fitLogRatioModel(X, Float64Array.from(y), Uint8Array.from(folds), Uint8Array.from(shapes), SHAPE_AGES.length + 1, {
    seed: resolved.seed,
    ...settings.distribution,
  });
  const index = buildIndex(knnRows, { weights: resolved.weights, categoryMode: 'exact', missingPenalty: 1 });
  return {
    kind: 'future',
    version: FUTURE_MODEL_VERSION,
    trainedAsOf: snapshot.asOf,
    horizonYears: HORIZON_YEARS,
    categories: VALUE_CATEGORIES,
    features: FUTURE_FEATURES,
    settings: resolved,
    distribution,
    market: {
      top: MARKET_TOP,
      levels: [...seasons.map((s) => `${s}-06-30`), snapshot.asOf].map((date) => ({ date, level: marketLevelAt(idx, date) })),
      // Only the windows that gave training rows.
      trend: resolved.market === 'trend' ? fitMarketTrend(idx, [...new Set(comparables.map((c) => c.s))].sort().map((s) => `${s}-06-30`), HORIZON_YEARS) : null,
    },
    clubMove: fitClubMoveEffect(snapshot, idx, HORIZON_YEARS),
    reference: referenceRow(X, FUTURE_FEATURES.length),
    index,
    comparables: comparablesOf(comparables),
    rangeScales: null,
    stats: { comparables: X.length, seasons, oofRmse: distribution.stats.oofRmse, medianScale: distribution.stats.medianScale },
  };
}

export interface FutureQueryAt {
  playerId: string;
  clubId: string | null;
  at: string;
  /** Frames the bands; his own latest value when absent. */
  baselineValueEur?: number | null;
}

/** The predicted distribution of his value in 3 years, read at a date. */
function distributionAt(future: FutureArtifact, rating: RatingArtifact, snapshot: Snapshot, q: FutureQueryAt) {
  const idx: FeatureIndex = featureIndex(snapshot);
  const player = snapshot.players.get(q.playerId);
  if (!player) throw new RangeError(`unknown player ${q.playerId}`);
  const ownValue = latestValue(idx, q.playerId, q.at)?.valueEur ?? 0;
  const baseline = q.baselineValueEur ?? ownValue;
  // The distribution is of his own value; a player never valued starts from the baseline.
  const anchor = ownValue > 0 ? ownValue : baseline;
  // The trees read him at his own club (where their rows were); the club asked about moves him by what moves did.
  const own = clubAt(idx, q.playerId, q.at);
  const f = playerAt(idx, rating, q.playerId, q.at, own ?? q.clubId, anchor > 0 ? Math.log(anchor) : NaN, future.settings.market ?? 'off');
  const delta = own !== null && q.clubId !== null && q.clubId !== own ? clubStrengthAt(idx, q.clubId, q.at) - clubStrengthAt(idx, own, q.at) : 0;
  const clubEffect = clubMoveLogEffect(future.clubMove ?? null, f.age, delta);
  const d0 = logRatioDistribution(future.distribution, f.x, shapeBucket(f.age));
  const marketTrend = anchor > 0 ? marketTrendFor(future.market?.trend ?? null, Math.log(anchor)) : 0;
  const scales = halfScalesAt(future.rangeScales, anchor > 0 ? Math.log(anchor) : NaN);
  const d = scaledHalves({ ...d0, mu: d0.mu + clubEffect + marketTrend }, scales.below, scales.above);
  // Comparables are found at the club asked about (its reputation is part of the match).
  if (q.clubId !== null && q.clubId !== own) f.comparable[4] = clubStrengthAt(idx, q.clubId, q.at) - deflatorAt(idx, q.at, future.settings.market ?? 'off');
  const valueAt = (p: number) => (anchor > 0 ? anchor * Math.exp(logRatioQuantile(d, p)) : 0);
  return { f, d, anchor, baseline, valueAt, clubEffect, marketTrend };
}

/** predictFuture's `futureValueEur` alone, without the comparables search (callers that price many players). */
export function predictFutureMedian(future: FutureArtifact, rating: RatingArtifact, snapshot: Snapshot, input: FutureInput): number {
  return distributionAt(future, rating, snapshot, { playerId: input.playerId, clubId: input.clubId, at: snapshot.asOf, baselineValueEur: input.baselineValueEur }).valueAt(0.5);
}

/** The distribution's figures alone (no drivers, no comparables search), read at a date: what backtests score. */
export interface FutureDistribution {
  futureValueEur: number;
  lowEur: number;
  highEur: number;
  anchorEur: number;
  baselineValueEur: number;
  probabilities: Record<ValueCategory, number>;
}

export function futureDistributionAt(future: FutureArtifact, rating: RatingArtifact, snapshot: Snapshot, q: FutureQueryAt): FutureDistribution {
  return figuresOf(distributionAt(future, rating, snapshot, q));
}

function figuresOf({ d, anchor, baseline, valueAt }: ReturnType<typeof distributionAt>): FutureDistribution {
  const cdf = (v: number) => (anchor > 0 ? (v <= 0 ? 0 : logRatioCdf(d, Math.log(v / anchor))) : v > 0 ? 1 : 0);
  const masses = bandMasses(cdf, baseline);
  const total = masses.reduce((a, b) => a + b, 0);
  const probabilities = Object.fromEntries(CATEGORY_NAMES.map((name, c) => [name, masses[c] / total])) as Record<ValueCategory, number>;
  return { futureValueEur: valueAt(0.5), lowEur: valueAt(0.1), highEur: valueAt(0.9), anchorEur: anchor, baselineValueEur: baseline, probabilities };
}

/** The prediction read at an explicit date of the snapshot (backtests), else use predictFuture. */
export function predictFutureAt(future: FutureArtifact, rating: RatingArtifact, snapshot: Snapshot, q: FutureQueryAt): FutureOutput {
  const at = distributionAt(future, rating, snapshot, q);
  const { f, anchor, baseline, clubEffect, marketTrend } = at;
  const figures = figuresOf(at);
  const median = figures.futureValueEur;
  const reference = future.reference ?? [];
  const drivers =
    anchor > 0 && baseline > 0 && reference.length === f.x.length
      ? futureDrivers({
          model: future.distribution, features: future.features, reference, x: f.x, referenceBucket: shapeBucket(reference[1]), bucket: shapeBucket(f.age),
          logAnchorToBaseline: Math.log(anchor / baseline), logClubEffect: clubEffect, logMarket: marketTrend,
        })
      : [];

  const neighbours = nearest(future.index, { features: f.comparable, category: bucketOf(f.position, f.age) }, future.settings.k);
  const similarPlayers: SimilarPlayer[] = neighbours.slice(0, 10).map((n) => {
    const c = comparableAt(future.comparables, n.row);
    const p = snapshot.players.get(c.p);
    return {
      player_id: c.p,
      name: p?.name ?? c.p,
      initial_value: c.v0,
      initial_rating: c.r,
      initial_potential: c.pt,
      later_transfer_value: c.v3,
      age: c.a,
      season: seasonLabel(c.s),
      position: c.pos,
      best_role: p ? bestRole(p, c.pos, c.r, c.a) : '',
    };
  });
  return {
    ...figures,
    valueCategory: CATEGORY_NAMES[categoryOfValue(median, baseline)],
    sampleSize: neighbours.length,
    overThirty: overThirtyDuring(f.age),
    similarPlayers,
    drivers,
  };
}

/**
 * Future value from the snapshot's as-of date, for the player joining `clubId`; the baseline
 * (which frames the bands only) defaults to his latest market value.
 */
export function predictFuture(future: FutureArtifact, rating: RatingArtifact, snapshot: Snapshot, input: FutureInput): FutureOutput {
  return predictFutureAt(future, rating, snapshot, { playerId: input.playerId, clubId: input.clubId, at: snapshot.asOf, baselineValueEur: input.baselineValueEur });
}

/** The model from an artifact's JSON, where its typed arrays were written as arrays. */
export function revivedFuture(json: FutureArtifact): FutureArtifact {
  return { ...json, index: revivedIndex(json.index), comparables: revivedComparables(json.comparables) };
}

/** His own club at the as-of date, for callers without a target club (squad totals). */
export function ownClubOf(snapshot: Snapshot, playerId: string): string | null {
  const p = snapshot.players.get(playerId);
  return p ? playerFacts(snapshot, p).owningClubId : null;
}
