/**
 * Expected transfer fee: gradient boosting on log(fee) of real paid transfers, with features known
 * the day before each transfer, and an 80% range from quantile models (0.1 / 0.9) widened or narrowed
 * by conformal calibration on the most recent year of training transfers (out of time).
 */
import type { TransferRow } from '../../domain/world.js';
import type { Snapshot } from '../../domain/snapshot.js';
import { playerFacts } from '../../domain/player-facts.js';
import { fitGbm, predictGbm, type GbmModel, type GbmSettings } from '../ml/gbm.js';
import { intervalCoverage } from '../ml/metrics.js';
import {
  addDays, ageAt, clubStrengthAt, contractMonthsAt, dayOf, featureIndex, GROUP_CODE, inflationAt, joinedClubOn, leagueStrengthAt,
  logValueAt, minutesShareAt, peakLogValueAt, positionGroupOf, positionOf, tierAt, valueTrendAt, yearFraction, latestValue,
  type FeatureIndex,
} from '../features/index.js';

export const FEE_MODEL_VERSION = 1;

export const FEE_FEATURES = [
  'log_value', 'value_age_days', 'log_peak_value', 'value_trend', 'age', 'position_group', 'contract_months', 'tenure_years',
  'seller_strength', 'seller_league_strength', 'seller_tier', 'buyer_strength', 'buyer_league_strength', 'buyer_tier', 'year',
  'inflation', 'minutes_share',
] as const;
const F = Object.fromEntries(FEE_FEATURES.map((f, i) => [f, i])) as Record<(typeof FEE_FEATURES)[number], number>;

/** +1: the fee never falls as the feature grows. Fewer contract months never raise the fee. */
const MONOTONE: Partial<Record<(typeof FEE_FEATURES)[number], number>> = { contract_months: 1, log_value: 1 };

export interface FeeSettings {
  seed?: number;
  /** Nominal coverage of the range (default 0.8). */
  coverage?: number;
  /** Days at the end of the training period held out to calibrate the range (default 365). */
  calibrationDays?: number;
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
  center: GbmModel;
  low: GbmModel;
  high: GbmModel;
  /** Added (in log units) to both ends of the quantile range so the calibration year is covered at the nominal rate. */
  rangeOffset: number;
  coverage: number;
  /** The average buyer: median buyer features of the training transfers. */
  averageBuyer: BuyerFeatures;
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
  /** null: the average buyer. */
  buyerClubId: string | null;
  contractEndDate?: string | null;
}

export function feeFeatures(idx: FeatureIndex, q: FeeQuery, averageBuyer: BuyerFeatures | null): Float64Array {
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
  if (q.buyerClubId === null && averageBuyer) {
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
  return x;
}

/** The feature row of a past transfer, as known the day before it. */
export function transferFeatures(idx: FeatureIndex, t: TransferRow, averageBuyer: BuyerFeatures | null = null): Float64Array {
  return feeFeatures(idx, { playerId: t.player_id, at: addDays(t.date, -1), sellerClubId: t.from_club_id, buyerClubId: t.to_club_id }, averageBuyer);
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

function monotone(): number[] {
  return FEE_FEATURES.map((f) => MONOTONE[f] ?? 0);
}

function fitThree(X: Float64Array[], y: Float64Array, s: FeeSettings, alphaLow: number): { center: GbmModel; low: GbmModel; high: GbmModel } {
  const base: GbmSettings = { ...DEFAULT_GBM, ...s.gbm, seed: s.seed ?? 0, monotonicConstraints: monotone() };
  return {
    center: fitGbm(X, y, { ...base, loss: 'squared_error' }),
    low: fitGbm(X, y, { ...base, loss: 'quantile', quantile: alphaLow }),
    high: fitGbm(X, y, { ...base, loss: 'quantile', quantile: 1 - alphaLow }),
  };
}

function conformalOffset(y: ArrayLike<number>, lo: ArrayLike<number>, hi: ArrayLike<number>, coverage: number): number {
  const scores: number[] = [];
  for (let i = 0; i < y.length; i++) scores.push(Math.max(lo[i] - y[i], y[i] - hi[i]));
  scores.sort((a, b) => a - b);
  const n = scores.length;
  const k = Math.min(n - 1, Math.max(0, Math.ceil((n + 1) * coverage) - 1));
  return scores[k];
}

export function fitFeeModel(snapshot: Snapshot, settings: FeeSettings = {}): FeeArtifact {
  const idx = featureIndex(snapshot);
  const coverage = settings.coverage ?? 0.8;
  const rows = paidTransfers(snapshot);
  if (rows.length < 50) throw new Error(`fee model: ${rows.length} paid transfers before ${snapshot.asOf}, need at least 50`);
  const X = rows.map((t) => transferFeatures(idx, t));
  const y = Float64Array.from(rows.map((t) => Math.log(t.fee_eur!)));
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
  let rangeOffset = 0;
  let rawCoverage = NaN;
  let calibratedCoverage = NaN;
  if (early.length >= 50 && late.length >= 20) {
    const m = fitThree(early.map((i) => X[i]), Float64Array.from(early.map((i) => y[i])), settings, alphaLow);
    const yl = late.map((i) => y[i]);
    const lo = late.map((i) => predictGbm(m.low, X[i]));
    const hi = late.map((i) => predictGbm(m.high, X[i]));
    rawCoverage = intervalCoverage(yl, lo, hi);
    rangeOffset = conformalOffset(yl, lo, hi, coverage);
    calibratedCoverage = intervalCoverage(yl, lo.map((v) => v - rangeOffset), hi.map((v) => v + rangeOffset));
  }
  const m = fitThree(X, y, settings, alphaLow);
  let ss = 0;
  let st = 0;
  const mean = y.reduce((a, b) => a + b, 0) / y.length;
  for (let i = 0; i < y.length; i++) {
    ss += (y[i] - predictGbm(m.center, X[i])) ** 2;
    st += (y[i] - mean) ** 2;
  }
  return {
    kind: 'fee',
    version: FEE_MODEL_VERSION,
    features: [...FEE_FEATURES],
    trainedAsOf: snapshot.asOf,
    ...m,
    rangeOffset,
    coverage,
    averageBuyer,
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

/** Fee and range for a feature row (log space in, EUR out; low <= fee <= high). */
export function feeFromFeatures(artifact: FeeArtifact, x: ArrayLike<number>): FeeOutput {
  const c = predictGbm(artifact.center, x);
  const lo = Math.min(c, predictGbm(artifact.low, x) - artifact.rangeOffset);
  const hi = Math.max(c, predictGbm(artifact.high, x) + artifact.rangeOffset);
  return { feeEur: Math.exp(c), lowEur: Math.exp(lo), highEur: Math.exp(hi) };
}

/** A fee query read at an explicit date of the snapshot (backtests read just before each transfer). */
export function predictFeeAt(artifact: FeeArtifact, snapshot: Snapshot, input: FeeInput & { at: string; sellerClubId?: string | null }): FeeOutput {
  const idx = featureIndex(snapshot);
  const player = snapshot.players.get(input.playerId);
  if (!player) throw new RangeError(`unknown player ${input.playerId}`);
  const seller = input.sellerClubId !== undefined ? input.sellerClubId : playerFacts(snapshot, player).owningClubId;
  const x = feeFeatures(
    idx,
    { playerId: input.playerId, at: input.at, sellerClubId: seller, buyerClubId: input.targetClubId ?? null, contractEndDate: input.contractEndDate ?? null },
    artifact.averageBuyer,
  );
  return feeFromFeatures(artifact, x);
}

/**
 * Expected fee at the snapshot's as-of date: the seller is the club that owns the registration,
 * `targetClubId` the buyer (else the average buyer), `contractEndDate` replaces the known contract.
 */
export function predictFee(artifact: FeeArtifact, snapshot: Snapshot, input: FeeInput): FeeOutput {
  return predictFeeAt(artifact, snapshot, { ...input, at: snapshot.asOf });
}
