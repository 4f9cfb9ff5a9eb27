/**
 * Expected transfer fee: log(fee) = base + boosted correction, on real paid transfers with features
 * known the day before each transfer. The base scales with the player's latest market value, so the
 * fee is not capped by the largest fees the trees saw: they learn log(fee / value), which stays in
 * the range of their training leaves at any value. The 80% range comes from quantile models
 * (0.1 / 0.9) of the same correction, widened or narrowed by conformal calibration on the most
 * recent year of training transfers (out of time).
 */
import type { TransferRow } from '../../domain/world.js';
import type { Snapshot } from '../../domain/snapshot.js';
import { playerFacts } from '../../domain/player-facts.js';
import { fitGbm, predictGbm, type GbmModel, type GbmSettings } from '../ml/gbm.js';
import { intervalCoverage } from '../ml/metrics.js';
import {
  addDays, ageAt, clubAt, clubStrengthAt, contractMonthsAt, dayOf, featureIndex, GROUP_CODE, inflationAt, joinedClubOn, leagueStrengthAt,
  logValueAt, minutesShareAt, peakLogValueAt, positionGroupOf, positionOf, tierAt, valueTrendAt, yearFraction, latestValue,
  type FeatureIndex,
} from '../features/index.js';
import { contractLogFactor, fitContractCurve, type ContractCurve } from './contract.js';

export const FEE_MODEL_VERSION = 6;

export const FEE_FEATURES = [
  'log_value', 'value_age_days', 'log_peak_value', 'value_trend', 'age', 'position_group', 'contract_months', 'tenure_years',
  'seller_strength', 'seller_league_strength', 'seller_tier', 'buyer_strength', 'buyer_league_strength', 'buyer_tier', 'year',
  'inflation', 'minutes_share', 'last_fee_to_value', 'years_since_last_fee', 'at_buyer',
] as const;
const F = Object.fromEntries(FEE_FEATURES.map((f, i) => [f, i])) as Record<(typeof FEE_FEATURES)[number], number>;

/** +1: the fee never falls as the feature grows. Fewer contract months never raise the fee. */
const MONOTONE: Partial<Record<(typeof FEE_FEATURES)[number], number>> = { contract_months: 1, log_value: 1 };
/**
 * With 'buyer' monotonicity a stronger buyer (club, league, higher tier) never pays less; it also keeps
 * the fee monotone in value when the unknown buyer is the typical buyer of players at that value.
 */
const MONOTONE_BUYER: Partial<Record<(typeof FEE_FEATURES)[number], number>> = { buyer_strength: 1, buyer_league_strength: 1, buyer_tier: -1 };
/**
 * With 'seller' monotonicity a stronger seller never sells for less: it need not sell. Without it the
 * trees read the cheap exits of players the strongest clubs no longer needed as a discount on every
 * player of those clubs, stars included.
 */
const MONOTONE_SELLER: Partial<Record<(typeof FEE_FEATURES)[number], number>> = { seller_strength: 1, seller_league_strength: 1, seller_tier: -1 };

/**
 * What the trees correct: 'value' = log latest value (the trees learn log(fee / value)); 'linear' =
 * a least-squares line in log value (slope kept >= 0); 'none' = nothing (the trees learn log(fee)
 * and cannot go past their largest leaf). bench/backtest-fees.ts compares them.
 */
export type FeeBaseKind = 'value' | 'linear' | 'none';

export interface FeeBase {
  kind: FeeBaseKind;
  intercept: number;
  slope: number;
  /** Base of a player with no market value at all: median log fee of such training transfers. */
  missing: number;
}

export interface FeeSettings {
  seed?: number;
  /** Default 'value'. */
  base?: FeeBaseKind;
  /** The point fee: 'median' (pinball loss at 0.5 on the log scale, default) or 'mean' (squared error). */
  center?: 'median' | 'mean';
  /**
   * The buyer of a query without one: 'by_value' (default) the typical buyer of training transfers of
   * players at his value, 'overall' the median buyer of all training transfers.
   */
  unknownBuyer?: 'by_value' | 'overall';
  /** Training transfers count half as much every this many years before the as-of date (default null: all alike). */
  halfLifeYears?: number | null;
  /** Price a player younger than the usual sellers at his value at their age (default true; see ageFloorsOf). */
  ageFloor?: boolean;
  /** Nominal coverage of the range (default 0.8). */
  coverage?: number;
  /** Days at the end of the training period held out to calibrate the range (default 365). */
  calibrationDays?: number;
  /**
   * The date features the trees may split on: 'all' (year and market inflation), 'inflation' (the
   * market's level, not the calendar), 'none', or 'blend' (default): the point fee of a player
   * worth up to BLEND_FROM_EUR from trees with both, above BLEND_TO_EUR from trees with neither,
   * and a mix in between (linear in log value). Cheap fees drift with the calendar and the trees
   * follow that; a year holds few top-of-market fees, and trees that split on the year price every
   * star by the last one's swing.
   */
  timeFeatures?: 'all' | 'inflation' | 'none' | 'blend';
  /** A stronger seller never sells for less (default true). */
  sellerMonotone?: boolean;
  /**
   * The range's calibration offset is found separately in this many bins of the player's value
   * (equal counts of the calibration year), so cheap and expensive players are each covered at the
   * nominal rate (default 3; 1 = one offset for all). By value rather than by the predicted fee, so
   * a longer contract or a stronger buyer never lowers either end of the range.
   */
  rangeBins?: number;
  gbm?: GbmSettings;
}

export interface BuyerFeatures {
  strength: number;
  leagueStrength: number;
  tier: number;
}

export interface FeeArtifact {
  kind: 'fee';
  version: number;
  features: readonly string[];
  trainedAsOf: string;
  base: FeeBase;
  center: GbmModel;
  /** 'blend': the point fee's trees without date features, mixed in by value (see FeeSettings.timeFeatures). */
  centerLong: GbmModel | null;
  low: GbmModel;
  high: GbmModel;
  /** Added (in log units) to both ends of the quantile range so the calibration year is covered at the nominal rate. */
  rangeOffset: number;
  /**
   * Per bin of log value: offsets[i] for players worth up to logValueUpper[i] (the last one above).
   * Null: rangeOffset for all (and for a player without a value).
   */
  rangeOffsets: { logValueUpper: number[]; offsets: number[] } | null;
  coverage: number;
  /** The average buyer: median buyer features of the training transfers. */
  averageBuyer: BuyerFeatures;
  /**
   * The buyer of a query without one, by the player's log value: buyers[i] for values up to
   * logValueUpper[i] (the last one above). Null: always the average buyer.
   */
  typicalBuyers: { logValueUpper: number[]; buyers: BuyerFeatures[] } | null;
  /**
   * The youngest usual age of a transfer at a value: the 10th percentile of age of the training
   * transfers in value bins (equal counts), at each bin's median log value; between two bins linear,
   * beyond the ends flat. A player younger than that is priced at that age (see ageFloorAt).
   */
  ageFloors: { logValue: number[]; age: number[] } | null;
  /** Months left on the contract, where the trees did not learn them (see contract.ts); null: the trees did, or too little data. */
  contract: ContractCurve | null;
  stats: {
    transfers: number;
    calibrationTransfers: number;
    calibrationStart: string;
    rawCalibrationCoverage: number;
    calibratedCoverage: number;
    trainingR2Log: number;
  };
}

export interface FeeInput {
  playerId: string;
  targetClubId?: string | null;
  contractEndDate?: string | null;
}

export interface FeeOutput {
  feeEur: number;
  lowEur: number;
  highEur: number;
}

/** Paid, permanent transfers dated on or before the snapshot's as-of date. */
export function paidTransfers(snapshot: Snapshot): TransferRow[] {
  return snapshot.transfers.filter((t) => t.fee_eur !== null && t.fee_eur > 0 && !t.is_loan);
}

export interface FeeQuery {
  playerId: string;
  /** Features are read as of this date (inclusive). */
  at: string;
  sellerClubId: string | null;
  /** null: the buyer of a query without one (see unknownBuyerOf). */
  buyerClubId: string | null;
  contractEndDate?: string | null;
}

/** The buyer of a query without one: fixed, or chosen by the player's log value. */
export type UnknownBuyer = BuyerFeatures | ((logValue: number) => BuyerFeatures);

export function feeFeatures(idx: FeatureIndex, q: FeeQuery, unknownBuyer: UnknownBuyer | null): Float64Array {
  const x = new Float64Array(FEE_FEATURES.length);
  const { playerId, at } = q;
  x[F.log_value] = logValueAt(idx, playerId, at, 100_000);
  const v = latestValue(idx, playerId, at);
  x[F.value_age_days] = v ? dayOf(at) - dayOf(v.date) : NaN;
  x[F.log_peak_value] = peakLogValueAt(idx, playerId, at);
  x[F.value_trend] = valueTrendAt(idx, playerId, at);
  x[F.age] = ageAt(idx, playerId, at);
  x[F.position_group] = GROUP_CODE[positionGroupOf(positionOf(idx, playerId))];
  x[F.contract_months] = contractMonthsAt(idx, playerId, at, q.contractEndDate);
  const joined = joinedClubOn(idx, playerId, at);
  x[F.tenure_years] = joined ? (dayOf(at) - dayOf(joined)) / 365.2425 : NaN;
  x[F.seller_strength] = clubStrengthAt(idx, q.sellerClubId, at);
  x[F.seller_league_strength] = leagueStrengthAt(idx, q.sellerClubId, at);
  x[F.seller_tier] = tierAt(idx, q.sellerClubId, at);
  if (q.buyerClubId === null && unknownBuyer) {
    const averageBuyer = typeof unknownBuyer === 'function' ? unknownBuyer(x[F.log_value]) : unknownBuyer;
    // After a JSON round trip an unknown (NaN) median is null.
    x[F.buyer_strength] = averageBuyer.strength ?? NaN;
    x[F.buyer_league_strength] = averageBuyer.leagueStrength ?? NaN;
    x[F.buyer_tier] = averageBuyer.tier ?? NaN;
  } else {
    x[F.buyer_strength] = clubStrengthAt(idx, q.buyerClubId, at);
    x[F.buyer_league_strength] = leagueStrengthAt(idx, q.buyerClubId, at);
    x[F.buyer_tier] = tierAt(idx, q.buyerClubId, at);
  }
  x[F.year] = yearFraction(at);
  x[F.inflation] = inflationAt(idx, at);
  x[F.minutes_share] = minutesShareAt(idx, playerId, at);
  // What the seller paid for him anchors what it asks.
  const paid = lastPaidTransfer(idx.snapshot, playerId, at);
  x[F.last_fee_to_value] = paid ? Math.log(paid.fee_eur!) - x[F.log_value] : NaN;
  x[F.years_since_last_fee] = paid ? (dayOf(at) - dayOf(paid.date)) / 365.2425 : NaN;
  // A buyer he already plays for (a loan made permanent) often pays a fee agreed in advance.
  x[F.at_buyer] = q.buyerClubId !== null && clubAt(idx, playerId, at) === q.buyerClubId ? 1 : 0;
  return x;
}

/** His latest paid permanent transfer dated on or before `at`. */
function lastPaidTransfer(snapshot: Snapshot, playerId: string, at: string): TransferRow | null {
  const rows = snapshot.transfersOfPlayer.get(playerId);
  if (!rows) return null;
  for (let i = rows.length - 1; i >= 0; i--) {
    const t = rows[i];
    if (t.date <= at && t.fee_eur !== null && t.fee_eur > 0 && !t.is_loan) return t;
  }
  return null;
}

/** The feature row of a past transfer, as known the day before it. */
export function transferFeatures(idx: FeatureIndex, t: TransferRow, unknownBuyer: UnknownBuyer | null = null): Float64Array {
  return feeFeatures(idx, { playerId: t.player_id, at: addDays(t.date, -1), sellerClubId: t.from_club_id, buyerClubId: t.to_club_id }, unknownBuyer);
}

function medianOf(xs: number[]): number {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const DEFAULT_GBM: GbmSettings = {
  learningRate: 0.05,
  maxIter: 800,
  maxLeafNodes: 15,
  minSamplesLeaf: 30,
  l2Regularization: 1,
  earlyStopping: true,
  validationFraction: 0.15,
  nIterNoChange: 30,
  subsample: 0.8,
};

// Measured in bench/backtest-fees.ts: a 3-year half-life did not beat equal weights.
const DEFAULT_HALF_LIFE_YEARS: number | null = null;

function monotone(s: FeeSettings): number[] {
  const byValue = (s.unknownBuyer ?? 'by_value') === 'by_value';
  const seller = s.sellerMonotone ?? true;
  return FEE_FEATURES.map((f) => MONOTONE[f] ?? (byValue ? MONOTONE_BUYER[f] : undefined) ?? (seller ? MONOTONE_SELLER[f] : undefined) ?? 0);
}

/** Training transfers per value bin of the typical buyer (the top of the market gets its own bins). */
const TYPICAL_BUYER_BIN_ROWS = 150;

/**
 * Median buyer features of the training transfers in value bins (equal counts), made monotone so a
 * more valuable player never gets a weaker typical buyer.
 */
function typicalBuyersOf(X: Float64Array[]): NonNullable<FeeArtifact['typicalBuyers']> {
  const rows = X.filter((x) => Number.isFinite(x[F.log_value])).sort((a, b) => a[F.log_value] - b[F.log_value]);
  const logValueUpper: number[] = [];
  const buyers: BuyerFeatures[] = [];
  const bins = Math.max(1, Math.floor(rows.length / TYPICAL_BUYER_BIN_ROWS));
  for (let b = 0; b < bins; b++) {
    const part = rows.slice(Math.floor((b * rows.length) / bins), Math.floor(((b + 1) * rows.length) / bins));
    if (part.length === 0) continue;
    const prev = buyers[buyers.length - 1];
    const strength = medianOf(part.map((x) => x[F.buyer_strength]));
    const leagueStrength = medianOf(part.map((x) => x[F.buyer_league_strength]));
    const tier = medianOf(part.map((x) => x[F.buyer_tier]));
    buyers.push(
      prev
        ? { strength: Math.max(prev.strength, strength), leagueStrength: Math.max(prev.leagueStrength, leagueStrength), tier: Math.min(prev.tier, tier) }
        : { strength, leagueStrength, tier },
    );
    logValueUpper.push(part[part.length - 1][F.log_value]);
  }
  return { logValueUpper, buyers };
}

/** Training transfers per value bin of the age floor. */
const AGE_FLOOR_BIN_ROWS = 150;
const AGE_FLOOR_QUANTILE = 0.1;

/**
 * The age floors of the training transfers (FeeArtifact.ageFloors). Teenagers are sold at a premium
 * over their market value when they are cheap (a 17-year-old worth 1M leaves for 3M), and hardly ever
 * when they are worth 40M or more: under-21s sold at 40M+ went for 0.95 of their value (median, 15
 * transfers to 2024), while trees that split on age apart from value gave a 17-year-old worth 90M the
 * premium of the cheap ones (1.7-2.0 of his value). The floor keeps his age within what was sold at his price.
 */
export function ageFloorsOf(X: readonly ArrayLike<number>[]): NonNullable<FeeArtifact['ageFloors']> {
  const rows = X.filter((x) => Number.isFinite(x[F.log_value]) && Number.isFinite(x[F.age])).map((x) => [x[F.log_value], x[F.age]] as const);
  rows.sort((a, b) => a[0] - b[0]);
  const bins = Math.max(1, Math.floor(rows.length / AGE_FLOOR_BIN_ROWS));
  const logValue: number[] = [];
  const age: number[] = [];
  for (let b = 0; b < bins; b++) {
    const part = rows.slice(Math.floor((b * rows.length) / bins), Math.floor(((b + 1) * rows.length) / bins));
    if (part.length === 0) continue;
    const ages = part.map((r) => r[1]).sort((p, q) => p - q);
    logValue.push(part[part.length >> 1][0]);
    age.push(ages[Math.floor(AGE_FLOOR_QUANTILE * (ages.length - 1))]);
  }
  return { logValue, age };
}

/** The age floor at a log value (NaN without floors or value). */
export function ageFloorAt(floors: FeeArtifact['ageFloors'], logValue: number): number {
  if (!floors || floors.age.length === 0 || !Number.isFinite(logValue)) return NaN;
  const { logValue: xs, age } = floors;
  if (logValue <= xs[0]) return age[0];
  const n = xs.length;
  if (logValue >= xs[n - 1]) return age[n - 1];
  let i = 1;
  while (xs[i] < logValue) i++;
  const t = xs[i] > xs[i - 1] ? (logValue - xs[i - 1]) / (xs[i] - xs[i - 1]) : 1;
  return age[i - 1] + t * (age[i] - age[i - 1]);
}

/** The row with his age raised to the floor at his value (the same row when he is older). */
function withAgeFloor(floors: FeeArtifact['ageFloors'], x: ArrayLike<number>): ArrayLike<number> {
  const floor = ageFloorAt(floors, x[F.log_value]);
  if (!(x[F.age] < floor)) return x;
  const out = Float64Array.from(x);
  out[F.age] = floor;
  return out;
}

/** The buyer a query without one is priced with. */
export function unknownBuyerOf(artifact: FeeArtifact): UnknownBuyer {
  const t = artifact.typicalBuyers;
  if (!t || t.buyers.length === 0) return artifact.averageBuyer;
  return (logValue: number) => {
    if (!Number.isFinite(logValue)) return artifact.averageBuyer;
    let i = 0;
    while (i < t.logValueUpper.length - 1 && logValue > t.logValueUpper[i]) i++;
    return t.buyers[i];
  };
}

function baseOf(b: FeeBase, x: ArrayLike<number>): number {
  const v = x[F.log_value];
  return Number.isFinite(v) ? b.intercept + b.slope * v : b.missing;
}

function fitBase(kind: FeeBaseKind, X: Float64Array[], y: Float64Array): FeeBase {
  const withValue: number[] = [];
  const without: number[] = [];
  X.forEach((x, i) => (Number.isFinite(x[F.log_value]) ? withValue : without).push(i));
  const meanY = y.reduce((a, b) => a + b, 0) / y.length;
  if (kind === 'none') return { kind, intercept: meanY, slope: 0, missing: meanY };
  let intercept = 0;
  let slope = 1;
  if (kind === 'linear' && withValue.length > 1) {
    let mx = 0;
    let my = 0;
    for (const i of withValue) {
      mx += X[i][F.log_value];
      my += y[i];
    }
    mx /= withValue.length;
    my /= withValue.length;
    let sxy = 0;
    let sxx = 0;
    for (const i of withValue) {
      sxy += (X[i][F.log_value] - mx) * (y[i] - my);
      sxx += (X[i][F.log_value] - mx) ** 2;
    }
    // A negative slope would break monotonicity in value; the trees are constrained the same way.
    slope = sxx > 0 ? Math.max(0, sxy / sxx) : 0;
    intercept = my - slope * mx;
  }
  const missing = without.length > 0 ? medianOf(without.map((i) => y[i])) : meanY;
  return { kind, intercept, slope, missing };
}

/** Recency weights: the market moves, so older fees say less about today's prices. */
function recencyWeights(dates: string[], ref: string, halfLifeYears: number | null): Float64Array | undefined {
  if (halfLifeYears === null || !(halfLifeYears > 0)) return undefined;
  const refDay = dayOf(ref);
  return Float64Array.from(dates, (d) => 0.5 ** ((refDay - dayOf(d)) / (365.2425 * halfLifeYears)));
}

function fitThree(X: Float64Array[], y: Float64Array, w: Float64Array | undefined, s: FeeSettings, alphaLow: number): { center: GbmModel; low: GbmModel; high: GbmModel } {
  const base: GbmSettings = { ...DEFAULT_GBM, ...s.gbm, seed: s.seed ?? 0, monotonicConstraints: monotone(s) };
  return {
    center: fitGbm(X, y, (s.center ?? 'median') === 'median' ? { ...base, loss: 'quantile', quantile: 0.5 } : { ...base, loss: 'squared_error' }, w),
    low: fitGbm(X, y, { ...base, loss: 'quantile', quantile: alphaLow }, w),
    high: fitGbm(X, y, { ...base, loss: 'quantile', quantile: 1 - alphaLow }, w),
  };
}

function fitCenter(X: Float64Array[], y: Float64Array, w: Float64Array | undefined, s: FeeSettings): GbmModel {
  const base: GbmSettings = { ...DEFAULT_GBM, ...s.gbm, seed: s.seed ?? 0, monotonicConstraints: monotone(s) };
  return fitGbm(X, y, (s.center ?? 'median') === 'median' ? { ...base, loss: 'quantile', quantile: 0.5 } : { ...base, loss: 'squared_error' }, w);
}

/** A copy without the date features (missing in every row, so the trees never split on them). */
function withoutDate(x: Float64Array): Float64Array {
  const c = Float64Array.from(x);
  c[F.year] = NaN;
  c[F.inflation] = NaN;
  return c;
}

/** Players worth up to this are priced by the trees with date features, above BLEND_TO_EUR by those without. */
export const BLEND_FROM_EUR = 5e6;
export const BLEND_TO_EUR = 20e6;

/** Weight of the trees without date features at a log value (0 below BLEND_FROM_EUR, 1 above BLEND_TO_EUR). */
function longWeight(logValue: number): number {
  if (!Number.isFinite(logValue)) return 0;
  const a = Math.log(BLEND_FROM_EUR);
  const b = Math.log(BLEND_TO_EUR);
  return Math.min(1, Math.max(0, (logValue - a) / (b - a)));
}

function conformalOffset(y: ArrayLike<number>, lo: ArrayLike<number>, hi: ArrayLike<number>, coverage: number): number {
  const scores: number[] = [];
  for (let i = 0; i < y.length; i++) scores.push(Math.max(lo[i] - y[i], y[i] - hi[i]));
  scores.sort((a, b) => a - b);
  const n = scores.length;
  const k = Math.min(n - 1, Math.max(0, Math.ceil((n + 1) * coverage) - 1));
  return scores[k];
}

/** Conformal offsets per bin of log value (equal counts); one offset when bins <= 1. Rows without a value are left out. */
function binnedOffsets(
  y: number[], c: number[], lo: number[], hi: number[], coverage: number, bins: number,
): NonNullable<FeeArtifact['rangeOffsets']> {
  const order = [...y.keys()].filter((i) => Number.isFinite(c[i])).sort((a, b) => c[a] - c[b]);
  const k = Math.max(1, Math.min(bins, Math.floor(y.length / 100)));
  const logValueUpper: number[] = [];
  const offsets: number[] = [];
  for (let b = 0; b < k; b++) {
    const part = order.slice(Math.floor((b * order.length) / k), Math.floor(((b + 1) * order.length) / k));
    offsets.push(conformalOffset(part.map((i) => y[i]), part.map((i) => lo[i]), part.map((i) => hi[i]), coverage));
    logValueUpper.push(c[part[part.length - 1]]);
  }
  return { logValueUpper, offsets };
}

function offsetAt(artifact: FeeArtifact, logValue: number): number {
  const r = artifact.rangeOffsets;
  if (!r || r.offsets.length === 0 || !Number.isFinite(logValue)) return artifact.rangeOffset;
  let i = 0;
  while (i < r.logValueUpper.length - 1 && logValue > r.logValueUpper[i]) i++;
  return r.offsets[i];
}

export function fitFeeModel(snapshot: Snapshot, settings: FeeSettings = {}): FeeArtifact {
  const idx = featureIndex(snapshot);
  const coverage = settings.coverage ?? 0.8;
  const rows = paidTransfers(snapshot);
  if (rows.length < 50) throw new Error(`fee model: ${rows.length} paid transfers before ${snapshot.asOf}, need at least 50`);
  const X = rows.map((t) => transferFeatures(idx, t));
  const time = settings.timeFeatures ?? 'blend';
  if (time === 'inflation' || time === 'none') {
    // A feature missing in every training row is never split on, so queries need no change.
    for (const x of X) {
      x[F.year] = NaN;
      if (time === 'none') x[F.inflation] = NaN;
    }
  }
  const ageFloors = (settings.ageFloor ?? true) ? ageFloorsOf(X) : null;
  if (ageFloors) X.forEach((x, i) => (X[i] = withAgeFloor(ageFloors, x) as Float64Array));
  const logFee = Float64Array.from(rows.map((t) => Math.log(t.fee_eur!)));
  const knownContracts = X.filter((x) => Number.isFinite(x[F.contract_months])).length;
  const base = fitBase(settings.base ?? 'value', X, logFee);
  // The trees learn what the base leaves over.
  const y = Float64Array.from(logFee, (v, i) => v - baseOf(base, X[i]));
  const averageBuyer: BuyerFeatures = {
    strength: medianOf(X.map((x) => x[F.buyer_strength])),
    leagueStrength: medianOf(X.map((x) => x[F.buyer_league_strength])),
    tier: medianOf(X.map((x) => x[F.buyer_tier])),
  };

  // Out-of-time calibration of the range: fit on all but the last year, measure on that year.
  const calibrationStart = addDays(snapshot.asOf, -(settings.calibrationDays ?? 365));
  const early = rows.map((t, i) => (t.date < calibrationStart ? i : -1)).filter((i) => i >= 0);
  const late = rows.map((t, i) => (t.date >= calibrationStart ? i : -1)).filter((i) => i >= 0);
  const alphaLow = (1 - coverage) / 2;
  const halfLife = settings.halfLifeYears === undefined ? DEFAULT_HALF_LIFE_YEARS : settings.halfLifeYears;
  let rangeOffset = 0;
  let rangeOffsets: FeeArtifact['rangeOffsets'] = null;
  let rawCoverage = NaN;
  let calibratedCoverage = NaN;
  if (early.length >= 50 && late.length >= 20) {
    const w = recencyWeights(early.map((i) => rows[i].date), calibrationStart, halfLife);
    const m = fitThree(early.map((i) => X[i]), Float64Array.from(early.map((i) => y[i])), w, settings, alphaLow);
    const yl = late.map((i) => y[i]);
    const lo = late.map((i) => predictGbm(m.low, X[i]));
    const hi = late.map((i) => predictGbm(m.high, X[i]));
    // Bins by log value: a query's bin never moves with its contract or buyer.
    const cl = late.map((i) => X[i][F.log_value]);
    rawCoverage = intervalCoverage(yl, lo, hi);
    rangeOffset = conformalOffset(yl, lo, hi, coverage);
    const bins = settings.rangeBins ?? 3;
    if (bins > 1) {
      rangeOffsets = binnedOffsets(yl, cl, lo, hi, coverage, bins);
      const off = cl.map((c) => {
        if (!Number.isFinite(c)) return rangeOffset;
        let j = 0;
        while (j < rangeOffsets!.logValueUpper.length - 1 && c > rangeOffsets!.logValueUpper[j]) j++;
        return rangeOffsets!.offsets[j];
      });
      calibratedCoverage = intervalCoverage(yl, lo.map((v, j) => v - off[j]), hi.map((v, j) => v + off[j]));
    } else {
      calibratedCoverage = intervalCoverage(yl, lo.map((v) => v - rangeOffset), hi.map((v) => v + rangeOffset));
    }
  }
  const weights = recencyWeights(rows.map((t) => t.date), snapshot.asOf, halfLife);
  const m = fitThree(X, y, weights, settings, alphaLow);
  const centerLong = time === 'blend' ? fitCenter(X.map(withoutDate), y, weights, settings) : null;
  let ss = 0;
  let st = 0;
  const mean = logFee.reduce((a, b) => a + b, 0) / logFee.length;
  for (let i = 0; i < y.length; i++) {
    ss += (y[i] - predictGbm(m.center, X[i])) ** 2;
    st += (logFee[i] - mean) ** 2;
  }
  return {
    kind: 'fee',
    version: FEE_MODEL_VERSION,
    features: [...FEE_FEATURES],
    trainedAsOf: snapshot.asOf,
    base,
    ...m,
    centerLong,
    rangeOffset,
    rangeOffsets,
    coverage,
    averageBuyer,
    typicalBuyers: (settings.unknownBuyer ?? 'by_value') === 'by_value' ? typicalBuyersOf(X) : null,
    ageFloors,
    contract: knownContracts >= CONTRACT_IN_TREES_SHARE * X.length ? null : fitContractCurve(snapshot, idx),
    stats: {
      transfers: rows.length,
      calibrationTransfers: late.length,
      calibrationStart,
      rawCalibrationCoverage: rawCoverage,
      calibratedCoverage,
      trainingR2Log: 1 - ss / st,
    },
  };
}

/** Training rows with months left below which the trees are taken not to know the contract (the curve of contract.ts moves the fee). */
const CONTRACT_IN_TREES_SHARE = 0.2;

/** Log of the point fee for a feature row: the centre alone, without the range's two models. */
function logFeeOf(artifact: FeeArtifact, row: ArrayLike<number>): number {
  const x = withAgeFloor(artifact.ageFloors, row);
  const c = predictGbm(artifact.center, x);
  const w = artifact.centerLong ? longWeight(x[F.log_value]) : 0;
  // The date features are missing in every training row of centerLong, so it ignores them in x.
  return baseOf(artifact.base, x) + (w > 0 ? (1 - w) * c + w * predictGbm(artifact.centerLong!, x) : c) + contractLogFactor(artifact.contract, x[F.contract_months]);
}

/** Fee and range for a feature row (log space in, EUR out; low <= fee <= high). */
export function feeFromFeatures(artifact: FeeArtifact, row: ArrayLike<number>): FeeOutput {
  const x = withAgeFloor(artifact.ageFloors, row);
  const b = baseOf(artifact.base, x);
  const c = logFeeOf(artifact, x);
  // By value, not by the predicted fee, so a longer contract never lowers either end.
  const d = offsetAt(artifact, x[F.log_value]);
  const k = contractLogFactor(artifact.contract, x[F.contract_months]);
  const lo = Math.min(c, b + predictGbm(artifact.low, x) - d + k);
  const hi = Math.max(c, b + predictGbm(artifact.high, x) + d + k);
  return { feeEur: Math.exp(c), lowEur: Math.exp(lo), highEur: Math.exp(hi) };
}

/** A fee query read at an explicit date of the snapshot (backtests read just before each transfer). */
export function predictFeeAt(artifact: FeeArtifact, snapshot: Snapshot, input: FeeInput & { at: string; sellerClubId?: string | null }): FeeOutput {
  const x = featuresAt(artifact, snapshot, input);
  // A contract that has run out (on or before the date) is a free transfer.
  return x[F.contract_months] === 0 ? { feeEur: 0, lowEur: 0, highEur: 0 } : feeFromFeatures(artifact, x);
}

function featuresAt(artifact: FeeArtifact, snapshot: Snapshot, input: FeeInput & { at: string; sellerClubId?: string | null }): ArrayLike<number> {
  const idx = featureIndex(snapshot);
  const player = snapshot.players.get(input.playerId);
  if (!player) throw new RangeError(`unknown player ${input.playerId}`);
  const seller = input.sellerClubId !== undefined ? input.sellerClubId : playerFacts(snapshot, player).owningClubId;
  return feeFeatures(
    idx,
    { playerId: input.playerId, at: input.at, sellerClubId: seller, buyerClubId: input.targetClubId ?? null, contractEndDate: input.contractEndDate ?? null },
    unknownBuyerOf(artifact),
  );
}

/**
 * Expected fee at the snapshot's as-of date: the seller is the club that owns the registration,
 * `targetClubId` the buyer (else the typical buyer of players at his value), `contractEndDate` replaces the known contract.
 */
export function predictFee(artifact: FeeArtifact, snapshot: Snapshot, input: FeeInput): FeeOutput {
  return predictFeeAt(artifact, snapshot, { ...input, at: snapshot.asOf });
}

/** predictFee's `feeEur` alone, for callers that price every player and show no range (the scouting list). */
export function predictFeePoint(artifact: FeeArtifact, snapshot: Snapshot, input: FeeInput): number {
  const x = featuresAt(artifact, snapshot, { ...input, at: snapshot.asOf });
  return x[F.contract_months] === 0 ? 0 : Math.exp(logFeeOf(artifact, x));
}
