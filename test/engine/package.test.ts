/**
 * The package the workers receive (engine/package.ts): large arrays of rows travel in slices and come
 * back whole; large typed arrays are not copied per worker but read through views of the shared
 * buffer; everything else comes back equal.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SnapshotSource } from '../../src/domain/snapshot-source.js';
import { pack, unpackSource } from '../../src/engine/package.js';
import type { ModelBundle } from '../../src/valuation/bundle.js';

const rows = Array.from({ length: 9_001 }, (_, i) => ({ id: `P${i % 50}`, value: i }));
const source = { asOf: '2026-06-30', dataVersion: 'd', ratingsVersion: 'r', membershipVersion: 'm', world: { market_values: rows } } as unknown as SnapshotSource;
const z = Float64Array.from({ length: 5_000 }, (_, i) => (i % 7 === 0 ? NaN : i / 3));
const category = Int32Array.from({ length: 3_000 }, (_, i) => i % 5);
const small = new Float64Array([1.5, 2.5]);
const bundle = { version: 'v', future: { index: { z, category, small, means: [1, 2] }, players: ['P1', 'P2'] } } as unknown as ModelBundle;

test('large typed arrays are views of the shared buffer, equal to the originals; the rest is copied', async () => {
  const pkg = await pack(source, bundle);
  assert.equal(pkg.arrays.length, 2);
  const a = unpackSource(pkg);
  const b = unpackSource(pkg);
  const index = (x: typeof a) => (x.bundle.future as unknown as { index: { z: Float64Array; category: Int32Array; small: Float64Array; means: number[] } }).index;
  for (const x of [a, b]) {
    assert.ok(index(x).z instanceof Float64Array && index(x).category instanceof Int32Array);
    assert.equal(index(x).z.buffer, pkg.bytes, 'a view of the package, not a copy');
    assert.equal(index(x).category.buffer, pkg.bytes);
    assert.deepEqual(index(x).z, z); // NaN included
    assert.deepEqual(index(x).category, category);
    assert.deepEqual(index(x).small, small);
    assert.notEqual(index(x).small.buffer, pkg.bytes, 'a small array is serialised');
    assert.deepEqual(index(x).means, [1, 2]);
  }
  // two workers' views read the same memory
  assert.notEqual(index(a).z, index(b).z);
  assert.equal(index(a).z.buffer, index(b).z.buffer);
  assert.deepEqual(a.source.world.market_values, rows);
  assert.deepEqual(a.bundle.future, { ...bundle.future, index: { z, category, small, means: [1, 2] } });
});
