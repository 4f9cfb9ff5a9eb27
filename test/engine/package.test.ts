/**
 * The package the workers receive (engine/package.ts): large arrays of rows travel in slices and come
 * back whole; large typed arrays are not copied per worker but read through views of the shared
 * buffer; everything else comes back equal. The rows sent are those the workers read (workerRows).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SnapshotSource } from '../../src/domain/snapshot-source.js';
import { pack, unpackSource, workerBundle, workerRows } from '../../src/engine/package.js';
import { fitGbm, predictGbm, type GbmModel } from '../../src/valuation/ml/gbm.js';
import { createRng } from '../../src/domain/random.js';
import { buildSnapshot } from '../../src/domain/snapshot.js';
import { snapshotOf } from '../../src/domain/snapshot-source.js';
import type { PlayerRow, RatingRow, WorldData } from '../../src/domain/world.js';
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
  assert.equal(pkg.arrays.length, 3, 'the small array is serialised, not shared');
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
    assert.deepEqual(index(x).means, [1, 2]);
  }
  // two workers' views read the same memory
  assert.notEqual(index(a).z, index(b).z);
  assert.equal(index(a).z.buffer, index(b).z.buffer);
  assert.deepEqual(a.source.world.transfers, rows);
  assert.deepEqual(a.source.world.market_values, values);
  assert.equal(a.features.valueDays.buffer, pkg.bytes);
  assert.deepEqual(a.features.valueDays, valueDays);
  assert.deepEqual(a.features.leagueGames, features.leagueGames);
  assert.deepEqual(a.bundle.future, { ...bundle.future, index: { z, category, small, means: [1, 2] } });
});

test("the world's rows travel as JSON, which keeps them as they are; a value JSON would change stops the packing", async () => {
  const world = { players: Array.from({ length: 4_001 }, (_, i) => ({ id: `P${i}`, name: 'Zoë Ørsted', birth_date: i % 2 ? null : '2001-02-03', analysis_available: i % 3 === 0, height_cm: 180.5 })) };
  const withWorld = (w: object) => ({ ...source, world: w }) as unknown as SnapshotSource;
  const pkg = await pack(withWorld(world), bundle, features);
  assert.deepEqual(pkg.parts.filter(([, , encoding]) => encoding === 'json').length, 5, 'five slices of rows (1,000 rows a slice)');
  assert.deepEqual(unpackSource(pkg).source.world, world);
  for (const bad of [NaN, Infinity, undefined, new Date(0)]) {
    const players = [...world.players];
    players[4_000] = { ...players[4_000], height_cm: bad as number };
    await assert.rejects(pack(withWorld({ players }), bundle, features), /pack: a row's height_cm/);
  }
});

test('the models travel compiled: every gradient-boosted model, however deep, predicts the same from flat arrays the workers share', async () => {
  const rng = createRng(7);
  const u = () => rng.uniform();
  const X = Array.from({ length: 600 }, () => [u(), u(), u() < 0.1 ? NaN : u()]);
  const y = X.map(([a, b, c]) => 3 * a - b + (Number.isNaN(c) ? 0.5 : c * c));
  const model = fitGbm(X, y, { maxIter: 80, maxLeafNodes: 15 });
  const models = { version: 'v', fee: { center: model, floor: 1 }, rating: { update: { folds: [model, model] } } } as unknown as ModelBundle;
  const sent = await workerBundle(models);
  assert.equal(model.trees.length, 80, "the main thread's model is left as it is");
  const got = unpackSource(await pack(source, sent, features)).bundle as unknown as { fee: { center: GbmModel; floor: number }; rating: { update: { folds: GbmModel[] } } };
  assert.equal(got.fee.floor, 1);
  for (const m of [got.fee.center, ...got.rating.update.folds]) {
    assert.deepEqual([m.trees.length, m.trainLoss.length, m.binThresholds.length], [0, 0, 0], 'no tree lists, losses or bins');
    assert.ok(m.compiled && m.compiled.threshold.byteLength >= 4096, 'a model this size is shared');
    assert.ok(m.compiled.threshold.buffer instanceof SharedArrayBuffer && m.compiled.feature.buffer instanceof SharedArrayBuffer);
    for (const x of X.slice(0, 50)) assert.equal(predictGbm(m, x), predictGbm(model, x));
  }
});

test('feature columns of another snapshot are refused', async () => {
  await assert.rejects(pack(source, bundle, { ...features, dataVersion: 'other' }), /another snapshot/);
});

test("the workers' rows: no market values or attribute profiles, each player's latest model rating, every external rating, paid permanent moves, this season's leagues and cups", () => {
  const player = (id: string) => ({ id, name: id, analysis_available: true, registry_a_id: null, registry_b_id: null }) as unknown as PlayerRow;
  const rating = (player_id: string, season: number, source = 'model') => ({ player_id, season, rating: season - 2000, potential: 80, best_role: 'x', position: 'CM', source }) as RatingRow;
  const empty = { roles: [], contracts: [], appearances: [] };
  const step = (player_id: string, club_id: string, start_date: string, end_date: string | null, is_loan = false) =>
    ({ player_id, club_id, start_date, end_date, is_loan, parent_club_id: is_loan ? 'C1' : null });
  const club = (id: string) => ({ id, name: id, country: 'X', registry_a_id: null, is_national_team: false });
  const match = (id: string, competition_id: string, season: number, date: string) => ({ id, competition_id, season, date, home_club_id: 'C1', away_club_id: 'C2', home_goals: 1, away_goals: 0 });
  const transfer = (id: string, fee_eur: number | null, is_loan: boolean) => ({ id, player_id: 'P1', date: `2025-0${id}-01`, from_club_id: null, to_club_id: null, fee_eur, market_value_eur: null, is_loan });
  const world = {
    ...empty,
    players: [player('P1'), player('P2'), player('P3')],
    market_values: [{ player_id: 'P1', date: '2025-01-01', value_eur: 1e6, club_id: null }],
    transfers: [transfer('1', 5e6, false), transfer('2', 1e6, true), transfer('3', 0, false), transfer('4', null, false), transfer('5', 2e6, false)],
    competitions: [{ id: 'L1', name: 'League', country: 'X', type: 'DOMESTIC_LEAGUE', tier: 1, registry_a_code: null }, { id: 'CUP', name: 'Cup', country: 'X', type: 'DOMESTIC_CUP', tier: null, registry_a_code: null }],
    clubs: [club('C1'), club('C2')],
    // P1: two past steps, then a loan that runs past the as-of date; P2: a step ended; P3: one that starts after it
    career_steps: [step('P1', 'C1', '2020-07-01', '2023-06-30'), step('P1', 'C2', '2023-07-01', '2025-06-30'), step('P1', 'C2', '2025-07-01', '2027-06-30', true),
      step('P2', 'C1', '2021-07-01', '2024-06-30'), step('P3', 'C1', '2024-07-01', null), step('P3', 'C2', '2026-08-01', null)],
    club_seasons: [2024, 2025].flatMap((season) => ['C1', 'C2'].map((club_id) => ({ club_id, season, competition_id: 'L1' }))),
    matches: [match('M1', 'L1', 2024, '2024-09-01'), match('M2', 'CUP', 2024, '2024-10-01'), match('M3', 'CUP', 2025, '2025-10-01'), match('M4', 'L1', 2025, '2026-03-01')],
    // P2 last rated two seasons back (not analysable); P3's 2027 rating is after the as-of date; an EA edition released later
    player_attributes: [{ player_id: 'P1', season: 2025, source: 'ea', attributes: '{"pace":80}' }],
    ratings: [rating('P1', 2024), rating('P1', 2025), rating('P2', 2023), rating('P3', 2025), rating('P3', 2027), rating('P1', 2025, 'ea'), rating('P1', 2026, 'ea')],
  } as unknown as WorldData;
  const source = { world, asOf: '2026-06-30', dataVersion: 'd', ratingsVersion: 'r1', seasonClubs: [], membershipVersion: 'none' };
  const full = snapshotOf(source);
  const rows = workerRows(full, source);
  assert.deepEqual(rows.world.market_values, []);
  assert.deepEqual(rows.world.player_attributes, []);
  assert.deepEqual(rows.world.ratings.filter((r) => r.source === 'model').map((r) => [r.player_id, r.season]), [['P1', 2025], ['P2', 2023], ['P3', 2025]]);
  const worker = buildSnapshot(rows.world, source.asOf, source.dataVersion, source.ratingsVersion);
  assert.deepEqual([...worker.players.values()].map((p) => p.analysis_available), [...full.players.values()].map((p) => p.analysis_available));
  assert.deepEqual([...worker.ratings].map(([id, list]) => [id, list]), [...full.ratings].map(([id, list]) => [id, list.slice(-1)]));
  assert.deepEqual(worker.externalRatings, full.externalRatings);
  assert.equal(rows.world.career_steps.length, 3, 'one step a player');
  assert.deepEqual([...worker.careers].map(([id, list]) => [id, list]), [...full.careers].map(([id, list]) => [id, list.slice(-1)]));
  assert.deepEqual(worker.careers.get('P1'), [{ ...step('P1', 'C2', '2025-07-01', null, true) }], 'the loan runs on: its end is after the as-of date');
  assert.deepEqual(worker.squads, full.squads);
  assert.deepEqual(worker.laterExternalRatings, full.laterExternalRatings);
  assert.deepEqual(worker.transfersOfPlayer.get('P1')?.map((t) => t.id), ['1', '5']);
  assert.deepEqual(rows.world.matches.map((m) => m.id), ['M3', 'M4']);
  assert.deepEqual(worker.leagueOfClub, full.leagueOfClub);
  assert.deepEqual(worker.clubsOfLeague, full.clubsOfLeague);
  assert.deepEqual(worker.clubsOfCompetition, full.clubsOfCompetition);
  assert.deepEqual(full.clubsOfCompetition.get('CUP'), ['C1', 'C2'], 'the cup has this season\'s participants');
});
