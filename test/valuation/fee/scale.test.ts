import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSnapshot } from '../../../src/domain/snapshot.js';
import type { WorldData } from '../../../src/domain/world.js';
import { fitFeeModel, paidTransfers, predictFee, type FeeSettings } from '../../../src/valuation/fee/index.js';
import { syntheticWorld } from '../features/synthetic.js';

// The synthetic fees follow the value (fee = value x buyer x contract x noise), as real fees do.
const TRAIN_AS_OF = '2019-06-30';
const settings: FeeSettings = { seed: 2, gbm: { maxIter: 200, learningRate: 0.1, minSamplesLeaf: 10 } };

/** The world plus copies of one player whose every market value is multiplied by each factor. */
function withScaledCopies(world: WorldData, source: string, factors: number[]): { world: WorldData; ids: string[] } {
  const ids = factors.map((_, i) => `PSCALED${String(i).padStart(20, '0')}`);
  const copy: WorldData = { ...world, players: [...world.players], career_steps: [...world.career_steps], contracts: [...world.contracts], market_values: [...world.market_values] };
  factors.forEach((k, i) => {
    const id = ids[i];
    copy.players.push({ ...world.players.find((p) => p.id === source)!, id });
    for (const c of world.career_steps.filter((r) => r.player_id === source)) copy.career_steps.push({ ...c, player_id: id });
    for (const c of world.contracts.filter((r) => r.player_id === source)) copy.contracts.push({ ...c, player_id: id });
    for (const v of world.market_values.filter((r) => r.player_id === source)) copy.market_values.push({ ...v, player_id: id, value_eur: Math.round(v.value_eur * k) });
  });
  return { world: copy, ids };
}

const base = syntheticWorld({ seed: 5, players: 700 });
// A player who is still at his first club at the training date, with a contract running past it.
const source = base.players.find((p) => {
  const t = base.transfers.find((r) => r.player_id === p.id);
  return t !== undefined && t.date > '2021-01-01';
})!.id;
const maxTrainingFee = Math.max(...paidTransfers(buildSnapshot(base, TRAIN_AS_OF, 'syn')).map((t) => t.fee_eur!));
const sourceValue = base.market_values.filter((v) => v.player_id === source && v.date <= TRAIN_AS_OF).at(-1)!.value_eur;
// Five copies from his own value up to 20 times the largest training fee, each step the same factor.
const step = ((20 * maxTrainingFee) / sourceValue) ** (1 / 4);
const { world, ids } = withScaledCopies(base, source, [1, step, step ** 2, step ** 3, step ** 4]);
const train = buildSnapshot(world, TRAIN_AS_OF, 'syn');

test('the fee scales with value past the largest training fee', () => {
  const artifact = fitFeeModel(train, settings);
  const fees = ids.map((playerId) => predictFee(artifact, train, { playerId }).feeEur);
  for (let i = 1; i < fees.length; i++) assert.ok(fees[i] >= fees[i - 1], `monotone in value: ${fees.join(' ')}`);
  const top = fees[fees.length - 1];
  assert.ok(top > 3 * maxTrainingFee, `the most valuable copy gets ${top}, the largest training fee was ${maxTrainingFee}`);
  // Away from the training range the fee follows the value step for step.
  const lastStep = fees[fees.length - 1] / fees[fees.length - 2];
  assert.ok(lastStep > 0.8 * step && lastStep < 1.25 * step, `fee ratio ${lastStep} over the last value step ${step}`);
});

test('trees on log(fee) alone stop at their largest leaf (why the model has a base)', () => {
  const artifact = fitFeeModel(train, { ...settings, base: 'none', center: 'mean', unknownBuyer: 'overall' });
  const top = predictFee(artifact, train, { playerId: ids[ids.length - 1] }).feeEur;
  assert.ok(top <= 1.01 * maxTrainingFee, `${top} vs largest training fee ${maxTrainingFee}`);
});
