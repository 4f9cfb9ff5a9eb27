/**
 * A predictive distribution of log(value in 3 years / value now): location and scale from two
 * boosted models, and the shape from the standardised out-of-fold residuals of the training rows,
 * kept as quantiles per shape bucket (the residuals of a 19-year-old are skewed up, those of a
 * 32-year-old down). So one distribution gives the median, the 80% range and every band's mass.
 */
import { fitGbm, predictGbm, type GbmModel, type GbmSettings } from '../ml/gbm.js';

/** Quantile levels kept per shape: 0, 1/(n-1), ..., 1. */
export const SHAPE_LEVELS = 201;
/** Keeps the log of a near-zero residual finite: most values move by a few percent at least. */
const ABS_FLOOR = 0.02;

/**
 * Out of time the residuals spread wider than out of fold: the market moves between the training
 * seasons and the seasons predicted, which no in-period residual shows. The shape's deviations
 * from its median are widened by this factor, the median itself unchanged. Calibrated on the two
 * earliest backtest origins (2015 and 2017 needed 1.20 and 1.035 for 80% coverage; the mean),
 * checked on 2019 and 2021: the future backtest printed the factor each origin would need.
 */
export const DEFAULT_SPREAD = 1.12;

export interface LogRatioSettings {
  /** Widening of the shape around its median (default DEFAULT_SPREAD; 1 = the out-of-fold residuals as they are). */
  spread?: number;
  location?: GbmSettings;
  scale?: GbmSettings;
  seed?: number;
}

export interface LogRatioModel {
  /** Two location models, each fitted on one half of the players; the location is their mean. */
  location: GbmModel[];
  scale: GbmModel;
  /** Per shape bucket: ascending quantiles of the standardised residual at SHAPE_LEVELS levels. */
  shapes: number[][];
  /** Out-of-fold fit, for the model card; spread = the widening applied to the shapes. */
  stats: { rows: number; oofRmse: number; medianScale: number; spread: number };
}

export interface LogRatioDistribution {
  mu: number;
  sigma: number;
  shape: readonly number[];
}

const LOCATION_DEFAULTS: GbmSettings = {
  learningRate: 0.1, maxIter: 250, maxLeafNodes: 31, minSamplesLeaf: 100, l2Regularization: 1, subsample: 0.8,
  earlyStopping: true, validationFraction: 0.1, nIterNoChange: 15, maxBins: 64,
};
const SCALE_DEFAULTS: GbmSettings = {
  learningRate: 0.1, maxIter: 150, maxLeafNodes: 15, minSamplesLeaf: 200, l2Regularization: 1, subsample: 0.8,
  earlyStopping: true, validationFraction: 0.1, nIterNoChange: 10, maxBins: 64,
};

function quantilesOf(sorted: Float64Array): number[] {
  const out = new Array<number>(SHAPE_LEVELS);
  const n = sorted.length;
  for (let i = 0; i < SHAPE_LEVELS; i++) {
    const pos = (i / (SHAPE_LEVELS - 1)) * (n - 1);
    const lo = Math.floor(pos);
    const hi = Math.min(n - 1, lo + 1);
    out[i] = sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
  }
  return out;
}

/**
 * Fits the distribution. `fold` (0 or 1 per row) splits the rows by player so a player's seasons
 * never score his own model; `bucket` picks each row's shape (0..nBuckets-1).
 */
export function fitLogRatioModel(
  X: Float64Array[],
  y: Float64Array,
  fold: Uint8Array,
  bucket: Uint8Array,
  nBuckets: number,
  settings: LogRatioSettings = {},
): LogRatioModel {
  const seed = settings.seed ?? 0;
  const loc: GbmSettings = { ...LOCATION_DEFAULTS, ...settings.location, seed };
  const n = X.length;
  // Cross-fitting: each half's model scores the other half, so every residual is out of fold and
  // gives an honest spread; the two models together are the location (no third fit needed).
  const oof = new Float64Array(n);
  const location: GbmModel[] = [];
  for (const f of [0, 1]) {
    const train = [...Array(n).keys()].filter((i) => fold[i] !== f);
    const m = fitGbm(train.map((i) => X[i]), Float64Array.from(train, (i) => y[i]), { ...loc, seed: seed + f });
    for (let i = 0; i < n; i++) if (fold[i] === f) oof[i] = predictGbm(m, X[i]);
    location.push(m);
  }
  const res = Float64Array.from(y, (v, i) => v - oof[i]);
  const logAbs = Float64Array.from(res, (r) => Math.log(Math.abs(r) + ABS_FLOOR));
  const scale = fitGbm(X, logAbs, { ...SCALE_DEFAULTS, ...settings.scale, seed: seed + 1 });
  const z: number[][] = Array.from({ length: nBuckets }, () => []);
  const all: number[] = [];
  let sq = 0;
  const scales: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = Math.exp(predictGbm(scale, X[i]));
    scales.push(s);
    const zi = res[i] / s;
    z[bucket[i]].push(zi);
    all.push(zi);
    sq += res[i] * res[i];
  }
  const sortedAll = Float64Array.from(all).sort();
  // A bucket with few rows borrows the pooled shape.
  const spread = settings.spread ?? DEFAULT_SPREAD;
  const mid = (SHAPE_LEVELS - 1) >> 1;
  const shapes = z
    .map((list) => quantilesOf(list.length >= 500 ? Float64Array.from(list).sort() : sortedAll))
    .map((q) => q.map((v) => q[mid] + spread * (v - q[mid])));
  scales.sort((a, b) => a - b);
  return { location, scale, shapes, stats: { rows: n, oofRmse: Math.sqrt(sq / n), medianScale: scales[scales.length >> 1], spread } };
}

export function logRatioDistribution(model: LogRatioModel, x: ArrayLike<number>, bucket: number): LogRatioDistribution {
  const mu = model.location.reduce((a, m) => a + predictGbm(m, x), 0) / model.location.length;
  return { mu, sigma: Math.exp(predictGbm(model.scale, x)), shape: model.shapes[bucket] ?? model.shapes[0] };
}

/** The q-quantile of the log ratio. */
export function logRatioQuantile(d: LogRatioDistribution, q: number): number {
  const pos = Math.min(1, Math.max(0, q)) * (SHAPE_LEVELS - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(SHAPE_LEVELS - 1, lo + 1);
  return d.mu + d.sigma * (d.shape[lo] + (pos - lo) * (d.shape[hi] - d.shape[lo]));
}

/** P(log ratio <= t), piecewise linear between the kept quantiles. */
export function logRatioCdf(d: LogRatioDistribution, t: number): number {
  if (t === -Infinity) return 0;
  if (t === Infinity) return 1;
  const z = (t - d.mu) / d.sigma;
  const q = d.shape;
  if (z < q[0]) return 0;
  if (z >= q[q.length - 1]) return 1;
  // Last level whose quantile is <= z; the next one is then > z.
  let lo = 0;
  let hi = q.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (q[mid] <= z) lo = mid;
    else hi = mid;
  }
  const frac = (z - q[lo]) / (q[hi] - q[lo]);
  return (lo + frac) / (q.length - 1);
}

/** The distribution with each half's distance to the median scaled (conformal calibration, ml/conformal.ts). */
export function scaledHalves(d: LogRatioDistribution, below: number, above: number): LogRatioDistribution {
  if (below === 1 && above === 1) return d;
  const pos = 0.5 * (SHAPE_LEVELS - 1), lo = Math.floor(pos), hi = Math.min(SHAPE_LEVELS - 1, lo + 1);
  const mid = d.shape[lo] + (pos - lo) * (d.shape[hi] - d.shape[lo]);
  return { ...d, shape: d.shape.map((v) => mid + (v >= mid ? above : below) * (v - mid)) };
}
