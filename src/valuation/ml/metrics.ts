/**
 * Scores for backtests. Inputs are parallel arrays; percentages are fractions (0.2 = 20%).
 */

type Nums = ArrayLike<number>;

function checkSameLength(a: { length: number }, b: { length: number }, what: string): void {
  if (a.length !== b.length) throw new RangeError(`${what}: length mismatch ${a.length} vs ${b.length}`);
  if (a.length === 0) throw new RangeError(`${what}: empty input`);
}

export function mean(a: Nums): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i];
  return s / a.length;
}

/** The median of the finite values (the mean of the middle two when even); NaN when there are none. */
export function median(a: Nums): number {
  const s = Float64Array.from(a).filter(Number.isFinite).sort();
  if (s.length === 0) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Coefficient of determination, 1 - SS_res / SS_tot (can be negative). */
export function r2(yTrue: Nums, yPred: Nums): number {
  checkSameLength(yTrue, yPred, 'r2');
  const m = mean(yTrue);
  let res = 0;
  let tot = 0;
  for (let i = 0; i < yTrue.length; i++) {
    res += (yTrue[i] - yPred[i]) ** 2;
    tot += (yTrue[i] - m) ** 2;
  }
  if (tot === 0) return res === 0 ? 1 : 0;
  return 1 - res / tot;
}

export function meanAbsoluteError(yTrue: Nums, yPred: Nums): number {
  checkSameLength(yTrue, yPred, 'meanAbsoluteError');
  let s = 0;
  for (let i = 0; i < yTrue.length; i++) s += Math.abs(yTrue[i] - yPred[i]);
  return s / yTrue.length;
}

export function rootMeanSquaredError(yTrue: Nums, yPred: Nums): number {
  checkSameLength(yTrue, yPred, 'rootMeanSquaredError');
  let s = 0;
  for (let i = 0; i < yTrue.length; i++) s += (yTrue[i] - yPred[i]) ** 2;
  return Math.sqrt(s / yTrue.length);
}

/** 1-based ranks, tied values share the average of their ranks. */
export function averageRanks(a: Nums): Float64Array {
  const n = a.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((i, j) => a[i] - a[j] || i - j);
  const ranks = new Float64Array(n);
  let i = 0;
  while (i < n) {
    let j = i;
    while (j + 1 < n && a[order[j + 1]] === a[order[i]]) j++;
    const r = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[order[k]] = r;
    i = j + 1;
  }
  return ranks;
}

export function pearson(a: Nums, b: Nums): number {
  checkSameLength(a, b, 'pearson');
  const ma = mean(a);
  const mb = mean(b);
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < a.length; i++) {
    const da = a[i] - ma;
    const db = b[i] - mb;
    sab += da * db;
    saa += da * da;
    sbb += db * db;
  }
  if (saa === 0 || sbb === 0) return NaN;
  return sab / Math.sqrt(saa * sbb);
}

/** Spearman rank correlation: Pearson on average ranks (NaN when either side is constant). */
export function spearman(a: Nums, b: Nums): number {
  checkSameLength(a, b, 'spearman');
  return pearson(averageRanks(a), averageRanks(b));
}

/**
 * Median of |pred - true| / |true|. Rows whose true value is 0 have no percentage error and are
 * left out; NaN when none remain.
 */
export function medianAbsolutePercentageError(yTrue: Nums, yPred: Nums): number {
  checkSameLength(yTrue, yPred, 'medianAbsolutePercentageError');
  const errs: number[] = [];
  for (let i = 0; i < yTrue.length; i++) {
    if (yTrue[i] !== 0) errs.push(Math.abs(yPred[i] - yTrue[i]) / Math.abs(yTrue[i]));
  }
  return median(errs);
}

/** Share of rows whose prediction is within ±tolerance (a fraction) of the true value. */
export function shareWithin(yTrue: Nums, yPred: Nums, tolerance: number): number {
  checkSameLength(yTrue, yPred, 'shareWithin');
  if (!(tolerance >= 0)) throw new RangeError(`shareWithin: bad tolerance ${tolerance}`);
  let hits = 0;
  for (let i = 0; i < yTrue.length; i++) {
    if (Math.abs(yPred[i] - yTrue[i]) <= tolerance * Math.abs(yTrue[i])) hits++;
  }
  return hits / yTrue.length;
}

/** Mean pinball (quantile) loss at level alpha. */
export function pinballLoss(yTrue: Nums, yPred: Nums, alpha: number): number {
  checkSameLength(yTrue, yPred, 'pinballLoss');
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`pinballLoss: alpha must be in (0,1), got ${alpha}`);
  let s = 0;
  for (let i = 0; i < yTrue.length; i++) {
    const d = yTrue[i] - yPred[i];
    s += d >= 0 ? alpha * d : (alpha - 1) * d;
  }
  return s / yTrue.length;
}

function checkProbRows(probs: readonly Nums[], outcomes: Nums, what: string): number {
  checkSameLength(probs, outcomes, what);
  const k = probs[0].length;
  for (let i = 0; i < probs.length; i++) {
    if (probs[i].length !== k) throw new RangeError(`${what}: row ${i} has ${probs[i].length} classes, expected ${k}`);
    const o = outcomes[i];
    if (!Number.isInteger(o) || o < 0 || o >= k) throw new RangeError(`${what}: outcome ${o} out of range`);
  }
  return k;
}

/**
 * Ranked probability score for ordered categories, averaged over rows:
 * sum over the first K-1 cumulative probabilities of (F_pred - F_obs)^2, divided by K-1
 * (0 is perfect, 1 is a confident forecast of the wrong extreme).
 */
export function rankedProbabilityScore(probs: readonly Nums[], outcomes: Nums): number {
  const k = checkProbRows(probs, outcomes, 'rankedProbabilityScore');
  if (k < 2) throw new RangeError('rankedProbabilityScore: need at least two categories');
  let total = 0;
  for (let i = 0; i < probs.length; i++) {
    let cum = 0;
    let s = 0;
    for (let c = 0; c < k - 1; c++) {
      cum += probs[i][c];
      const obs = outcomes[i] <= c ? 1 : 0;
      s += (cum - obs) ** 2;
    }
    total += s / (k - 1);
  }
  return total / probs.length;
}

/** Multi-class log loss (natural log), probabilities clipped to [eps, 1 - eps]. */
export function logLoss(probs: readonly Nums[], outcomes: Nums, eps = 1e-15): number {
  checkProbRows(probs, outcomes, 'logLoss');
  let s = 0;
  for (let i = 0; i < probs.length; i++) {
    const p = Math.min(1 - eps, Math.max(eps, probs[i][outcomes[i]]));
    s -= Math.log(p);
  }
  return s / probs.length;
}

/** Share of rows with lower <= true <= upper. */
export function intervalCoverage(yTrue: Nums, lower: Nums, upper: Nums): number {
  checkSameLength(yTrue, lower, 'intervalCoverage');
  checkSameLength(yTrue, upper, 'intervalCoverage');
  let hits = 0;
  for (let i = 0; i < yTrue.length; i++) {
    if (yTrue[i] >= lower[i] && yTrue[i] <= upper[i]) hits++;
  }
  return hits / yTrue.length;
}
