import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSnapshot } from '../../../src/domain/snapshot.js';
import { findRole } from '../../../src/domain/roles.js';
import { featureIndex, valueSeriesOf } from '../../../src/valuation/features/index.js';
import { fitRatingModel, growthAhead, rateAll, rateAt } from '../../../src/valuation/rating/index.js';
import { syntheticWorld } from '../features/synthetic.js';

const world = syntheticWorld({ seed: 9, players: 400, eaRatings: true });
const snap = buildSnapshot(world, '2022-06-30', 'syn');
const artifact = fitRatingModel(snap, { seed: 4, gbm: { maxIter: 200, learningRate: 0.1 } });

test('calibrated on the external ratings, it predicts held-out players', () => {
  assert.equal(artifact.target, 'ea');
  assert.ok(artifact.calibration.heldOutPlayers > 50);
  assert.ok(artifact.calibration.heldOutR2 > 0.7, `held-out R2 ${artifact.calibration.heldOutR2}`);
  assert.ok(artifact.calibration.heldOutMae < 3, `held-out MAE ${artifact.calibration.heldOutMae}`);
});

test('rateAll: one model row per player-season with data, potential >= rating, roles fit positions', () => {
  const rows = rateAll(artifact, snap);
  assert.ok(rows.length > 1000);
  const keys = new Set(rows.map((r) => `${r.player_id}|${r.season}`));
  assert.equal(keys.size, rows.length);
  for (const r of rows) {
    assert.equal(r.source, 'model');
    assert.ok(r.rating >= 1 && r.rating <= 99 && r.potential >= r.rating && r.potential <= 99);
    assert.ok(r.season <= snap.currentSeason);
    assert.ok(Number.isInteger(r.rating) && Number.isInteger(r.potential));
    assert.ok((findRole(r.best_role)?.positions as readonly string[]).includes(r.position), `${r.best_role} for ${r.position}`);
  }
});

test('potential converges with age: growth ahead shrinks and is gone after the peak', () => {
  for (const g of ['DEF', 'MID', 'FWD'] as const) {
    assert.ok(growthAhead(artifact, g, 19) > growthAhead(artifact, g, 25), g);
    assert.ok(growthAhead(artifact, g, 25) >= growthAhead(artifact, g, 30), g);
  }
  const idx = featureIndex(snap);
  const young = [...snap.players.values()].filter((p) => p.birth_date! >= '1988-01-01');
  const old = [...snap.players.values()].filter((p) => p.birth_date! <= '1977-01-01');
  const gap = (ps: typeof young, at: string) => {
    const g = ps.map((p) => rateAt(artifact, idx, p.id, at)).map((r) => r.potential - r.rating);
    return g.reduce((a, b) => a + b, 0) / g.length;
  };
  assert.ok(gap(young, '2008-12-31') > gap(old, '2012-12-31') + 1);
});

test('without any rating to calibrate on, the value index is mapped on the reference scale', () => {
  const bare = buildSnapshot(syntheticWorld({ seed: 9, players: 150 }), '2022-06-30', 'syn');
  const a = fitRatingModel(bare, { seed: 4 });
  assert.equal(a.target, 'reference_scale');
  // Over all player-seasons the quantile map reproduces the reference scale.
  const all = rateAll(a, bare);
  const mean = all.reduce((s, r) => s + r.rating, 0) / all.length;
  const sd = Math.sqrt(all.reduce((s, r) => s + (r.rating - mean) ** 2, 0) / all.length);
  assert.ok(Math.abs(mean - 66.3) < 1 && Math.abs(sd - 6.7) < 1, `mean ${mean} sd ${sd}`);
  const rows = all.filter((r) => r.season === 2021);
  // Higher value, higher rating.
  const idx = featureIndex(bare);
  const rated = rows.map((r) => ({ r: r.rating, v: valueSeriesOf(idx, r.player_id)!.values.at(-1)! }));
  rated.sort((x, y) => x.v - y.v);
  assert.ok(rated[rated.length - 1].r > rated[0].r);
});

test('deterministic and JSON-serialisable', () => {
  const again = fitRatingModel(snap, { seed: 4, gbm: { maxIter: 200, learningRate: 0.1 } });
  assert.deepEqual(JSON.parse(JSON.stringify(again)), JSON.parse(JSON.stringify(artifact)));
  const copy = JSON.parse(JSON.stringify(artifact)) as typeof artifact;
  assert.deepEqual(rateAll(copy, snap).slice(0, 200), rateAll(artifact, snap).slice(0, 200));
});

test('the rating as of a date starts from the latest published rating released by then, and never reads a later one', () => {
  const idx = featureIndex(snap);
  const ea = world.ratings.filter((r) => r.source === 'ea' && r.season === 2019);
  assert.ok(ea.length > 100);
  // On the day of its release nothing new is known yet: the published rating itself.
  const onRelease = ea.slice(0, 50).map((r) => ({ r, at: rateAt(artifact, idx, r.player_id, '2019-09-22') }));
  for (const { r, at } of onRelease) {
    assert.equal(at.basis, 'ea');
    assert.equal(at.rating, r.rating);
  }
  // Later the evidence moves it, and the move is learned (cross-validated) to beat the published rating alone.
  const later = ea.slice(0, 50).map((r) => rateAt(artifact, idx, r.player_id, '2020-06-30'));
  assert.ok(later.every((x) => x.basis === 'estimated'));
  const cv = artifact.calibration.update!;
  assert.ok(cv.pairs > 500 && cv.mae < cv.anchorMae, JSON.stringify(cv));
  // Ratings released after the as-of date (here the 2021 and later editions, changed to 99) change no rating as of it.
  const changed = { ...world, ratings: world.ratings.map((r) => (r.source === 'ea' && r.season >= 2021 ? { ...r, rating: 99 } : r)) };
  const snapA = buildSnapshot(world, '2021-06-30', 'syn');
  const snapB = buildSnapshot(changed, '2021-06-30', 'syn');
  const a = fitRatingModel(snapA, { seed: 4, gbm: { maxIter: 100, learningRate: 0.1 } });
  const rowsA = rateAll(a, snapA);
  const rowsB = rateAll(a, snapB);
  assert.deepEqual(rowsA, rowsB);
  assert.ok(rowsA.some((r) => r.season === 2020 && r.basis === 'estimated'));
});
