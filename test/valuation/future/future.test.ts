import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSnapshot } from '../../../src/domain/snapshot.js';
import { artifactJson } from '../../../src/data/artifact-files.js';
import { revivedBundle, trainBundle } from '../../../src/valuation/bundle.js';
import {
  CATEGORY_NAMES, DRIVER_FACTORS, VALUE_CATEGORIES, bandMasses, categoryOf, categoryOfValue, fitFutureModel, overThirtyDuring, ownClubOf, predictFuture, roundedDrivers, type FutureOutput,
} from '../../../src/valuation/future/index.js';
import { fitRatingModel } from '../../../src/valuation/rating/index.js';
import { clubIds, PLANTED_PREFIX, QUERY_PLAYER, syntheticWorld } from '../features/synthetic.js';

const world = syntheticWorld({ seed: 12, players: 300, planted: 12 });
const AS_OF = '2020-06-30';
const snap = buildSnapshot(world, AS_OF, 'syn');
const rating = fitRatingModel(snap, { seed: 1 });
// Small leaves: the planted risers are a few dozen rows of the synthetic world.
const future = fitFutureModel(snap, rating, { k: 30, distribution: { location: { minSamplesLeaf: 10 }, scale: { minSamplesLeaf: 20 } } });
const clubs = clubIds();

const probsOf = (out: FutureOutput) => CATEGORY_NAMES.map((c) => out.probabilities[c]);

/** Label, number and masses of one answer agree: the label's band holds the median's ratio and the 50% point. */
function assertConsistent(out: FutureOutput, what: string): void {
  const probs = probsOf(out);
  assert.ok(Math.abs(probs.reduce((a, b) => a + b, 0) - 1) < 1e-9, `${what}: sum ${probs.join(' ')}`);
  assert.ok(probs.every((x) => x >= 0 && x <= 1), what);
  assert.ok(out.lowEur <= out.futureValueEur && out.futureValueEur <= out.highEur, `${what}: range`);
  const k = CATEGORY_NAMES.indexOf(out.valueCategory);
  assert.equal(k, categoryOfValue(out.futureValueEur, out.baselineValueEur), `${what}: label vs number`);
  // The median lies in the label's band, so the mass above it is at most 1/2 and with it at least 1/2.
  const above = probs.slice(0, k).reduce((a, b) => a + b, 0);
  assert.ok(above <= 0.5 + 1e-9 && above + probs[k] >= 0.5 - 1e-9, `${what}: ${above} + ${probs[k]} around the median`);
}

test('bands follow the ratio thresholds, most optimistic first', () => {
  assert.deepEqual(VALUE_CATEGORIES.map((c) => c.minRatio), [2.5, 1.5, 1.1, 0.8, 0.5, 0]);
  const cases: Array<[number, string]> = [
    [3, 'Elite Prospect'], [2.5, 'Elite Prospect'], [2.49, 'Excellent Opportunity'], [1.5, 'Excellent Opportunity'], [1.2, 'Steady Grower'],
    [1.1, 'Steady Grower'], [1, 'Stable Value'], [0.87, 'Stable Value'], [0.88, 'Stable Value'], [0.8, 'Stable Value'], [0.79, 'Decline'],
    [0.5, 'Decline'], [0.49, 'Major decline'], [0, 'Major decline'],
  ];
  for (const [ratio, name] of cases) assert.equal(CATEGORY_NAMES[categoryOf(ratio)], name, `ratio ${ratio}`);
  assert.equal(categoryOfValue(35.8e6, 32e6), CATEGORY_NAMES.indexOf('Steady Grower'));
  assert.equal(categoryOfValue(5, 0), 0);
});

test('band masses of a known distribution: uniform on [0, 3] around a baseline of 1', () => {
  const cdf = (v: number) => Math.min(1, Math.max(0, v / 3));
  const m = bandMasses(cdf, 1);
  const expected = [0.5 / 3, 1 / 3, 0.4 / 3, 0.3 / 3, 0.3 / 3, 0.5 / 3];
  m.forEach((x, i) => assert.ok(Math.abs(x - expected[i]) < 1e-12, `${CATEGORY_NAMES[i]} ${x}`));
});

test('only seasons whose 3-year outcome is known by the as-of date are comparables', () => {
  assert.ok(future.stats.comparables > 500);
  assert.equal(future.comparables.size, future.index.size);
  for (const s of future.comparables.season) assert.ok(`${s + 3}-06-30` <= AS_OF, `season ${s}`);
});

test('learns the planted risers: similar players, a value well above today, Elite Prospect', () => {
  const out = predictFuture(future, rating, snap, { playerId: QUERY_PLAYER, clubId: clubs[8] });
  const planted = out.similarPlayers.filter((p) => p.player_id.startsWith(PLANTED_PREFIX)).length;
  assert.equal(out.similarPlayers.length, 10);
  assert.ok(planted >= 9, `${planted} of 10 similar players are planted`);
  assert.ok(out.futureValueEur > 2 * out.anchorEur, `${out.futureValueEur} vs ${out.anchorEur}`);
  assert.equal(out.valueCategory, CATEGORY_NAMES[categoryOf(out.futureValueEur / out.anchorEur)]);
  assert.equal(out.overThirty, false);
  const first = out.similarPlayers[0];
  assert.match(first.season, /^\d{4}\/\d{4}$/);
  assert.equal(first.position, 'ST');
  assert.ok(first.later_transfer_value > first.initial_value && first.initial_potential >= first.initial_rating);
  assert.ok(first.best_role.length > 0 && first.name.length > 0);
});

test('one distribution: probabilities sum to 1, the range holds the median, the label is the median\'s band', () => {
  const players = [...snap.players.values()].slice(0, 80);
  for (const p of players) {
    for (const baseline of [undefined, 1, 400_000, 2_000_000, 25_000_000]) {
      const out = predictFuture(future, rating, snap, { playerId: p.id, clubId: clubs[2], baselineValueEur: baseline });
      assertConsistent(out, `${p.id} baseline ${baseline}`);
      assert.ok(out.sampleSize > 0 && out.sampleSize <= 30);
    }
  }
});

test('the baseline frames the bands only: the value and its range never move with it', () => {
  const at = (baselineValueEur: number | undefined) => predictFuture(future, rating, snap, { playerId: QUERY_PLAYER, clubId: clubs[8], baselineValueEur });
  const own = at(undefined);
  for (const b of [0, 1_000, 1_000_000, 1e12]) {
    const out = at(b);
    assert.deepEqual([out.futureValueEur, out.lowEur, out.highEur], [own.futureValueEur, own.lowEur, own.highEur]);
  }
  assert.equal(own.baselineValueEur, own.anchorEur);
  // Nothing is below 0, and everything is at least 2.5 times nothing.
  assert.equal(at(0).probabilities['Elite Prospect'], 1);
  assert.equal(at(0).valueCategory, 'Elite Prospect');
  assert.equal(at(1e12).valueCategory, 'Major decline');
  assert.ok(at(1e12).probabilities['Major decline'] > 0.999);
  // A higher baseline moves mass towards the decline bands.
  const rps = (out: FutureOutput) => probsOf(out).reduce((acc, p, i) => acc + p * i, 0);
  assert.ok(rps(at(own.anchorEur * 2)) > rps(own));
});

test('the club he would join moves the comparables', () => {
  const p = [...snap.players.values()][5].id;
  const rich = predictFuture(future, rating, snap, { playerId: p, clubId: clubs[0] });
  const poor = predictFuture(future, rating, snap, { playerId: p, clubId: clubs[9] });
  assert.notDeepEqual(rich.similarPlayers.map((s) => s.player_id), poor.similarPlayers.map((s) => s.player_id));
});

test('over-30 flag, separate comparables and a lower outlook than a riser', () => {
  assert.equal(overThirtyDuring(26.9), false);
  assert.equal(overThirtyDuring(27.1), true);
  const older = [...snap.players.values()].find((p) => p.birth_date! < '1985-01-01')!;
  const out = predictFuture(future, rating, snap, { playerId: older.id, clubId: clubs[1] });
  assert.equal(out.overThirty, true);
  for (const s of out.similarPlayers) assert.ok(s.age + 1 + 3 > 30, `comparable aged ${s.age}`);
  assert.ok(out.futureValueEur < out.anchorEur, `${out.futureValueEur} vs ${out.anchorEur}`);
  const young = predictFuture(future, rating, snap, { playerId: QUERY_PLAYER, clubId: clubs[1] });
  for (const s of young.similarPlayers) assert.ok(s.age <= 27, `comparable aged ${s.age}`);
});

test('bundle: deterministic version and models, JSON round trip predicts the same', () => {
  const big = buildSnapshot(syntheticWorld({ seed: 12, players: 400, planted: 12 }), AS_OF, 'syn');
  const settings = { seed: 3, fee: { gbm: { maxIter: 100 } }, rating: { gbm: { maxIter: 100 } } };
  const b1 = trainBundle(big, settings);
  const b2 = trainBundle(big, settings);
  assert.equal(b1.version, b2.version);
  assert.match(b1.version, /^syn@2020-06-30#[0-9a-f]{10}$/);
  const strip = (b: typeof b1) => artifactJson({ ...b, stats: { ...b.stats, fitMs: null } });
  assert.equal(strip(b1), strip(b2));
  // as a model file holds it (typed arrays as arrays) and as the server reads it back
  const copy = revivedBundle(JSON.parse(artifactJson(b1)) as typeof b1);
  const input = { playerId: QUERY_PLAYER, clubId: clubs[3] };
  assert.deepEqual(predictFuture(copy.future, copy.rating, big, input), predictFuture(b1.future, b1.rating, big, input));
  assert.notEqual(trainBundle(big, { ...settings, seed: 4 }).version, b1.version);
});

test('the spread widens the range around the same median', () => {
  const settings = { k: 30, distribution: { location: { minSamplesLeaf: 10 }, scale: { minSamplesLeaf: 20 } } };
  const narrow = fitFutureModel(snap, rating, { ...settings, distribution: { ...settings.distribution, spread: 1 } });
  assert.equal(narrow.distribution.stats.spread, 1);
  assert.ok(future.distribution.stats.spread > 1);
  for (const p of [...snap.players.values()].slice(0, 30)) {
    const a = predictFuture(narrow, rating, snap, { playerId: p.id, clubId: clubs[3] });
    const b = predictFuture(future, rating, snap, { playerId: p.id, clubId: clubs[3] });
    assert.ok(Math.abs(a.futureValueEur - b.futureValueEur) <= 1e-6 * a.futureValueEur, p.id);
    assert.ok(b.lowEur <= a.lowEur + 1e-6 && b.highEur >= a.highEur - 1e-6, p.id);
    if (a.highEur > a.lowEur) assert.ok(b.highEur / b.lowEur > a.highEur / a.lowEur, p.id);
  }
});

test('drivers: their product times the baseline is the median (unrounded exactly, rounded within 1%)', () => {
  for (const p of [...snap.players.values()].slice(0, 40)) {
    // A baseline like a fee: his value give or take 40%.
    const own = predictFuture(future, rating, snap, { playerId: p.id, clubId: clubs[4] }).anchorEur;
    const baseline = own * (0.6 + (p.id.charCodeAt(p.id.length - 1) % 9) * 0.1);
    const out = predictFuture(future, rating, snap, { playerId: p.id, clubId: clubs[4], baselineValueEur: baseline });
    if (out.futureValueEur === 0) continue;
    const exact = out.drivers.reduce((a, d) => a * d.effect, baseline);
    assert.ok(Math.abs(exact / out.futureValueEur - 1) < 1e-9, `${p.id}: ${exact} vs ${out.futureValueEur}`);
    const shown = roundedDrivers(out.drivers, out.futureValueEur / baseline);
    assert.ok(shown.every((d) => DRIVER_FACTORS.includes(d.factor) && Number(d.effect.toFixed(3)) === d.effect));
    const product = shown.reduce((a, d) => a * d.effect, baseline);
    assert.ok(Math.abs(product / out.futureValueEur - 1) <= 0.01, `${p.id}: rounded ${product} vs ${out.futureValueEur}`);
  }
});

test('a weaker club never raises the value; the club asked about shows in club_level', () => {
  const strength = (c: string) => clubs.indexOf(c);
  let weakerSeen = 0;
  for (const p of [...snap.players.values()].slice(0, 60)) {
    const own = ownClubOf(snap, p.id);
    if (!own || !clubs.includes(own)) continue;
    const home = predictFuture(future, rating, snap, { playerId: p.id, clubId: own, baselineValueEur: 1e6 });
    // Clubs are ordered by quality in the synthetic world: a higher index is weaker.
    for (const c of clubs.filter((x) => strength(x) > strength(own))) {
      const away = predictFuture(future, rating, snap, { playerId: p.id, clubId: c, baselineValueEur: 1e6 });
      assert.ok(away.futureValueEur <= home.futureValueEur * (1 + 1e-9), `${p.id} at ${c}: ${away.futureValueEur} > ${home.futureValueEur}`);
      weakerSeen++;
    }
  }
  assert.ok(weakerSeen > 20, `${weakerSeen} moves down checked`);
});
