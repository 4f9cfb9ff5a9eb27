/**
 * The package the workers receive (engine/package.ts): large arrays of rows travel in slices and come
 * back whole; large typed arrays are not copied per worker but read through views of the shared
 * buffer; everything else comes back equal, but the market values, which the feature index built on
 * the main thread stands for.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SnapshotSource } from '../../src/domain/snapshot-source.js';
import { pack, unpackSource } from '../../src/engine/package.js';
import type { ModelBundle } from '../../src/valuation/bundle.js';
import type { FeatureColumns } from '../../src/valuation/features/columns.js';

const rows = Array.from({ length: 9_001 }, (_, i) => ({ id: `P${i % 50}`, value: i }));
const values = [{ player_id: 'P1', date: '2026-01-01', value_eur: 1e6, club_id: null }];
const source = { asOf: '2026-06-30', dataVersion: 'd', ratingsVersion: 'r', membershipVersion: 'm', world: { transfers: rows, market_values: values } } as unknown as SnapshotSource;
const valueDays = Int32Array.from({ length: 2_000 }, (_, i) => 20_000 + i);
const features = { asOf: '2026-06-30', dataVersion: 'd', valueDays, leagueGames: new Map([['C1|2025', 34]]) } as unknown as FeatureColumns;
const z = Float64Array.from({ length: 5_000 }, (_, i) => (i % 7 === 0 ? NaN : i / 3));
const category = Int32Array.from({ length: 3_000 }, (_, i) => i % 5);
const small = new Float64Array([1.5, 2.5]);
const bundle = { version: 'v', future: { index: { z, category, small, means: [1, 2] }, players: ['P1', 'P2'] } } as unknown as ModelBundle;

test('large typed arrays are views of the shared buffer, equal to the originals; the rest is copied', async () => {
  const pkg = await pack(source, bundle, features);
  assert.equal(pkg.arrays.length, 3);
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
  assert.deepEqual(a.source.world.transfers, rows);
  assert.deepEqual(a.source.world.market_values, [], 'read through the feature index instead');
  assert.equal(a.features.valueDays.buffer, pkg.bytes);
  assert.deepEqual(a.features.valueDays, valueDays);
  assert.deepEqual(a.features.leagueGames, features.leagueGames);
  assert.deepEqual(a.bundle.future, { ...bundle.future, index: { z, category, small, means: [1, 2] } });
});

test('feature columns of another snapshot are refused', async () => {
  await assert.rejects(pack(source, bundle, { ...features, dataVersion: 'other' }), /another snapshot/);
});
