/**
 * Speed of the learning code: GBM fit (10k rows x 12 features x 300 trees), GBM prediction
 * latency, kNN query latency over 100k rows. Run: node --import tsx bench/ml.ts
 */
import { fitGbm, predictGbm, predictGbmBatch } from '../src/valuation/ml/gbm.js';
import { buildIndex, nearest, type CategoryMode, type KnnRow } from '../src/valuation/ml/knn.js';
import { r2 } from '../src/valuation/ml/metrics.js';
import { createRng } from '../src/domain/random.js';

const quantile = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const fmt = (x: number, digits = 1): string => x.toFixed(digits);

function gbmBench(): void {
  const rng = createRng(2024);
  const nf = 12;
  const make = (n: number): { X: Float64Array[]; y: Float64Array } => {
    const X: Float64Array[] = [];
    const y = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const x = new Float64Array(nf);
      for (let j = 0; j < nf; j++) x[j] = rng.normal();
      if (rng.uniform() < 0.05) x[5] = NaN;
      X.push(x);
      y[i] = 3 * x[0] - 2 * x[1] * x[1] + Math.sin(2 * x[2]) + x[3] * x[4] + (Number.isNaN(x[5]) ? 1 : x[5]) + 0.5 * rng.normal();
    }
    return { X, y };
  };
  const train = make(10_000);
  const test = make(2_000);

  const warm = make(2_000);
  fitGbm(warm.X, warm.y, { maxIter: 20, seed: 1 });

  for (const [label, settings] of [
    ['squared error, 31 leaves', { maxIter: 300, seed: 1 }],
    ['quantile 0.9, 31 leaves', { maxIter: 300, seed: 1, loss: 'quantile', quantile: 0.9 }],
    ['squared error, monotone x0, subsample 0.8', { maxIter: 300, seed: 1, subsample: 0.8, monotonicConstraints: [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] }],
  ] as const) {
    const t0 = performance.now();
    const model = fitGbm(train.X, train.y, settings);
    const fitMs = performance.now() - t0;
    const pred = predictGbmBatch(model, test.X);
    const nodes = model.trees.reduce((s, t) => s + t.feature.length, 0);
    console.log(`gbm fit ${label}: 10000 rows x 12 features x ${model.trees.length} trees in ${fmt(fitMs, 0)} ms (${nodes} nodes, held-out R2 ${fmt(r2(test.y, pred), 3)})`);
    if (label.startsWith('squared error, 31')) {
      // Per-row latency: time blocks of 100 calls to stay above the timer resolution.
      predictGbmBatch(model, test.X);
      const per: number[] = [];
      let sink = 0;
      for (let b = 0; b < 200; b++) {
        const t = performance.now();
        for (let i = 0; i < 100; i++) sink += predictGbm(model, test.X[(b * 100 + i) % test.X.length]);
        per.push(((performance.now() - t) * 1000) / 100);
      }
      per.sort((a, b) => a - b);
      const tb = performance.now();
      predictGbmBatch(model, test.X);
      const batchUs = ((performance.now() - tb) * 1000) / test.X.length;
      console.log(`gbm predict one row (300 trees): p50 ${fmt(per[100], 2)} us, p95 ${fmt(quantile(per, 0.95), 2)} us; batch ${fmt(batchUs, 2)} us/row${sink === 0 ? ' ' : ''}`);
    }
  }
}

function knnBench(): void {
  const rng = createRng(7);
  const groups = ['GK', 'DEF', 'MID', 'FWD'];
  const rows: KnnRow<number>[] = [];
  for (let i = 0; i < 100_000; i++) {
    rows.push({
      features: [40 + 30 * rng.uniform(), 40 + 40 * rng.uniform(), 16 + 22 * rng.uniform(), rng.normal(1500, 150), rng.uniform() < 0.03 ? NaN : rng.uniform() * 3000, rng.normal()],
      category: groups[rng.int(0, 3)],
      payload: i,
    });
  }
  const weights = [2, 1.5, 1, 0.5, 0.5, 0.25];
  for (const mode of ['exact', 'penalty', 'ignore'] as CategoryMode[]) {
    const tb = performance.now();
    const index = buildIndex(rows, { weights, categoryMode: mode, categoryPenalty: 1 });
    nearest(index, { features: rows[0].features, category: 'MID' }, 20);
    const buildMs = performance.now() - tb;
    const times: number[] = [];
    for (let q = 0; q < 300; q++) {
      const src = rows[rng.int(0, rows.length - 1)];
      const query = { features: src.features.map((v, j) => (Number.isNaN(v) ? v : v * (1 + 0.05 * rng.normal()) + 0.01 * j)), category: src.category };
      const t = performance.now();
      nearest(index, query, 20);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    console.log(`knn ${mode}: 100000 rows x 6 features, k=20: p50 ${fmt(quantile(times, 0.5), 2)} ms, p95 ${fmt(quantile(times, 0.95), 2)} ms (build + first query ${fmt(buildMs, 0)} ms)`);
  }
}

gbmBench();
knnBench();
