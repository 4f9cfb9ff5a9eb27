/** Fitting: the value base, the centre and quantile trees, and the conformal range offsets. */
import type { Snapshot } from '../../domain/snapshot.js';
import { fitGbm, predictGbm, type GbmModel, type GbmSettings } from '../ml/gbm.js';
import { intervalCoverage, median } from '../ml/metrics.js';
import { featureIndex } from '../features/index.js';
import { addDays, dayOf } from '../../domain/days.js';
import { type BuyerFeatures, F, FEE_FEATURES, FEE_MODEL_VERSION, type FeeArtifact, type FeeBase, type FeeBaseKind, type FeeSettings, MONOTONE, MONOTONE_BUYER, MONOTONE_SELLER } from './model.js';
import { ageFloorsOf, paidTransfers, transferFeatures, typicalBuyersOf, withAgeFloor } from './features.js';
import { baseOf } from './predict.js';
import { fitContractCurve } from './contract.js';

/** Training rows with months left below which the trees are taken not to know the contract (the curve of contract.ts moves the fee). */
const CONTRACT_IN_TREES_SHARE = 0.2;

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

// Measured by the fee backtest: a 3-year half-life did not beat equal weights.
const DEFAULT_HALF_LIFE_YEARS: number | null = null;

function monotone(s: FeeSettings): number[] {
  const byValue = (s.unknownBuyer ?? 'by_value') === 'by_value';
  const seller = s.sellerMonotone ?? true;
  return FEE_FEATURES.map((f) => MONOTONE[f] ?? (byValue ? MONOTONE_BUYER[f] : undefined) ?? (seller ? MONOTONE_SELLER[f] : undefined) ?? 0);
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
  const missing = without.length > 0 ? median(without.map((i) => y[i])) : meanY;
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
    strength: median(X.map((x) => x[F.buyer_strength])),
    leagueStrength: median(X.map((x) => x[F.buyer_league_strength])),
    tier: median(X.map((x) => x[F.buyer_tier])),
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
    backtestRange: null,
    coverage,
    averageBuyer,
    typicalBuyers: (settings.unknownBuyer ?? 'by_value') === 'by_value' ? typicalBuyersOf(X) : null,
    ageFloors,
    contract: knownContracts >= CONTRACT_IN_TREES_SHARE * X.length ? null : fitContractCurve(snapshot, featureIndex(snapshot)),
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
