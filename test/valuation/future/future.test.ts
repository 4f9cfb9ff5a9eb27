import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSnapshot } from '../../../src/domain/snapshot.js';
import { trainBundle } from '../../../src/valuation/bundle.js';
import { CATEGORY_NAMES, categoryOf, fitFutureModel, overThirtyDuring, predictFuture } from '../../../src/valuation/future/index.js';
import { fitRatingModel } from '../../../src/valuation/rating/index.js';
import { clubIds, PLANTED_PREFIX, QUERY_PLAYER, syntheticWorld } from '../features/synthetic.js';

const world = syntheticWorld({ seed: 12, players: 300, planted: 12 });
const AS_OF = '2020-06-30';
const snap = buildSnapshot(world, AS_OF, 'syn');
const rating = fitRatingModel(snap, { seed: 1 });
const future = fitFutureModel(snap, rating, { k: 30 });
const clubs = clubIds();

test('categories follow the ratio thresholds, most optimistic first', () => {
  assert.equal(CATEGORY_NAMES[categoryOf(3)], 'Elite Prospect');
  assert.equal(CATEGORY_NAMES[categoryOf(2)], 'Excellent Opportunity');
  assert.equal(CATEGORY_NAMES[categoryOf(1.2)], 'Steady Grower');
  assert.equal(CATEGORY_NAMES[categoryOf(1)], 'Stable Value');
  assert.equal(CATEGORY_NAMES[categoryOf(0.6)], 'Decline');
  assert.equal(CATEGORY_NAMES[categoryOf(0.2)], 'Major decline');
});

test('only seasons whose 3-year outcome is known by the as-of date are comparables', () => {
  assert.ok(future.stats.comparables > 500);
  for (const row of future.index.rows) assert.ok(`${row.payload.s + 3}-06-30` <= AS_OF, `season ${row.payload.s}`);
});

test('finds the planted comparables and their outcome', () => {
  const out = predictFuture(future, rating, snap, { playerId: QUERY_PLAYER, clubId: clubs[8] });
  const planted = out.similarPlayers.filter((p) => p.player_id.startsWith(PLANTED_PREFIX)).length;
  assert.equal(out.similarPlayers.length, 10);
  assert.ok(planted >= 9, `${planted} of 10 similar players are planted`);
  assert.equal(out.valueCategory, 'Elite Prospect');
  assert.ok(out.futureValueEur > 2 * out.baselineValueEur);
  assert.equal(out.overThirty, false);
  const first = out.similarPlayers[0];
  assert.match(first.season, /^\d{4}\/\d{4}$/);
  assert.equal(first.position, 'ST');
  assert.ok(first.later_transfer_value > first.initial_value && first.initial_potential >= first.initial_rating);
  assert.ok(first.best_role.length > 0 && first.name.length > 0);
});

test('probabilities sum to 1 with none exactly 0; the category is the most probable', () => {
  for (const p of [...snap.players.values()].slice(0, 40)) {
    const out = predictFuture(future, rating, snap, { playerId: p.id, clubId: clubs[2] });
    const probs = CATEGORY_NAMES.map((c) => out.probabilities[c]);
    assert.ok(Math.abs(probs.reduce((a, b) => a + b, 0) - 1) < 1e-9);
    assert.ok(probs.every((x) => x > 0 && x < 1));
    assert.equal(out.probabilities[out.valueCategory], Math.max(...probs));
    assert.ok(out.sampleSize > 0 && out.sampleSize <= 30);
    assert.ok(out.lowEur <= out.futureValueEur && out.futureValueEur <= out.highEur);
  }
});

test('over-30 flag and its separate comparables', () => {
  assert.equal(overThirtyDuring(26.9), false);
  assert.equal(overThirtyDuring(27.1), true);
  const older = [...snap.players.values()].find((p) => p.birth_date! < '1985-01-01')!;
  const out = predictFuture(future, rating, snap, { playerId: older.id, clubId: clubs[1] });
  assert.equal(out.overThirty, true);
  for (const s of out.similarPlayers) assert.ok(s.age + 1 + 3 > 30, `comparable aged ${s.age}`);
  const young = predictFuture(future, rating, snap, { playerId: QUERY_PLAYER, clubId: clubs[1] });
  for (const s of young.similarPlayers) assert.ok(s.age <= 27, `comparable aged ${s.age}`);
});

test('the baseline scales the future value; the club moves the comparables', () => {
  const a = predictFuture(future, rating, snap, { playerId: QUERY_PLAYER, clubId: clubs[8], baselineValueEur: 1_000_000 });
  const b = predictFuture(future, rating, snap, { playerId: QUERY_PLAYER, clubId: clubs[8], baselineValueEur: 2_000_000 });
  assert.ok(Math.abs(b.futureValueEur / a.futureValueEur - 2) < 1e-9);
  const p = [...snap.players.values()][5].id;
  const rich = predictFuture(future, rating, snap, { playerId: p, clubId: clubs[0] });
  const poor = predictFuture(future, rating, snap, { playerId: p, clubId: clubs[9] });
  assert.notDeepEqual(rich.similarPlayers.map((s) => s.player_id), poor.similarPlayers.map((s) => s.player_id));
});

test('bundle: deterministic version and models, JSON round trip predicts the same', () => {
  const big = buildSnapshot(syntheticWorld({ seed: 12, players: 400, planted: 12 }), AS_OF, 'syn');
  const settings = { seed: 3, fee: { gbm: { maxIter: 100 } }, rating: { gbm: { maxIter: 100 } } };
  const b1 = trainBundle(big, settings);
  const b2 = trainBundle(big, settings);
  assert.equal(b1.version, b2.version);
  assert.match(b1.version, /^syn@2020-06-30#[0-9a-f]{10}$/);
  const strip = (b: typeof b1) => JSON.stringify({ ...b, stats: { ...b.stats, fitMs: null } });
  assert.equal(strip(b1), strip(b2));
  const copy = JSON.parse(JSON.stringify(b1)) as typeof b1;
  const input = { playerId: QUERY_PLAYER, clubId: clubs[3] };
  assert.deepEqual(predictFuture(copy.future, copy.rating, big, input), predictFuture(b1.future, b1.rating, big, input));
  assert.notEqual(trainBundle(big, { ...settings, seed: 4 }).version, b1.version);
});
