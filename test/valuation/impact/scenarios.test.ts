import { test } from 'node:test';
import assert from 'node:assert/strict';
import { simulateScenarios } from '../../../src/valuation/impact/scenarios.js';
import { simulateLeague } from '../../helpers/simulate-league.js';

const ids = Array.from({ length: 12 }, (_, i) => `c${String(i).padStart(2, '0')}`);
const attack = ids.map((_, i) => 0.35 - 0.06 * i);
const defence = ids.map((_, i) => 0.3 - 0.05 * i);
// rho: the match model's low-score dependence, so the joint score is what the engines are checked on
const league = { clubIds: ids, intercept: 0.2, homeAdvantage: 0.25, rho: -0.08 };

test('agrees with bench/lib/simulate-league.ts on the expected position (same model, different draws)', () => {
  const fused = simulateScenarios({ ...league, target: 'c05', scenarios: [{ attack, defence }] }, { seed: 11, targetStandardError: 0.02 });
  const full = simulateLeague({ ...league, clubs: ids.map((id, i) => ({ id, attack: attack[i], defence: defence[i] })) }, { seed: 12, runs: 20_000 });
  const o = fused.outcomes[0];
  const f = full.clubs[5];
  assert.ok(o.standardError <= 0.02);
  assert.ok(Math.abs(o.expectedPosition - f.expectedPosition) < 4 * Math.hypot(o.standardError, f.positionStandardError),
    `${o.expectedPosition} vs ${f.expectedPosition}`);
  const mass = o.positionProbabilities.reduce((a, b) => a + b, 0);
  assert.ok(Math.abs(mass - 1) < 1e-9);
  const mean = o.positionProbabilities.reduce((a, p, i) => a + p * (i + 1), 0);
  assert.ok(Math.abs(mean - o.expectedPosition) < 1e-9);
});

test('common random numbers: a stronger target is never ranked worse, place by place in distribution', () => {
  for (const bump of [0.01, 0.05, 0.2]) {
    const a2 = attack.slice(), d2 = defence.slice();
    a2[7] += bump; d2[7] += bump / 2;
    const r = simulateScenarios({ ...league, target: 'c07', scenarios: [{ attack, defence }, { attack: a2, defence: d2 }] }, { seed: 3, runs: 2000 });
    const [base, strong] = r.outcomes;
    assert.ok(strong.expectedPosition <= base.expectedPosition);
    // first-order stochastic dominance: P(place <= p) never falls
    let cb = 0, cs = 0;
    for (let p = 0; p < ids.length; p++) {
      cb += base.positionProbabilities[p];
      cs += strong.positionProbabilities[p];
      assert.ok(cs >= cb - 1e-12);
    }
  }
  // a weaker rival can only help
  const a3 = attack.slice();
  a3[2] -= 0.3;
  const r = simulateScenarios({ ...league, target: 'c07', scenarios: [{ attack, defence }, { attack: a3, defence }] }, { seed: 5, runs: 2000 });
  assert.ok(r.outcomes[1].expectedPosition <= r.outcomes[0].expectedPosition);
});

test('deterministic, independent of the club order, and adaptive runs reach the target', () => {
  const input = { ...league, target: 'c03', scenarios: [{ attack, defence }] };
  const a = simulateScenarios(input, { seed: 9, targetStandardError: 0.05 });
  const b = simulateScenarios(input, { seed: 9, targetStandardError: 0.05 });
  assert.deepEqual(a, b);
  const rev = [...ids.keys()].reverse();
  const c = simulateScenarios({ ...league, clubIds: rev.map((i) => ids[i]), target: 'c03', scenarios: [{ attack: rev.map((i) => attack[i]), defence: rev.map((i) => defence[i]) }] }, { seed: 9, targetStandardError: 0.05 });
  assert.deepEqual(c.outcomes, a.outcomes);
  assert.ok(a.outcomes[0].standardError <= 0.05);
  assert.notDeepEqual(simulateScenarios(input, { seed: 10, targetStandardError: 0.05 }).outcomes, a.outcomes);
  assert.throws(() => simulateScenarios({ ...input, target: 'nobody' }, { seed: 1 }));
});
