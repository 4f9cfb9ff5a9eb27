/** The GBM's settings, the fitted model's JSON shape and the constants fitting and prediction share. */
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
  /**
   * The trees compiled into flat arrays, when the model comes in its compiled form (compiledForm in
   * predict.ts: the analysis workers', whose trees, losses and bins are then empty); never stored.
   */
  compiled?: CompiledTrees;
}

/** Every tree of a model in flat arrays indexed by node, each tree's nodes from its root on (predict.ts). */
export interface CompiledTrees {
  feature: Int32Array;
  threshold: Float64Array;
  missingLeft: Uint8Array;
  left: Int32Array;
  right: Int32Array;
  value: Float64Array;
  roots: Int32Array;
}

export const GBM_VERSION = 1;
export const MISSING_BIN = 255;
const BIN_SLOTS = 256;
export const HIST_STRIDE = BIN_SLOTS * 3;
export const MIN_HESSIAN_TO_SPLIT = 1e-3;
export const BINNING_SUBSAMPLE = 200_000;
/** Threshold of a split that sends every non-missing value left (JSON has no Infinity). */
export const ALL_VALUES_LEFT = Number.MAX_VALUE;

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
