import { test } from 'node:test';
import assert from 'node:assert/strict';
import { simulateScenarios } from '../../../src/valuation/impact/scenarios.js';
import { simulateTable } from '../../../src/valuation/impact/table.js';
import { simulateLeague } from '../../helpers/simulate-league.js';

// The whole-table simulation behind the league forecast and every squad analysis.
const ids = Array.from({ length: 12 }, (_, i) => `c${String(i).padStart(2, '0')}`);
const attack = ids.map((_, i) => 0.35 - 0.06 * i);
const defence = ids.map((_, i) => 0.3 - 0.05 * i);
const league = { clubIds: ids, intercept: 0.2, homeAdvantage: 0.25, rho: -0.08, attack, defence };

test('every run shares the places out: each place sums to 1 over the clubs, expected positions average (n+1)/2', () => {
  const r = simulateTable(league, { seed: 4, runs: 1000 });
  const n = ids.length;
  assert.equal(r.runs, 1000);
  for (let p = 0; p < n; p++) assert.ok(Math.abs(r.clubs.reduce((a, c) => a + c.positionProbabilities[p], 0) - 1) < 1e-9);
  for (const c of r.clubs) {
    assert.ok(Math.abs(c.positionProbabilities.reduce((a, b) => a + b, 0) - 1) < 1e-9);
    assert.ok(Math.abs(c.positionProbabilities.reduce((a, q, i) => a + q * (i + 1), 0) - c.expectedPosition) < 1e-9);
  }
  assert.ok(Math.abs(r.clubs.reduce((a, c) => a + c.expectedPosition, 0) / n - (n + 1) / 2) < 1e-9);
  // the strongest club first, the weakest last, in expectation
  assert.ok(r.clubs[0].expectedPosition < r.clubs[5].expectedPosition && r.clubs[5].expectedPosition < r.clubs[11].expectedPosition);
});

test('agrees with the one-club simulation of sportive impact (same model, different draws)', () => {
  const t = simulateTable(league, { seed: 11, targetStandardError: 0.02 });
  for (const k of [0, 5, 9]) {
    const o = simulateScenarios({ ...league, target: ids[k], scenarios: [{ attack, defence }] }, { seed: 12, targetStandardError: 0.02 }).outcomes[0];
    const c = t.clubs[k];
    assert.ok(c.standardError <= 0.02);
    assert.ok(Math.abs(o.expectedPosition - c.expectedPosition) < 4 * Math.hypot(o.standardError, c.standardError), `${ids[k]}: ${o.expectedPosition} vs ${c.expectedPosition}`);
  }
});

test('deterministic, independent of the club order, seeded, and adaptive runs reach the target for every club', () => {
  const a = simulateTable(league, { seed: 9 });
  assert.deepEqual(simulateTable(league, { seed: 9 }), a);
  for (const c of a.clubs) assert.ok(c.standardError <= 0.05, `${c.id} ${c.standardError}`);
  const rev = [...ids.keys()].reverse();
  const b = simulateTable({ ...league, clubIds: rev.map((i) => ids[i]), attack: rev.map((i) => attack[i]), defence: rev.map((i) => defence[i]) }, { seed: 9 });
  assert.deepEqual(b.clubs.map((c) => c.id), rev.map((i) => ids[i]));
  assert.deepEqual([...b.clubs].reverse(), a.clubs);
  assert.notDeepEqual(simulateTable(league, { seed: 10 }).clubs, a.clubs);
  assert.throws(() => simulateTable({ ...league, attack: attack.slice(1) }, { seed: 1 }));
  assert.throws(() => simulateTable({ ...league, clubIds: [ids[0], ids[0], ...ids.slice(2)] }, { seed: 1 }));
});

test('common random numbers: a stronger club is never ranked worse, place by place in distribution', () => {
  for (const bump of [0.01, 0.05, 0.2]) {
    const a2 = attack.slice(), d2 = defence.slice();
    a2[7] += bump; d2[7] += bump / 2;
    const base = simulateTable(league, { seed: 3, runs: 2000 }).clubs[7];
    const strong = simulateTable({ ...league, attack: a2, defence: d2 }, { seed: 3, runs: 2000 }).clubs[7];
    let cb = 0, cs = 0;
    for (let p = 0; p < ids.length; p++) {
      cb += base.positionProbabilities[p];
      cs += strong.positionProbabilities[p];
      assert.ok(cs >= cb - 1e-12);
    }
  }
});

test('with a goal ceiling every engine plays the bent rates: it agrees with the reference and moves the table', () => {
  // a league with one club far above the rest, where the ceiling bites
  const strong = { ...league, attack: attack.map((x, i) => (i === 0 ? x + 1 : x)), defence: defence.map((x, i) => (i === 0 ? x + 0.6 : x)) };
  const ceiling = { level: 2.2, sharpness: 4 };
  const t = simulateTable({ ...strong, ceiling }, { seed: 5, targetStandardError: 0.02 });
  const full = simulateLeague({ ...strong, ceiling, clubs: ids.map((id, i) => ({ id, attack: strong.attack[i], defence: strong.defence[i] })) }, { seed: 6, runs: 20_000 });
  const o = simulateScenarios({ ...strong, ceiling, target: ids[3], scenarios: [{ attack: strong.attack, defence: strong.defence }] }, { seed: 7, targetStandardError: 0.02 }).outcomes[0];
  for (const k of [0, 3, 11]) {
    const c = t.clubs[k], f = full.clubs[k];
    assert.ok(Math.abs(c.expectedPosition - f.expectedPosition) < 4 * Math.hypot(c.standardError, f.positionStandardError), `${ids[k]}: ${c.expectedPosition} vs ${f.expectedPosition}`);
  }
  assert.ok(Math.abs(o.expectedPosition - t.clubs[3].expectedPosition) < 4 * Math.hypot(o.standardError, t.clubs[3].standardError));
  // without the ceiling the strong club wins the league more often
  const free = simulateTable(strong, { seed: 5, runs: 4000 });
  assert.ok(free.clubs[0].positionProbabilities[0] > t.clubs[0].positionProbabilities[0] + 0.01, `${free.clubs[0].positionProbabilities[0]} vs ${t.clubs[0].positionProbabilities[0]}`);
  assert.throws(() => simulateTable({ ...strong, ceiling: { level: 0, sharpness: 4 } }, { seed: 1 }));
});
