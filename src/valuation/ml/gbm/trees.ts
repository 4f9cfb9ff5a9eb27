/**
 * Growing one tree from gradient histograms: best split per node (monotonic constraints checked at
 * the split, value bounds passed to the children), leaf-wise or depth-wise, the larger child's
 * histogram as the parent's minus the smaller's.
 */
import { HIST_STRIDE as HIST_STRIDE_, MIN_HESSIAN_TO_SPLIT as MIN_HESSIAN_, MISSING_BIN as MISSING_BIN_, type ResolvedGbmSettings } from './settings.js';

// Module-local copies of the constants read in the hot loops: under the TypeScript loader (tests,
// benches) an imported binding is read through a getter on every access (a fifth of a fit's time).
const HIST_STRIDE = HIST_STRIDE_;
const MIN_HESSIAN_TO_SPLIT = MIN_HESSIAN_;
const MISSING_BIN = MISSING_BIN_;

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

export interface GrowNode {
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

export interface GrowContext {
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

export const clip = (v: number, lo: number, hi: number): number => (v < lo ? lo : v > hi ? hi : v);

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
export function growTree(ctx: GrowContext, m: number): GrowNode[] {
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
