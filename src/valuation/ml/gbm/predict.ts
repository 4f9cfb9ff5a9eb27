/** Prediction: the model's trees compiled once into flat arrays (kept per model), walked on raw values. */
import { memoTable } from '../../../domain/memo.js';
import { GBM_VERSION, type CompiledTrees as Compiled, type GbmModel } from './settings.js';

function compile(model: GbmModel): Compiled {
  if (model.compiled) return model.compiled;
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

/**
 * The model as it predicts and no more: its trees compiled into flat arrays, the tree lists, training
 * losses and bin edges left out. What the analysis workers receive (engine/package.ts's workerBundle):
 * the flat arrays are shared between them, where each held its own tree lists on its heap and
 * compiled its own copy of them.
 */
export function compiledForm(model: GbmModel): GbmModel {
  return { ...model, binThresholds: [], trees: [], trainLoss: [], validationLoss: null, compiled: compile(model) };
}

/** Total split gain per feature (same units as the training objective). */
export function featureImportance(model: GbmModel): number[] {
  if (model.compiled && model.trees.length === 0) throw new Error('featureImportance: a compiled form holds no gains (compiledForm)');
  const out = new Array<number>(model.nFeatures).fill(0);
  for (const t of model.trees) {
    for (let j = 0; j < t.feature.length; j++) if (t.feature[j] >= 0) out[t.feature[j]] += t.gain[j];
  }
  return out;
}
