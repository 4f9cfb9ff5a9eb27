/** The boosting loop: losses and gradients, subsampling, early stopping, trees into the JSON model. */
import { createRng, type Rng } from '../../../domain/random.js';
import { ALL_VALUES_LEFT, BINNING_SUBSAMPLE, GBM_VERSION, type GbmModel, type GbmSettings, type GbmTree, MISSING_BIN as MISSING_BIN_, type ResolvedGbmSettings, resolveGbmSettings } from './settings.js';

// a module-local copy for the hot loops (see trees.ts)
const MISSING_BIN = MISSING_BIN_;
import { binRows, learnThresholds } from './bins.js';
import { clip, type GrowContext, type GrowNode, growTree } from './trees.js';

function weightedQuantile(values: Float64Array, weights: Float64Array | null, alpha: number): number {
  const n = values.length;
  if (n === 0) return 0;
  if (!weights) {
    const sorted = values.slice().sort();
    // Lower quantile: the smallest value whose cumulative share reaches alpha.
    const k = Math.max(0, Math.ceil(alpha * n) - 1);
    return sorted[Math.min(n - 1, k)];
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => values[a] - values[b] || a - b);
  let total = 0;
  for (let i = 0; i < n; i++) total += weights[i];
  if (total <= 0) return values[order[0]];
  const target = alpha * total;
  let cum = 0;
  for (const i of order) {
    cum += weights[i];
    if (cum >= target) return values[i];
  }
  return values[order[n - 1]];
}

function meanLoss(s: ResolvedGbmSettings, y: Float64Array, raw: Float64Array, w: Float64Array | null): number {
  let num = 0;
  let den = 0;
  const a = s.quantile ?? 0;
  for (let i = 0; i < y.length; i++) {
    const d = y[i] - raw[i];
    const l = s.loss === 'quantile' ? (d >= 0 ? a * d : (a - 1) * d) : d * d;
    const wi = w ? w[i] : 1;
    num += wi * l;
    den += wi;
  }
  return den > 0 ? num / den : 0;
}

function computeGradients(s: ResolvedGbmSettings, y: Float64Array, raw: Float64Array, w: Float64Array | null, g: Float64Array, h: Float64Array): void {
  const n = y.length;
  if (s.loss === 'quantile') {
    const a = s.quantile!;
    for (let i = 0; i < n; i++) {
      const wi = w ? w[i] : 1;
      g[i] = (y[i] > raw[i] ? -a : 1 - a) * wi;
      h[i] = wi;
    }
  } else {
    for (let i = 0; i < n; i++) {
      const wi = w ? w[i] : 1;
      g[i] = (raw[i] - y[i]) * wi;
      h[i] = wi;
    }
  }
}

/**
 * Pinball-loss leaves take the alpha-quantile of the residuals of their rows (gradient steps
 * only choose the structure). Bounds are re-derived top-down from those quantiles so monotonic
 * constraints still hold: every leaf under a constrained split stays on its side of the midpoint.
 */
function quantileLeafValues(nodes: GrowNode[], ctx: GrowContext, y: Float64Array, raw: Float64Array, w: Float64Array | null, alpha: number): Float64Array {
  const values = new Float64Array(nodes.length);
  const residualQuantile = (node: GrowNode): number => {
    const m = node.end - node.start;
    const res = new Float64Array(m);
    const ws = w ? new Float64Array(m) : null;
    for (let k = 0; k < m; k++) {
      const i = ctx.indices[node.start + k];
      res[k] = y[i] - raw[i];
      if (ws) ws[k] = w![i];
    }
    return weightedQuantile(res, ws, alpha);
  };
  const visit = (id: number, lo: number, hi: number): void => {
    const node = nodes[id];
    if (node.left < 0) {
      values[id] = clip(residualQuantile(node), lo, hi);
      return;
    }
    const c = ctx.cst[node.split!.feature];
    if (c === 0) {
      visit(node.left, lo, hi);
      visit(node.right, lo, hi);
      return;
    }
    const mid = (clip(residualQuantile(nodes[node.left]), lo, hi) + clip(residualQuantile(nodes[node.right]), lo, hi)) / 2;
    if (c > 0) {
      visit(node.left, lo, Math.min(hi, mid));
      visit(node.right, Math.max(lo, mid), hi);
    } else {
      visit(node.left, Math.max(lo, mid), hi);
      visit(node.right, lo, Math.min(hi, mid));
    }
  };
  visit(0, -Infinity, Infinity);
  return values;
}

// ---------------------------------------------------------------- fit

function toTree(nodes: GrowNode[], leafValues: Float64Array | null, lr: number, thresholds: readonly number[][]): GbmTree {
  const t: GbmTree = { feature: [], threshold: [], binThreshold: [], missingLeft: [], left: [], right: [], value: [], gain: [], count: [] };
  for (const node of nodes) {
    const leaf = node.left < 0;
    const sp = node.split;
    t.feature.push(leaf ? -1 : sp!.feature);
    const edges = leaf ? [] : thresholds[sp!.feature];
    t.threshold.push(leaf ? 0 : sp!.bin < edges.length ? edges[sp!.bin] : ALL_VALUES_LEFT);
    t.binThreshold.push(leaf ? 0 : sp!.bin);
    t.missingLeft.push(!leaf && sp!.missingLeft ? 1 : 0);
    t.left.push(node.left);
    t.right.push(node.right);
    t.value.push(lr * (leaf && leafValues ? leafValues[node.id] : node.value));
    t.gain.push(leaf ? 0 : sp!.gain);
    t.count.push(node.end - node.start);
  }
  return t;
}

function leafOfBinned(t: GbmTree, binned: Uint8Array, nRows: number, row: number): number {
  let node = 0;
  while (t.feature[node] >= 0) {
    const b = binned[t.feature[node] * nRows + row];
    const goLeft = b === MISSING_BIN ? t.missingLeft[node] === 1 : b <= t.binThreshold[node];
    node = goLeft ? t.left[node] : t.right[node];
  }
  return node;
}

/**
 * Fits a boosted model. X is row-major (one array per row, NaN = missing); weights are optional
 * non-negative sample weights. Deterministic for a given settings.seed.
 */
export function fitGbm(X: Float64Array[] | number[][], y: ArrayLike<number>, settings: GbmSettings, weights?: ArrayLike<number>): GbmModel {
  const nAll = X.length;
  if (nAll < 2) throw new RangeError('fitGbm: need at least 2 rows');
  if (y.length !== nAll) throw new RangeError(`fitGbm: ${y.length} targets for ${nAll} rows`);
  if (weights && weights.length !== nAll) throw new RangeError(`fitGbm: ${weights.length} weights for ${nAll} rows`);
  const nf = X[0].length;
  if (nf < 1) throw new RangeError('fitGbm: no features');
  for (let i = 0; i < nAll; i++) {
    const row: ArrayLike<number> = X[i];
    if (row.length !== nf) throw new RangeError(`fitGbm: row ${i} has ${row.length} features, expected ${nf}`);
    for (let f = 0; f < nf; f++) {
      const v = row[f];
      if (v === Infinity || v === -Infinity) throw new RangeError(`fitGbm: infinite value at row ${i}, feature ${f} (use NaN for missing)`);
    }
    if (!Number.isFinite(y[i])) throw new RangeError(`fitGbm: target ${i} is not finite`);
    if (weights && !(weights[i] >= 0 && Number.isFinite(weights[i]))) throw new RangeError(`fitGbm: weight ${i} must be finite and >= 0`);
  }
  const s = resolveGbmSettings(settings, nf);
  const rng: Rng = createRng(s.seed);

  // Seeded train/validation split.
  let trainRows: Uint32Array;
  let valRows: Uint32Array | null = null;
  if (s.earlyStopping) {
    const nVal = Math.max(1, Math.floor(s.validationFraction * nAll));
    if (nAll - nVal < 2) throw new RangeError('fitGbm: too few rows for a validation split');
    const perm = rng.shuffle(Uint32Array.from({ length: nAll }, (_, i) => i));
    valRows = perm.slice(0, nVal).sort();
    trainRows = perm.slice(nVal).sort();
  } else {
    trainRows = Uint32Array.from({ length: nAll }, (_, i) => i);
  }
  const n = trainRows.length;
  const yT = new Float64Array(n);
  const wT = weights ? new Float64Array(n) : null;
  for (let k = 0; k < n; k++) {
    yT[k] = y[trainRows[k]];
    if (wT) wT[k] = weights![trainRows[k]];
  }

  // Bin edges from (a sample of) the training rows.
  const binSource = n > BINNING_SUBSAMPLE ? rng.sampleIndices(n, BINNING_SUBSAMPLE) : null;
  const thresholds: number[][] = [];
  for (let f = 0; f < nf; f++) {
    const vals: number[] = [];
    const m = binSource ? binSource.length : n;
    for (let k = 0; k < m; k++) {
      const v = X[trainRows[binSource ? binSource[k] : k]][f];
      if (v === v) vals.push(v);
    }
    thresholds.push(learnThresholds(Float64Array.from(vals), s.maxBins));
  }
  const binned = binRows(X, trainRows, thresholds);
  const nBins = Int32Array.from(thresholds, (t) => t.length + 1);

  let baseScore: number;
  if (s.loss === 'quantile') {
    baseScore = weightedQuantile(yT, wT, s.quantile!);
  } else {
    let sw = 0;
    let sy = 0;
    for (let k = 0; k < n; k++) {
      const wi = wT ? wT[k] : 1;
      sw += wi;
      sy += wi * yT[k];
    }
    if (!(sw > 0)) throw new RangeError('fitGbm: weights sum to zero');
    baseScore = sy / sw;
  }

  const ctx: GrowContext = {
    n, nf, binned, nBins, cst: Int8Array.from(s.monotonicConstraints), g: new Float64Array(n), h: new Float64Array(n),
    indices: new Uint32Array(n), tmp: new Uint32Array(n), gOrd: new Float64Array(n), hOrd: new Float64Array(n), pool: [], s,
  };
  const raw = new Float64Array(n).fill(baseScore);

  let valBinned: Uint8Array | null = null;
  let yV: Float64Array | null = null;
  let wV: Float64Array | null = null;
  let rawV: Float64Array | null = null;
  if (valRows) {
    valBinned = binRows(X, valRows, thresholds);
    yV = Float64Array.from(valRows, (i) => y[i]);
    wV = weights ? Float64Array.from(valRows, (i) => weights[i]) : null;
    rawV = new Float64Array(valRows.length).fill(baseScore);
  }

  const trees: GbmTree[] = [];
  const trainLoss = [meanLoss(s, yT, raw, wT)];
  const validationLoss: number[] | null = valRows ? [meanLoss(s, yV!, rawV!, wV)] : null;
  let bestVal = validationLoss ? validationLoss[0] : Infinity;
  let bestIter = 0;
  const m = Math.max(1, Math.floor(s.subsample * n));
  const inSample = new Uint8Array(n);

  for (let iter = 1; iter <= s.maxIter; iter++) {
    computeGradients(s, yT, raw, wT, ctx.g, ctx.h);
    if (m < n) {
      ctx.indices.set(rng.sampleIndices(n, m));
      inSample.fill(0);
      for (let k = 0; k < m; k++) inSample[ctx.indices[k]] = 1;
    } else {
      for (let k = 0; k < n; k++) ctx.indices[k] = k;
    }
    const nodes = growTree(ctx, m);
    const leafValues = s.loss === 'quantile' ? quantileLeafValues(nodes, ctx, yT, raw, wT, s.quantile!) : null;
    const tree = toTree(nodes, leafValues, s.learningRate, thresholds);
    trees.push(tree);

    for (const node of nodes) {
      if (node.left >= 0) continue;
      const v = tree.value[node.id];
      for (let k = node.start; k < node.end; k++) raw[ctx.indices[k]] += v;
    }
    if (m < n) {
      for (let i = 0; i < n; i++) if (!inSample[i]) raw[i] += tree.value[leafOfBinned(tree, binned, n, i)];
    }
    trainLoss.push(meanLoss(s, yT, raw, wT));

    if (validationLoss) {
      const nv = rawV!.length;
      for (let i = 0; i < nv; i++) rawV![i] += tree.value[leafOfBinned(tree, valBinned!, nv, i)];
      const lossV = meanLoss(s, yV!, rawV!, wV);
      validationLoss.push(lossV);
      if (lossV < bestVal - s.tol) {
        bestVal = lossV;
        bestIter = iter;
      } else if (iter - bestIter >= s.nIterNoChange) {
        break;
      }
    }
  }
  // Early stopping keeps the trees up to the best validation score.
  if (validationLoss) {
    trees.length = bestIter;
    trainLoss.length = bestIter + 1;
  }

  return {
    kind: 'gbm',
    version: GBM_VERSION,
    nFeatures: nf,
    settings: s,
    baseScore,
    binThresholds: thresholds,
    trees,
    trainLoss,
    validationLoss,
  };
}
