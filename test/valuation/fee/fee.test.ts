import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSnapshot } from '../../../src/domain/snapshot.js';
import { featureIndex } from '../../../src/valuation/features/index.js';
import {
  FEE_FEATURES, ageFloorAt, ageFloorsOf, feeFromFeatures, fitFeeModel, paidTransfers, predictFee, transferFeatures, type FeeSettings,
} from '../../../src/valuation/fee/index.js';
import { clubIds, syntheticWorld } from '../features/synthetic.js';

const world = syntheticWorld({ seed: 5, players: 700 });
const TRAIN_AS_OF = '2019-06-30';
const settings: FeeSettings = { seed: 2, gbm: { maxIter: 200, learningRate: 0.1, minSamplesLeaf: 10 } };
const train = buildSnapshot(world, TRAIN_AS_OF, 'syn');
const artifact = fitFeeModel(train, settings);
const later = buildSnapshot(world, '2024-06-30', 'syn');

test('out of time, the fee model beats a constant on log(fee)', () => {
  const idx = featureIndex(later);
  const test = paidTransfers(later).filter((t) => t.date > TRAIN_AS_OF);
  assert.ok(test.length > 100, `${test.length} test transfers`);
  const y = test.map((t) => Math.log(t.fee_eur!));
  const constant = paidTransfers(train).reduce((s, t) => s + Math.log(t.fee_eur!), 0) / paidTransfers(train).length;
  let mseModel = 0;
  let mseConst = 0;
  let covered = 0;
  test.forEach((t, i) => {
    const out = feeFromFeatures(artifact, transferFeatures(idx, t, artifact.averageBuyer));
    mseModel += (Math.log(out.feeEur) - y[i]) ** 2;
    mseConst += (constant - y[i]) ** 2;
    if (out.lowEur <= t.fee_eur! && t.fee_eur! <= out.highEur) covered++;
  });
  assert.ok(mseModel < 0.3 * mseConst, `model MSE ${mseModel / test.length} vs constant ${mseConst / test.length}`);
  const coverage = covered / test.length;
  assert.ok(coverage > 0.6 && coverage < 0.97, `coverage ${coverage}`);
});

test('fewer contract months never raise the fee, and the contract matters', () => {
  const ids = [...later.players.keys()].slice(0, 40);
  let spread = 0;
  for (const playerId of ids) {
    let prev = { feeEur: 0, lowEur: 0, highEur: 0 };
    let first = NaN;
    for (let months = 0; months <= 60; months += 3) {
      const end = new Date(Date.UTC(2019, 5 + months, 30)).toISOString().slice(0, 10);
      const out = predictFee(artifact, train, { playerId, contractEndDate: end });
      assert.ok(out.feeEur >= prev.feeEur - 1e-6 && out.lowEur >= prev.lowEur - 1e-6 && out.highEur >= prev.highEur - 1e-6, `${playerId} at ${months} months`);
      assert.ok(out.lowEur <= out.feeEur && out.feeEur <= out.highEur);
      // Ending on the as-of date: a free transfer.
      if (months === 0) assert.deepEqual(out, { feeEur: 0, lowEur: 0, highEur: 0 });
      if (months === 3) first = out.feeEur;
      prev = out;
    }
    spread += Math.log(prev.feeEur / first);
  }
  assert.ok(spread / ids.length > 0.3, `a long contract should be worth more than an expiring one (mean log gap ${spread / ids.length})`);
});

test('the buyer moves the fee; an unknown buyer is the typical buyer of players at his value', () => {
  const clubs = clubIds();
  const playerId = [...train.players.keys()][10];
  const rich = predictFee(artifact, train, { playerId, targetClubId: clubs[0] });
  const poor = predictFee(artifact, train, { playerId, targetClubId: clubs[9] });
  const avg = predictFee(artifact, train, { playerId });
  assert.ok(rich.feeEur > poor.feeEur, `${rich.feeEur} > ${poor.feeEur}`);
  assert.ok(Number.isFinite(avg.feeEur) && avg.feeEur > 0);
});

test('deterministic fit and a JSON round trip that predicts the same', () => {
  const again = fitFeeModel(train, settings);
  assert.deepEqual(JSON.parse(JSON.stringify(again)), JSON.parse(JSON.stringify(artifact)));
  const copy = JSON.parse(JSON.stringify(artifact)) as typeof artifact;
  for (const playerId of [...train.players.keys()].slice(0, 20)) {
    assert.deepEqual(predictFee(copy, train, { playerId }), predictFee(artifact, train, { playerId }));
  }
});

test('a stronger seller never lowers the fee', () => {
  const idx = featureIndex(later);
  const rows = paidTransfers(later).filter((t) => t.date > TRAIN_AS_OF).slice(0, 30);
  const at = (x: Float64Array, feature: string, v: number) => {
    const copy = Float64Array.from(x);
    copy[FEE_FEATURES.indexOf(feature as (typeof FEE_FEATURES)[number])] = v;
    return feeFromFeatures(artifact, copy).feeEur;
  };
  for (const t of rows) {
    const x = transferFeatures(idx, t, artifact.averageBuyer);
    for (const [feature, from, to, step] of [['seller_strength', 10, 22, 0.5], ['seller_league_strength', 10, 22, 0.5], ['seller_tier', 1, 5, 1]] as const) {
      let prev = at(x, feature, from);
      for (let v = from + step; v <= to; v += step) {
        const fee = at(x, feature, v);
        // A higher tier number is a weaker league: the fee must not rise with it.
        if (feature === 'seller_tier') assert.ok(fee <= prev + 1e-6, `${t.id} ${feature} ${v}`);
        else assert.ok(fee >= prev - 1e-6, `${t.id} ${feature} ${v}`);
        prev = fee;
      }
    }
  }
});

test('the range is calibrated per band of value, each band at the nominal rate on the calibration year', () => {
  // A larger world and three years held out: enough calibration transfers for three bins of 100.
  const big = buildSnapshot(syntheticWorld({ seed: 6, players: 2200 }), '2024-06-30', 'syn');
  const binned = fitFeeModel(big, { ...settings, calibrationDays: 1095 });
  const r = binned.rangeOffsets;
  assert.ok(r, 'binned offsets');
  assert.ok(binned.stats.calibrationTransfers >= 300, `${binned.stats.calibrationTransfers} calibration transfers`);
  assert.equal(r.offsets.length, 3);
  assert.ok(r.logValueUpper.every((v, i) => i === 0 || v >= r.logValueUpper[i - 1]));
  const c = binned.stats.calibratedCoverage;
  assert.ok(c >= 0.78 && c <= 0.9, `calibrated coverage ${c}`);
  // One offset for all: the artifact falls back to it.
  const single = fitFeeModel(big, { ...settings, calibrationDays: 1095, rangeBins: 1 });
  assert.equal(single.rangeOffsets, null);
  assert.equal(single.rangeOffset, binned.rangeOffset);
});

test('the fee never falls with value, through the mix of the trees with and without date features', () => {
  assert.ok(artifact.centerLong, 'blend is the default');
  const idx = featureIndex(later);
  const li = FEE_FEATURES.indexOf('log_value');
  for (const t of paidTransfers(later).filter((r) => r.date > TRAIN_AS_OF).slice(0, 30)) {
    const x = transferFeatures(idx, t, artifact.averageBuyer);
    let prev = 0;
    for (let v = Math.log(5e5); v <= Math.log(2e8); v += 0.05) {
      x[li] = v;
      const fee = feeFromFeatures(artifact, x).feeEur;
      assert.ok(fee >= prev * (1 - 1e-9), `${t.id} at ${Math.exp(v).toFixed(0)}: ${fee} < ${prev}`);
      prev = fee;
    }
  }
});

test('a player younger than the usual sellers at his value is priced at their age', () => {
  const iv = FEE_FEATURES.indexOf('log_value');
  const ia = FEE_FEATURES.indexOf('age');
  const row = (logValue: number, age: number) => {
    const x = new Float64Array(FEE_FEATURES.length).fill(NaN);
    x[iv] = logValue;
    x[ia] = age;
    return x;
  };
  // 300 cheap transfers of 17-22-year-olds, 300 dear ones of 20-29-year-olds: two bins of 150 each.
  const X = [
    ...Array.from({ length: 300 }, (_, i) => row(14 + (i % 10) / 10, 17 + (i % 6))),
    ...Array.from({ length: 300 }, (_, i) => row(18 + (i % 10) / 10, 20 + (i % 7))),
  ];
  const floors = ageFloorsOf(X);
  assert.equal(floors.age.length, 4);
  assert.equal(floors.age[0], 17);
  assert.equal(floors.age[3], 20);
  // Flat beyond the ends, linear between bins, NaN without a value or floors.
  assert.equal(ageFloorAt(floors, 10), 17);
  assert.equal(ageFloorAt(floors, 25), 20);
  const mid = ageFloorAt(floors, (floors.logValue[1] + floors.logValue[2]) / 2);
  assert.ok(mid > 17 && mid < 20, String(mid));
  assert.ok(Number.isNaN(ageFloorAt(floors, NaN)));
  assert.ok(Number.isNaN(ageFloorAt(null, 18)));

  // On the synthetic world: a 17-year-old worth the most is priced as the floor's age, an older one as himself.
  const snapshot = buildSnapshot(syntheticWorld({ seed: 5, players: 300 }), '2024-06-30', 'floor');
  const model = fitFeeModel(snapshot, { seed: 1 });
  const without = fitFeeModel(snapshot, { seed: 1, ageFloor: false });
  assert.ok(model.ageFloors && without.ageFloors === null);
  const top = Math.max(...model.ageFloors.logValue);
  const floorAge = ageFloorAt(model.ageFloors, top);
  const teen = row(top, 17);
  const atFloor = row(top, floorAge);
  assert.ok(floorAge > 17, `floor ${floorAge}`);
  assert.equal(feeFromFeatures(model, teen).feeEur, feeFromFeatures(model, atFloor).feeEur);
});
