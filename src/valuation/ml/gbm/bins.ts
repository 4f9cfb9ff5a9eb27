/** Quantile binning of the features (NaN has its own bin), learned once per fit. */
import { MISSING_BIN } from './settings.js';

/** Bin edges for one feature: midpoints between distinct values, or midpoint quantiles. */
export function learnThresholds(values: Float64Array, maxBins: number): number[] {
  const sorted = values.slice().sort();
  const distinct: number[] = [];
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) distinct.push(sorted[i]);
  if (distinct.length <= 1) return [];
  const out: number[] = [];
  if (distinct.length <= maxBins) {
    for (let i = 0; i + 1 < distinct.length; i++) out.push(distinct[i] + (distinct[i + 1] - distinct[i]) / 2);
    return out;
  }
  const n = sorted.length;
  for (let k = 1; k < maxBins; k++) {
    const pos = (k / maxBins) * (n - 1);
    const lo = Math.floor(pos);
    const hi = Math.ceil(pos);
    const v = lo === hi ? sorted[lo] : sorted[lo] + (sorted[hi] - sorted[lo]) / 2;
    // The top value would make an empty last bin.
    if ((out.length === 0 || v > out[out.length - 1]) && v < sorted[n - 1]) out.push(v);
  }
  return out;
}

function binOf(thresholds: readonly number[], v: number): number {
  if (v !== v) return MISSING_BIN;
  let lo = 0;
  let hi = thresholds.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (v <= thresholds[mid]) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

type Matrix = readonly ArrayLike<number>[];

/** Column-major bins of the given rows. */
export function binRows(X: Matrix, rows: ArrayLike<number>, thresholds: readonly number[][]): Uint8Array {
  const nf = thresholds.length;
  const n = rows.length;
  const out = new Uint8Array(nf * n);
  for (let f = 0; f < nf; f++) {
    const t = thresholds[f];
    const off = f * n;
    for (let k = 0; k < n; k++) out[off + k] = binOf(t, X[rows[k]][f]);
  }
  return out;
}
