import { test } from 'node:test';
import assert from 'node:assert/strict';
import { featureImportance, fitGbm, predictGbm, predictGbmBatch, type GbmModel, type GbmSettings } from '../../../src/valuation/ml/gbm.js';
import { createRng } from '../../../src/domain/random.js';
import { intervalCoverage, r2, rootMeanSquaredError } from '../../../src/valuation/ml/metrics.js';

interface Data {
  X: number[][];
  y: number[];
}

function make(n: number, nf: number, seed: number, f: (x: number[], noise: () => number) => number): Data {
  const r = createRng(seed);
  const X: number[][] = [];
  const y: number[] = [];
  for (let i = 0; i < n; i++) {
    const x = Array.from({ length: nf }, () => r.uniform() * 4 - 2);
    X.push(x);
    y.push(f(x, () => r.normal()));
  }
  return { X, y };
}

const split = (d: Data, nTrain: number): [Data, Data] => [
  { X: d.X.slice(0, nTrain), y: d.y.slice(0, nTrain) },
  { X: d.X.slice(nTrain), y: d.y.slice(nTrain) },
];

const FAST: GbmSettings = { maxIter: 120, learningRate: 0.15, maxLeafNodes: 15, seed: 1 };

test('recovers y = 3 x1 - 2 x2^2 + noise and beats a constant', () => {
  const [train, held] = split(make(3000, 4, 11, (x, e) => 3 * x[0] - 2 * x[1] * x[1] + 0.3 * e()), 2400);
  const model = fitGbm(train.X, train.y, FAST);
  const pred = predictGbmBatch(model, held.X);
  const score = r2(held.y, pred);
  assert.ok(score > 0.9, `held-out R2 ${score}`);
  const mean = train.y.reduce((a, b) => a + b, 0) / train.y.length;
  const constRmse = rootMeanSquaredError(held.y, held.y.map(() => mean));
  assert.ok(rootMeanSquaredError(held.y, pred) < 0.3 * constRmse);
  // Training loss falls; single-row prediction agrees with the batch one.
  assert.ok(model.trainLoss[model.trainLoss.length - 1] < 0.1 * model.trainLoss[0]);
  assert.equal(predictGbm(model, held.X[7]), pred[7]);
  // The irrelevant features get little of the gain.
  const imp = featureImportance(model);
  assert.ok(imp[0] > 5 * (imp[2] + imp[3]) && imp[1] > 5 * (imp[2] + imp[3]), `importance ${imp}`);
});

test('missing values get a learned direction', () => {
  // Missing x2 means a high target: the NaN bin must split off and go the right way.
  const r = createRng(3);
  const d = make(3000, 3, 5, () => 0);
  for (let i = 0; i < d.X.length; i++) {
    const missing = r.uniform() < 0.3;
    if (missing) d.X[i][1] = NaN;
    d.y[i] = 2 * d.X[i][0] + (missing ? 6 : d.X[i][1]) + 0.2 * r.normal();
  }
  const [train, held] = split(d, 2400);
  const model = fitGbm(train.X, train.y, FAST);
  const pred = predictGbmBatch(model, held.X);
  assert.ok(r2(held.y, pred) > 0.95, `R2 ${r2(held.y, pred)}`);
  const nanRows = held.X.map((x, i) => i).filter((i) => Number.isNaN(held.X[i][1]));
  assert.ok(nanRows.length > 100);
  const err = nanRows.reduce((s, i) => s + Math.abs(pred[i] - held.y[i]), 0) / nanRows.length;
  assert.ok(err < 0.5, `mean abs error on NaN rows ${err}`);
  // A feature never missing in training still accepts NaN at prediction.
  assert.ok(Number.isFinite(predictGbm(model, [NaN, NaN, NaN])));
});

test('quantile models at 0.1 and 0.9 cover about 80% on heteroscedastic data', () => {
  const [train, held] = split(make(5000, 2, 21, (x, e) => 2 * x[0] + (0.2 + Math.abs(x[0])) * e()), 3000);
  const settings: GbmSettings = { loss: 'quantile', maxIter: 100, learningRate: 0.1, maxLeafNodes: 7, minSamplesLeaf: 50, seed: 1 };
  const lo = fitGbm(train.X, train.y, { ...settings, quantile: 0.1 });
  const hi = fitGbm(train.X, train.y, { ...settings, quantile: 0.9 });
  const pl = predictGbmBatch(lo, held.X);
  const ph = predictGbmBatch(hi, held.X);
  const cov = intervalCoverage(held.y, pl, ph);
  assert.ok(cov > 0.75 && cov < 0.85, `coverage ${cov}`);
  const belowLo = held.y.filter((v, i) => v < pl[i]).length / held.y.length;
  assert.ok(belowLo > 0.06 && belowLo < 0.14, `share below the 0.1 quantile ${belowLo}`);
  // The range is wider where the noise is larger.
  const width = (x0: number): number => predictGbm(hi, [x0, 0]) - predictGbm(lo, [x0, 0]);
  assert.ok(width(1.8) > 2.5 * width(0), `widths ${width(1.8)} vs ${width(0)}`);
});

function violations(model: GbmModel, feature: number, sign: number, nf: number, seed: number): number {
  const r = createRng(seed);
  let bad = 0;
  for (let t = 0; t < 200; t++) {
    const x = Array.from({ length: nf }, () => (r.uniform() < 0.05 ? NaN : r.uniform() * 5 - 2.5));
    const grid = Array.from({ length: 30 }, () => r.uniform() * 5 - 2.5).sort((a, b) => a - b);
    let prev = -Infinity * sign;
    for (const v of grid) {
      x[feature] = v;
      const p = predictGbm(model, x);
      if (sign > 0 ? p < prev : p > prev) bad++;
      prev = p;
    }
  }
  return bad;
}

test('monotonic constraints hold on random inputs', () => {
  // The truth wiggles against both constraints.
  const d = make(2000, 4, 8, (x, e) => Math.sin(3 * x[0]) + x[0] - 2 * x[1] + Math.cos(4 * x[2]) + x[3] * x[3] + 0.3 * e());
  const free = fitGbm(d.X, d.y, FAST);
  assert.ok(violations(free, 0, 1, 4, 99) > 0, 'unconstrained model should break monotonicity here');
  assert.ok(violations(free, 2, -1, 4, 99) > 0);
  for (const growPolicy of ['leafwise', 'depthwise'] as const) {
    const model = fitGbm(d.X, d.y, { ...FAST, growPolicy, maxDepth: growPolicy === 'depthwise' ? 5 : null, monotonicConstraints: [1, -1, -1, 0] });
    assert.equal(violations(model, 0, 1, 4, 99), 0);
    assert.equal(violations(model, 1, -1, 4, 98), 0);
    assert.equal(violations(model, 2, -1, 4, 97), 0);
    // Still learns the unconstrained part.
    assert.ok(r2(d.y, predictGbmBatch(model, d.X)) > 0.7);
  }
  for (const quantile of [0.1, 0.9]) {
    const q = fitGbm(d.X, d.y, { ...FAST, loss: 'quantile', quantile, subsample: 0.8, monotonicConstraints: [1, -1, -1, 0] });
    assert.equal(violations(q, 0, 1, 4, 96), 0);
    assert.equal(violations(q, 2, -1, 4, 95), 0);
  }
});

test('same seed gives the same model; JSON round trip predicts identically', () => {
  const d = make(1500, 3, 4, (x, e) => x[0] * x[1] + x[2] + 0.5 * e());
  d.X[3][1] = NaN;
  d.X[40][2] = NaN;
  const settings: GbmSettings = { ...FAST, subsample: 0.7, earlyStopping: true, validationFraction: 0.2, seed: 5 };
  const a = fitGbm(d.X, d.y, settings);
  const b = fitGbm(d.X, d.y, settings);
  assert.equal(JSON.stringify(a), JSON.stringify(b));
  const c = fitGbm(d.X, d.y, { ...settings, seed: 6 });
  assert.notEqual(JSON.stringify(a), JSON.stringify(c));

  const copy = JSON.parse(JSON.stringify(a)) as GbmModel;
  const probe = [...d.X.slice(0, 200), [NaN, 0.5, -1], [NaN, NaN, NaN], [1e9, -1e9, 0]];
  assert.deepEqual(predictGbmBatch(copy, probe), predictGbmBatch(a, probe));
});

test('early stopping halts on noise and keeps the best iteration', () => {
  const d = make(1500, 3, 6, (x, e) => x[0] + 2 * e());
  const model = fitGbm(d.X, d.y, { maxIter: 500, learningRate: 0.3, earlyStopping: true, nIterNoChange: 5, seed: 2 });
  assert.ok(model.trees.length >= 1 && model.trees.length < 100, `kept ${model.trees.length} trees`);
  const v = model.validationLoss!;
  const best = Math.min(...v);
  assert.equal(v[model.trees.length], best);
  assert.ok(best < v[0]);
  assert.equal(v.length, model.trees.length + 6);
  assert.equal(model.trainLoss.length, model.trees.length + 1);
});

test('tree size limits, weights and settings validation', () => {
  const d = make(2000, 3, 9, (x, e) => Math.sin(2 * x[0]) + x[1] + 0.1 * e());
  const deep = fitGbm(d.X, d.y, { maxIter: 5, growPolicy: 'depthwise', maxDepth: 3, maxLeafNodes: null, minSamplesLeaf: 5 });
  for (const t of deep.trees) {
    const depth = (node: number): number => (t.feature[node] < 0 ? 0 : 1 + Math.max(depth(t.left[node]), depth(t.right[node])));
    assert.ok(depth(0) <= 3);
    assert.equal(t.feature.filter((f) => f < 0).length, 8);
  }
  const leafy = fitGbm(d.X, d.y, { maxIter: 5, maxLeafNodes: 7, minSamplesLeaf: 5 });
  for (const t of leafy.trees) assert.equal(t.feature.filter((f) => f < 0).length, 7);

  // Zero-weight rows say y = 10; the model must ignore them.
  const X = [...d.X, ...d.X];
  const y = [...d.y.map(() => 0), ...d.y.map(() => 10)];
  const w = [...d.y.map(() => 1), ...d.y.map(() => 0)];
  const weighted = fitGbm(X, y, { maxIter: 10 }, w);
  assert.ok(Math.abs(predictGbm(weighted, d.X[0])) < 1e-9);

  assert.throws(() => fitGbm(d.X, d.y, { loss: 'quantile' }), /quantile/);
  assert.throws(() => fitGbm(d.X, d.y, { monotonicConstraints: [1] }), /monotonicConstraints/);
  assert.throws(() => fitGbm(d.X, d.y, { maxBins: 300 }), /maxBins/);
  assert.throws(() => fitGbm([[1], [Infinity]], [1, 2], {}), /infinite/);
});
