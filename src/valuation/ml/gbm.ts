/**
 * Histogram gradient boosting regression, after scikit-learn's HistGradientBoostingRegressor and
 * LightGBM: quantile bins per feature (NaN gets its own bin and a learned direction), leaf-wise or
 * depth-wise trees grown from gradient histograms (the larger child's histogram is the parent's
 * minus the smaller child's), squared-error or pinball (quantile) loss, seeded row subsampling,
 * early stopping on a seeded validation split, and monotonic constraints (split-level check plus
 * value bounds propagated to the children).
 *
 * The fitted model is plain JSON; prediction walks raw thresholds, so it needs no binning.
 */
import { createRng, type Rng } from '../../domain/random.js';
import { memoTable } from '../../domain/memo.js';

export type GbmLoss = 'squared_error' | 'quantile';
export type GrowPolicy = 'leafwise' | 'depthwise';

export interface GbmSettings {
  loss?: GbmLoss;
  /** Quantile level for loss 'quantile', in (0, 1). */
  quantile?: number;
  /** Shrinkage applied to every leaf value (default 0.1). */
  learningRate?: number;
  /** Number of boosting iterations (trees), default 100. */
  maxIter?: number;
  /** Leaves per tree (default 31); null = unlimited. */
  maxLeafNodes?: number | null;
  /** Edges from root to deepest leaf (default null = unlimited). */
  maxDepth?: number | null;
  minSamplesLeaf?: number;
  l2Regularization?: number;
  minGainToSplit?: number;
  /** Non-missing bins per feature, 2..255 (default 255). */
  maxBins?: number;
  /** Share of rows drawn without replacement for each tree (default 1 = all). */
  subsample?: number;
  growPolicy?: GrowPolicy;
  /** Per feature: +1 prediction never decreases with the feature, -1 never increases, 0 free. */
  monotonicConstraints?: readonly number[];
  earlyStopping?: boolean;
  validationFraction?: number;
  nIterNoChange?: number;
  /** Minimum improvement of the validation loss that counts. */
  tol?: number;
  seed?: number;
}

export interface ResolvedGbmSettings {
  loss: GbmLoss;
  quantile: number | null;
  learningRate: number;
  maxIter: number;
  maxLeafNodes: number | null;
  maxDepth: number | null;
  minSamplesLeaf: number;
  l2Regularization: number;
  minGainToSplit: number;
  maxBins: number;
  subsample: number;
  growPolicy: GrowPolicy;
  monotonicConstraints: number[];
  earlyStopping: boolean;
  validationFraction: number;
  nIterNoChange: number;
  tol: number;
  seed: number;
}

/** One tree as parallel arrays indexed by node id (0 = root). */
export interface GbmTree {
  /** Split feature, -1 for a leaf. */
  feature: number[];
  /** Go left when x <= threshold (raw feature units). */
  threshold: number[];
  /** Same split on the training bins: left when bin <= binThreshold. */
  binThreshold: number[];
  /** 1 when missing values go left. */
  missingLeft: number[];
  left: number[];
  right: number[];
  /** Leaves: the tree's contribution (shrunk). Internal nodes: the shrunk gradient step, for reading only. */
  value: number[];
  /** Loss reduction of the split (0 for leaves). */
  gain: number[];
  /** Training rows that reached the node. */
  count: number[];
}

export interface GbmModel {
  kind: 'gbm';
  version: 1;
  nFeatures: number;
  settings: ResolvedGbmSettings;
  baseScore: number;
  /** Per feature, ascending upper edges of the non-missing bins (bin i holds (t[i-1], t[i]]). */
  binThresholds: number[][];
  trees: GbmTree[];
  /** Training loss after each iteration (index 0 = base score only). */
  trainLoss: number[];
  /** Validation loss after each iteration when early stopping was on. */
  validationLoss: number[] | null;
}

export const GBM_VERSION = 1;
const MISSING_BIN = 255;
const BIN_SLOTS = 256;
const HIST_STRIDE = BIN_SLOTS * 3;
const MIN_HESSIAN_TO_SPLIT = 1e-3;
const BINNING_SUBSAMPLE = 200_000;
/** Threshold of a split that sends every non-missing value left (JSON has no Infinity). */
const ALL_VALUES_LEFT = Number.MAX_VALUE;

export function resolveGbmSettings(s: GbmSettings, nFeatures: number): ResolvedGbmSettings {
  const r: ResolvedGbmSettings = {
    loss: s.loss ?? 'squared_error',
    quantile: s.loss === 'quantile' ? (s.quantile ?? NaN) : null,
    learningRate: s.learningRate ?? 0.1,
    maxIter: s.maxIter ?? 100,
    maxLeafNodes: s.maxLeafNodes === undefined ? 31 : s.maxLeafNodes,
    maxDepth: s.maxDepth ?? null,
    minSamplesLeaf: s.minSamplesLeaf ?? 20,
    l2Regularization: s.l2Regularization ?? 0,
    minGainToSplit: s.minGainToSplit ?? 0,
    maxBins: s.maxBins ?? 255,
    subsample: s.subsample ?? 1,
    growPolicy: s.growPolicy ?? 'leafwise',
    monotonicConstraints: s.monotonicConstraints ? [...s.monotonicConstraints] : new Array<number>(nFeatures).fill(0),
    earlyStopping: s.earlyStopping ?? false,
    validationFraction: s.validationFraction ?? 0.1,
    nIterNoChange: s.nIterNoChange ?? 10,
    tol: s.tol ?? 1e-7,
    seed: s.seed ?? 0,
  };
  const bad = (what: string): never => {
    throw new RangeError(`GBM settings: ${what}`);
  };
  if (r.loss !== 'squared_error' && r.loss !== 'quantile') bad(`unknown loss ${String(r.loss)}`);
  if (r.loss === 'quantile' && !(r.quantile! > 0 && r.quantile! < 1)) bad('quantile must be in (0, 1)');
  if (!(r.learningRate > 0)) bad('learningRate must be > 0');
  if (!Number.isInteger(r.maxIter) || r.maxIter < 1) bad('maxIter must be an integer >= 1');
  if (r.maxLeafNodes !== null && (!Number.isInteger(r.maxLeafNodes) || r.maxLeafNodes < 2)) bad('maxLeafNodes must be >= 2 or null');
  if (r.maxDepth !== null && (!Number.isInteger(r.maxDepth) || r.maxDepth < 1)) bad('maxDepth must be >= 1 or null');
  if (!Number.isInteger(r.minSamplesLeaf) || r.minSamplesLeaf < 1) bad('minSamplesLeaf must be an integer >= 1');
  if (!(r.l2Regularization >= 0)) bad('l2Regularization must be >= 0');
  if (!(r.minGainToSplit >= 0)) bad('minGainToSplit must be >= 0');
  if (!Number.isInteger(r.maxBins) || r.maxBins < 2 || r.maxBins > 255) bad('maxBins must be an integer in [2, 255]');
  if (!(r.subsample > 0 && r.subsample <= 1)) bad('subsample must be in (0, 1]');
  if (r.growPolicy !== 'leafwise' && r.growPolicy !== 'depthwise') bad(`unknown growPolicy ${String(r.growPolicy)}`);
  if (r.monotonicConstraints.length !== nFeatures) bad(`monotonicConstraints has ${r.monotonicConstraints.length} entries for ${nFeatures} features`);
  if (r.monotonicConstraints.some((c) => c !== -1 && c !== 0 && c !== 1)) bad('monotonicConstraints entries must be -1, 0 or 1');
  if (!(r.validationFraction > 0 && r.validationFraction < 1)) bad('validationFraction must be in (0, 1)');
  if (!Number.isInteger(r.nIterNoChange) || r.nIterNoChange < 1) bad('nIterNoChange must be an integer >= 1');
  if (!(r.tol >= 0)) bad('tol must be >= 0');
  if (!Number.isInteger(r.seed)) bad('seed must be an integer');
  return r;
}

// ---------------------------------------------------------------- binning

/** Bin edges for one feature: midpoints between distinct values, or midpoint quantiles. */
function learnThresholds(values: Float64Array, maxBins: number): number[] {
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
function binRows(X: Matrix, rows: ArrayLike<number>, thresholds: readonly number[][]): Uint8Array {
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

// ---------------------------------------------------------------- tree growing

interface Split {
  gain: number;
  feature: number;
  bin: number;
  missingLeft: boolean;
  gL: number;
  hL: number;
  cL: number;
  gR: number;
  hR: number;
  cR: number;
  vL: number;
  vR: number;
}

interface GrowNode {
  id: number;
  start: number;
  end: number;
  sumG: number;
  sumH: number;
  /** Unshrunk value, inside [lower, upper]. */
  value: number;
  depth: number;
  lower: number;
  upper: number;
  hist: Float64Array | null;
  split: Split | null;
  left: number;
  right: number;
}

interface GrowContext {
  n: number;
  nf: number;
  binned: Uint8Array;
  nBins: Int32Array;
  cst: Int8Array;
  g: Float64Array;
  h: Float64Array;
  indices: Uint32Array;
  tmp: Uint32Array;
  gOrd: Float64Array;
  hOrd: Float64Array;
  pool: Float64Array[];
  s: ResolvedGbmSettings;
}

const clip = (v: number, lo: number, hi: number): number => (v < lo ? lo : v > hi ? hi : v);

/** Objective of a node holding gradient sums G, H at value v (twice the second-order loss). */
const nodeLoss = (G: number, H: number, l2: number, v: number): number => 2 * G * v + (H + l2) * v * v;

function takeHist(ctx: GrowContext): Float64Array {
  const h = ctx.pool.pop();
  if (h) {
    h.fill(0);
    return h;
  }
  return new Float64Array(ctx.nf * HIST_STRIDE);
}

function buildHist(ctx: GrowContext, node: GrowNode, hist: Float64Array): void {
  const { indices, g, h, gOrd, hOrd, binned, n, nf } = ctx;
  const { start, end } = node;
  for (let k = start; k < end; k++) {
    const i = indices[k];
    gOrd[k] = g[i];
    hOrd[k] = h[i];
  }
  for (let f = 0; f < nf; f++) {
    const off = f * n;
    const hb = f * HIST_STRIDE;
    for (let k = start; k < end; k++) {
      const j = hb + binned[off + indices[k]] * 3;
      hist[j] += gOrd[k];
      hist[j + 1] += hOrd[k];
      hist[j + 2] += 1;
    }
  }
}

/** Gain of a candidate split, -Infinity when it breaks the node's monotonic constraint. */
function splitGain(gL: number, hL: number, gR: number, hR: number, l2: number, lower: number, upper: number, c: number, lossParent: number): number {
  if (c === 0 && lower === -Infinity && upper === Infinity) {
    return lossParent + (gL * gL) / (hL + l2) + (gR * gR) / (hR + l2);
  }
  const vL = clip(-gL / (hL + l2), lower, upper);
  const vR = clip(-gR / (hR + l2), lower, upper);
  if ((c > 0 && vL > vR) || (c < 0 && vL < vR)) return -Infinity;
  return lossParent - nodeLoss(gL, hL, l2, vL) - nodeLoss(gR, hR, l2, vR);
}

function findBestSplit(ctx: GrowContext, node: GrowNode): Split | null {
  const { nf, nBins, cst, s } = ctx;
  const hist = node.hist!;
  const G = node.sumG;
  const H = node.sumH;
  const count = node.end - node.start;
  const l2 = s.l2Regularization;
  const minLeaf = s.minSamplesLeaf;
  const { lower, upper } = node;
  const lossParent = nodeLoss(G, H, l2, node.value);
  let bestGain = s.minGainToSplit;
  let bestF = -1;
  let bestBin = 0;
  let bestMissingLeft = false;
  let bestGL = 0;
  let bestHL = 0;
  let bestCL = 0;

  for (let f = 0; f < nf; f++) {
    const nb = nBins[f];
    const hb = f * HIST_STRIDE;
    const c = cst[f];
    const hasMissing = hist[hb + MISSING_BIN * 3 + 2] > 0;
    if (nb <= 1 && !hasMissing) continue;

    // Missing values (if any) go right; with missing values the last bin splits NaN from the rest.
    let gL = 0;
    let hL = 0;
    let cL = 0;
    const last = hasMissing ? nb - 1 : nb - 2;
    for (let b = 0; b <= last; b++) {
      const o = hb + b * 3;
      gL += hist[o];
      hL += hist[o + 1];
      cL += hist[o + 2];
      if (cL < minLeaf || hL < MIN_HESSIAN_TO_SPLIT) continue;
      const cR = count - cL;
      const hR = H - hL;
      if (cR < minLeaf || hR < MIN_HESSIAN_TO_SPLIT) break;
      const gain = splitGain(gL, hL, G - gL, hR, l2, lower, upper, c, lossParent);
      if (gain > bestGain) {
        bestGain = gain;
        bestF = f;
        bestBin = b;
        // Without missing values in training, NaN follows the bigger child at prediction.
        bestMissingLeft = hasMissing ? false : cL >= cR;
        bestGL = gL;
        bestHL = hL;
        bestCL = cL;
      }
    }
    if (!hasMissing) continue;

    // Missing values go left: accumulate the right side from the top bin down.
    let gR = 0;
    let hR = 0;
    let cR = 0;
    for (let b = nb - 1; b >= 1; b--) {
      const o = hb + b * 3;
      gR += hist[o];
      hR += hist[o + 1];
      cR += hist[o + 2];
      if (cR < minLeaf || hR < MIN_HESSIAN_TO_SPLIT) continue;
      const cL2 = count - cR;
      const hL2 = H - hR;
      if (cL2 < minLeaf || hL2 < MIN_HESSIAN_TO_SPLIT) break;
      const gain = splitGain(G - gR, hL2, gR, hR, l2, lower, upper, c, lossParent);
      if (gain > bestGain) {
        bestGain = gain;
        bestF = f;
        bestBin = b - 1;
        bestMissingLeft = true;
        bestGL = G - gR;
        bestHL = hL2;
        bestCL = cL2;
      }
    }
  }
  if (bestF < 0) return null;
  const gR = G - bestGL;
  const hR = H - bestHL;
  return {
    gain: bestGain, feature: bestF, bin: bestBin, missingLeft: bestMissingLeft,
    gL: bestGL, hL: bestHL, cL: bestCL, gR, hR, cR: count - bestCL,
    vL: clip(-bestGL / (bestHL + l2), lower, upper), vR: clip(-gR / (hR + l2), lower, upper),
  };
}

function canSplit(ctx: GrowContext, node: GrowNode): boolean {
  const { maxDepth, minSamplesLeaf } = ctx.s;
  return (maxDepth === null || node.depth < maxDepth) && node.end - node.start >= 2 * minSamplesLeaf && node.sumH >= 2 * MIN_HESSIAN_TO_SPLIT;
}

/** Stable partition of the node's rows (each child's rows stay ascending); returns the boundary. */
function partition(ctx: GrowContext, node: GrowNode, sp: Split): number {
  const { binned, n, tmp, indices } = ctx;
  const off = sp.feature * n;
  const bin = sp.bin;
  const missingLeft = sp.missingLeft;
  let l = node.start;
  let r = 0;
  for (let k = node.start; k < node.end; k++) {
    const i = indices[k];
    const b = binned[off + i];
    if (b === MISSING_BIN ? missingLeft : b <= bin) indices[l++] = i;
    else tmp[r++] = i;
  }
  indices.set(tmp.subarray(0, r), l);
  return l;
}

/** parent -= child over the slots in use (value bins and the missing bin of each feature). */
function subtractHist(ctx: GrowContext, parent: Float64Array, child: Float64Array): void {
  for (let f = 0; f < ctx.nf; f++) {
    const hb = f * HIST_STRIDE;
    const end = hb + ctx.nBins[f] * 3;
    for (let j = hb; j < end; j++) parent[j] -= child[j];
    const miss = hb + MISSING_BIN * 3;
    parent[miss] -= child[miss];
    parent[miss + 1] -= child[miss + 1];
    parent[miss + 2] -= child[miss + 2];
  }
}

/** Grows one tree on rows ctx.indices[0, m); returns all nodes (ids = array positions). */
function growTree(ctx: GrowContext, m: number): GrowNode[] {
  const { s, indices, g, h } = ctx;
  let G = 0;
  let H = 0;
  for (let k = 0; k < m; k++) {
    G += g[indices[k]];
    H += h[indices[k]];
  }
  const l2 = s.l2Regularization;
  const root: GrowNode = {
    id: 0, start: 0, end: m, sumG: G, sumH: H, value: H + l2 > 0 ? -G / (H + l2) : 0, depth: 0,
    lower: -Infinity, upper: Infinity, hist: null, split: null, left: -1, right: -1,
  };
  const nodes: GrowNode[] = [root];
  const open: GrowNode[] = [];
  const release = (node: GrowNode): void => {
    if (node.hist) ctx.pool.push(node.hist);
    node.hist = null;
  };
  const prepare = (node: GrowNode): void => {
    node.split = findBestSplit(ctx, node);
    if (node.split) open.push(node);
    else release(node);
  };

  if (canSplit(ctx, root)) {
    root.hist = takeHist(ctx);
    buildHist(ctx, root, root.hist);
    prepare(root);
  }
  let leaves = 1;
  const maxLeaves = s.maxLeafNodes ?? Infinity;
  while (open.length > 0 && leaves < maxLeaves) {
    let pick = 0;
    for (let i = 1; i < open.length; i++) {
      const a = open[i];
      const b = open[pick];
      const better = s.growPolicy === 'leafwise'
        ? a.split!.gain > b.split!.gain || (a.split!.gain === b.split!.gain && a.id < b.id)
        : a.depth < b.depth || (a.depth === b.depth && a.id < b.id);
      if (better) pick = i;
    }
    const node = open[pick];
    open.splice(pick, 1);
    const sp = node.split!;

    const l = partition(ctx, node, sp);

    let loL = node.lower;
    let upL = node.upper;
    let loR = node.lower;
    let upR = node.upper;
    const c = ctx.cst[sp.feature];
    if (c !== 0) {
      const mid = (sp.vL + sp.vR) / 2;
      if (c > 0) {
        upL = Math.min(upL, mid);
        loR = Math.max(loR, mid);
      } else {
        loL = Math.max(loL, mid);
        upR = Math.min(upR, mid);
      }
    }
    const left: GrowNode = {
      id: nodes.length, start: node.start, end: l, sumG: sp.gL, sumH: sp.hL, value: clip(sp.vL, loL, upL),
      depth: node.depth + 1, lower: loL, upper: upL, hist: null, split: null, left: -1, right: -1,
    };
    nodes.push(left);
    const right: GrowNode = {
      id: nodes.length, start: l, end: node.end, sumG: sp.gR, sumH: sp.hR, value: clip(sp.vR, loR, upR),
      depth: node.depth + 1, lower: loR, upper: upR, hist: null, split: null, left: -1, right: -1,
    };
    nodes.push(right);
    node.left = left.id;
    node.right = right.id;
    leaves++;

    const parentHist = node.hist!;
    node.hist = null;
    if (leaves >= maxLeaves) {
      ctx.pool.push(parentHist);
      break;
    }
    const splitL = canSplit(ctx, left);
    const splitR = canSplit(ctx, right);
    if (!splitL && !splitR) {
      ctx.pool.push(parentHist);
      continue;
    }
    // Scan the smaller child; the larger one is parent minus smaller (reusing the parent's buffer).
    const small = left.end - left.start <= right.end - right.start ? left : right;
    const large = small === left ? right : left;
    small.hist = takeHist(ctx);
    buildHist(ctx, small, small.hist);
    if (canSplit(ctx, large)) {
      subtractHist(ctx, parentHist, small.hist);
      large.hist = parentHist;
      prepare(large);
    } else {
      ctx.pool.push(parentHist);
    }
    if (canSplit(ctx, small)) prepare(small);
    else release(small);
  }
  for (const node of open) release(node);
  return nodes;
}

// ---------------------------------------------------------------- losses

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

// ---------------------------------------------------------------- predict

interface Compiled {
  feature: Int32Array;
  threshold: Float64Array;
  missingLeft: Uint8Array;
  left: Int32Array;
  right: Int32Array;
  value: Float64Array;
  roots: Int32Array;
}

function compile(model: GbmModel): Compiled {
  const memo = memoTable<Compiled>(model, 'gbm.compiled');
  const cached = memo.get('compiled');
  if (cached && cached.roots.length === model.trees.length) return cached;
  if (model.kind !== 'gbm' || model.version !== GBM_VERSION) throw new Error(`not a version ${GBM_VERSION} GBM model`);
  let total = 0;
  for (const t of model.trees) total += t.feature.length;
  const c: Compiled = {
    feature: new Int32Array(total), threshold: new Float64Array(total), missingLeft: new Uint8Array(total),
    left: new Int32Array(total), right: new Int32Array(total), value: new Float64Array(total), roots: new Int32Array(model.trees.length),
  };
  let off = 0;
  model.trees.forEach((t, ti) => {
    c.roots[ti] = off;
    for (let j = 0; j < t.feature.length; j++) {
      c.feature[off + j] = t.feature[j];
      c.threshold[off + j] = t.threshold[j];
      c.missingLeft[off + j] = t.missingLeft[j];
      c.left[off + j] = t.left[j] + off;
      c.right[off + j] = t.right[j] + off;
      c.value[off + j] = t.value[j];
    }
    off += t.feature.length;
  });
  memo.set('compiled', c);
  return c;
}

function predictCompiled(c: Compiled, base: number, x: ArrayLike<number>): number {
  const { feature, threshold, missingLeft, left, right, value, roots } = c;
  let sum = base;
  for (let t = 0; t < roots.length; t++) {
    let node = roots[t];
    let f = feature[node];
    while (f >= 0) {
      const v = x[f];
      node = (v !== v ? missingLeft[node] === 1 : v <= threshold[node]) ? left[node] : right[node];
      f = feature[node];
    }
    sum += value[node];
  }
  return sum;
}

/** Prediction for one row (NaN = missing). */
export function predictGbm(model: GbmModel, x: ArrayLike<number>): number {
  if (x.length < model.nFeatures) throw new RangeError(`predictGbm: row has ${x.length} features, expected ${model.nFeatures}`);
  return predictCompiled(compile(model), model.baseScore, x);
}

export function predictGbmBatch(model: GbmModel, X: readonly ArrayLike<number>[]): Float64Array {
  const c = compile(model);
  const out = new Float64Array(X.length);
  for (let i = 0; i < X.length; i++) {
    if (X[i].length < model.nFeatures) throw new RangeError(`predictGbmBatch: row ${i} has ${X[i].length} features, expected ${model.nFeatures}`);
    out[i] = predictCompiled(c, model.baseScore, X[i]);
  }
  return out;
}

/** Total split gain per feature (same units as the training objective). */
export function featureImportance(model: GbmModel): number[] {
  const out = new Array<number>(model.nFeatures).fill(0);
  for (const t of model.trees) {
    for (let j = 0; j < t.feature.length; j++) if (t.feature[j] >= 0) out[t.feature[j]] += t.gain[j];
  }
  return out;
}
