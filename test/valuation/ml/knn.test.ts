import { test } from 'node:test';
import assert from 'node:assert/strict';
import { artifactJson } from '../../../src/data/artifact-files.js';
import { buildIndex, nearest, revivedIndex, type KnnIndex, type KnnRow } from '../../../src/valuation/ml/knn.js';
import { createRng } from '../../../src/domain/random.js';

const GROUPS = ['GK', 'DEF', 'MID', 'FWD'];

/** Rows and what each stands for, in the same order (a neighbour is a row number). */
type Named<T> = KnnRow & { payload: T };
const payloadsOf = <T>(rows: readonly Named<T>[], found: readonly { row: number }[]) => found.map((n) => rows[n.row].payload);

function randomRows(n: number, seed: number): Named<string>[] {
  const r = createRng(seed);
  return Array.from({ length: n }, (_, i) => ({
    features: [r.uniform() * 100, 16 + r.uniform() * 20, r.normal(0, 5)],
    category: GROUPS[r.int(0, 3)],
    payload: `r${i}`,
  }));
}

test('planted neighbours come first, in order of distance', () => {
  const rows = randomRows(2000, 1);
  const q = [50, 25, 0];
  // Plant rows at growing offsets, scattered through the index.
  const planted: [number, string][] = [[0.01, 'p1'], [0.03, 'p2'], [0.05, 'p3'], [0.08, 'p4']];
  const positions = [1500, 30, 900, 1999];
  planted.forEach(([eps, name], i) => rows.splice(positions[i], 0, { features: [50 + eps * 30, 25 - eps * 6, eps], category: 'MID', payload: name }));
  const index = buildIndex(rows, { categoryMode: 'ignore' });
  const res = nearest(index, { features: q }, 6);
  assert.deepEqual(payloadsOf(rows, res.slice(0, 4)), ['p1', 'p2', 'p3', 'p4']);
  for (let i = 1; i < res.length; i++) assert.ok(res[i].distance >= res[i - 1].distance);
  // Same answer from a brute-force reference.
  const ref = rows
    .map((r, i) => ({ i, d: r.features.reduce((s, v, j) => s + ((v - q[j]) / index.scales[j]) ** 2, 0) }))
    .sort((a, b) => a.d - b.d || a.i - b.i)
    .slice(0, 6);
  assert.deepEqual(res.map((n) => n.row), ref.map((x) => x.i));
  res.forEach((n, i) => assert.ok(Math.abs(n.distance - Math.sqrt(ref[i].d)) < 1e-9));
});

test('exact category mode only returns the same category; penalty mode prefers it', () => {
  const rows = randomRows(500, 2);
  rows.push({ features: [300, 60, 40], category: 'GK', payload: 'gk-twin' });
  rows.push({ features: [300, 60, 40.5], category: 'FWD', payload: 'fwd-near' });
  const q = { features: [300, 60, 40], category: 'FWD' };
  const exact = nearest(buildIndex(rows, { categoryMode: 'exact' }), q, 10);
  assert.equal(exact.length, 10);
  assert.ok(exact.every((n) => rows[n.row].category === 'FWD'));
  assert.equal(payloadsOf(rows, exact)[0], 'fwd-near');
  assert.deepEqual(nearest(buildIndex(rows, { categoryMode: 'exact' }), { features: [0, 0, 0], category: 'COACH' }, 3), []);

  const ignore = nearest(buildIndex(rows, { categoryMode: 'ignore' }), q, 1);
  assert.equal(payloadsOf(rows, ignore)[0], 'gk-twin');
  const soft = buildIndex(rows, { categoryMode: 'penalty', categoryPenalty: 0.5 });
  const pen = nearest(soft, q, 2);
  assert.deepEqual(payloadsOf(rows, pen), ['fwd-near', 'gk-twin']);
  assert.ok(Math.abs(pen[1].distance - 0.5) < 1e-12);
});

test('ties keep insertion order; filter is applied', () => {
  const rows: Named<number>[] = [];
  for (let i = 0; i < 10; i++) rows.push({ features: [i % 2 === 0 ? 1 : -1, 0], payload: i });
  rows.push({ features: [5, 5], payload: 99 });
  const index = buildIndex(rows, { categoryMode: 'ignore' });
  const res = nearest(index, { features: [0, 0] }, 6);
  assert.deepEqual(payloadsOf(rows, res), [0, 1, 2, 3, 4, 5]);
  const even = nearest(index, { features: [0, 0] }, 3, (r) => rows[r].payload % 2 === 1);
  assert.deepEqual(payloadsOf(rows, even), [1, 3, 5]);
  assert.equal(nearest(index, { features: [0, 0] }, 50).length, 11);
});

test('weights, missing values and JSON round trip', () => {
  const rows: Named<string>[] = [
    { features: [0, 10], payload: 'a' },
    { features: [10, 0], payload: 'b' },
    { features: [NaN, 0], payload: 'c' },
    { features: [5, 5], payload: 'd' },
  ];
  const q = { features: [0, 0] };
  const heavyFirst = buildIndex(rows, { categoryMode: 'ignore', weights: [10, 1], missingPenalty: 100 });
  const heavySecond = buildIndex(rows, { categoryMode: 'ignore', weights: [1, 10], missingPenalty: 100 });
  assert.deepEqual(payloadsOf(rows, nearest(heavyFirst, q, 1)), ['a']);
  assert.deepEqual(payloadsOf(rows, nearest(heavySecond, q, 1)), ['b']);
  // A cheap missing value makes the row with NaN the nearest.
  const cheapMissing = buildIndex(rows, { categoryMode: 'ignore', missingPenalty: 0 });
  assert.deepEqual(payloadsOf(rows, nearest(cheapMissing, q, 1)), ['c']);
  // an artifact's JSON holds the typed arrays as arrays and NaN as null
  const roundTrip = (index: KnnIndex) => revivedIndex(JSON.parse(artifactJson(index)) as KnnIndex);
  const copy = roundTrip(cheapMissing);
  assert.ok(Number.isNaN(copy.z[2 * copy.dim]) && copy.z instanceof Float64Array);
  const big = buildIndex(randomRows(300, 5), { categoryMode: 'penalty' });
  const bigCopy = roundTrip(big);
  const bq = { features: [40, 30, 2], category: 'DEF' };
  assert.deepEqual(nearest(bigCopy, bq, 8), nearest(big, bq, 8));
  assert.deepEqual(nearest(copy, q, 4), nearest(cheapMissing, q, 4));
  const exact = buildIndex(randomRows(300, 6), { categoryMode: 'exact' });
  assert.deepEqual(nearest(roundTrip(exact), bq, 8), nearest(exact, bq, 8));
  assert.throws(() => nearest(big, { features: [1, 2] }, 3));
  assert.throws(() => buildIndex([{ features: [1] }, { features: [1, 2] }]));
});
