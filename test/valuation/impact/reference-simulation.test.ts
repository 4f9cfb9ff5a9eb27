import { test } from 'node:test';
import assert from 'node:assert/strict';
import { simulateLeague, simulateWithAndWithout, initialRuns, leagueInputFromStrength, type LeagueInput } from '../../helpers/simulate-league.js';
import { fitStrength } from '../../../src/valuation/league/strength.js';

function league(n: number, strong?: number): LeagueInput {
  return {
    intercept: 0.15,
    homeAdvantage: 0.25,
    clubs: Array.from({ length: n }, (_, i) => ({
      id: `club${String(i).padStart(2, '0')}`,
      attack: 0.3 - (0.6 * i) / (n - 1) + (i === strong ? 1.2 : 0),
      defence: 0.2 - (0.4 * i) / (n - 1) + (i === strong ? 1.2 : 0),
    })),
  };
}

test('a much stronger club finishes first in expectation; probabilities sum to 1 by club and by place', () => {
  const input = league(8, 7);
  const r = simulateLeague(input, { seed: 1, runs: 2000 });
  assert.equal(r.runs, 2000);
  const star = r.clubs.find((c) => c.id === 'club07')!;
  assert.ok(star.expectedPosition < 1.2, `expected position ${star.expectedPosition}`);
  assert.ok(star.positionProbabilities[0] > 0.85);
  assert.equal(Math.min(...r.clubs.map((c) => c.expectedPosition)), star.expectedPosition);
  for (const c of r.clubs) {
    assert.ok(Math.abs(c.positionProbabilities.reduce((a, b) => a + b, 0) - 1) < 1e-9);
    const mean = c.positionProbabilities.reduce((a, p, i) => a + p * (i + 1), 0);
    assert.ok(Math.abs(mean - c.expectedPosition) < 1e-9);
  }
  for (let place = 0; place < 8; place++) {
    assert.ok(Math.abs(r.clubs.reduce((a, c) => a + c.positionProbabilities[place], 0) - 1) < 1e-9);
  }
  // 14 matches of 3 points at most; total points = 3 * wins + 2 * draws
  assert.ok(star.expectedPoints > 30 && star.expectedPoints <= 42);
  assert.ok(Math.abs(r.clubs.reduce((a, c) => a + c.expectedGoalDifference, 0)) < 1e-9);
});

test('same seed, same result; another seed differs; input order does not matter', () => {
  const input = league(6);
  const a = simulateLeague(input, { seed: 42, runs: 500 });
  assert.deepEqual(simulateLeague(input, { seed: 42, runs: 500 }), a);
  assert.notDeepEqual(simulateLeague(input, { seed: 43, runs: 500 }), a);
  const reversed = simulateLeague({ ...input, clubs: [...input.clubs].reverse() }, { seed: 42, runs: 500 });
  assert.deepEqual([...reversed.clubs].reverse(), a.clubs);
});

test('common random numbers: a stronger club never does worse in paired runs (several seeds)', () => {
  const input = league(10);
  for (const seed of [1, 2, 3, 4, 5]) {
    for (const [k, bump] of [[4, { attack: 0.05, defence: 0 }], [7, { attack: 0, defence: 0.03 }], [2, { attack: 0.02, defence: 0.02 }]] as const) {
      const changed = { ...input, clubs: input.clubs.map((c, i) => (i === k ? { ...c, attack: c.attack + bump.attack, defence: c.defence + bump.defence } : c)) };
      const { base, changed: ch } = simulateWithAndWithout(input, changed, { seed, runs: 400 });
      assert.ok(ch.clubs[k].expectedPosition <= base.clubs[k].expectedPosition, `seed ${seed} club ${k}: ${base.clubs[k].expectedPosition} -> ${ch.clubs[k].expectedPosition}`);
      assert.ok(ch.clubs[k].expectedPoints >= base.clubs[k].expectedPoints);
      // the first place probability can only grow, the last only shrink
      assert.ok(ch.clubs[k].positionProbabilities[0] >= base.clubs[k].positionProbabilities[0]);
      assert.ok(ch.clubs[k].positionProbabilities[9] <= base.clubs[k].positionProbabilities[9]);
      // separate calls with the same seed see the same random numbers
      assert.deepEqual(simulateLeague(input, { seed, runs: 400 }), base);
    }
  }
  assert.throws(() => simulateWithAndWithout(league(4), league(5), { seed: 1 }), /same clubs/);
});

test('without a fixed count, runs are chosen so every standard error is at most 0.05', () => {
  const input = league(12);
  const r = simulateLeague(input, { seed: 9 });
  assert.ok(r.maxStandardError <= 0.05, `max standard error ${r.maxStandardError}`);
  assert.equal(r.maxStandardError, Math.max(...r.clubs.map((c) => c.positionStandardError)));
  for (const c of r.clubs) {
    const variance = c.positionProbabilities.reduce((a, p, i) => a + p * (i + 1 - c.expectedPosition) ** 2, 0);
    const se = Math.sqrt((variance * r.runs) / (r.runs - 1) / r.runs);
    assert.ok(Math.abs(se - c.positionStandardError) < 1e-9);
  }
  assert.ok(r.runs <= initialRuns(12, 0.05) * 1.2);
  const paired = simulateWithAndWithout(input, league(12, 3), { seed: 9, targetStandardError: 0.08 });
  assert.equal(paired.base.runs, paired.changed.runs);
  assert.ok(paired.base.maxStandardError <= 0.08 && paired.changed.maxStandardError <= 0.08);
});

test('league input from a strength artifact, with what-if overrides; bad input is refused', () => {
  const art = fitStrength([
    { date: '2024-01-01', home: 'A', away: 'B', homeGoals: 2, awayGoals: 0 },
    { date: '2024-01-08', home: 'B', away: 'C', homeGoals: 1, awayGoals: 1 },
    { date: '2024-01-15', home: 'C', away: 'A', homeGoals: 0, awayGoals: 3 },
  ], { asOf: '2024-06-30' });
  const input = leagueInputFromStrength(art, ['A', 'B', 'C', 'New'], { B: { attack: 1, defence: 1 } });
  assert.equal(input.intercept, art.intercept);
  assert.deepEqual(input.clubs[1], { id: 'B', attack: 1, defence: 1 });
  assert.deepEqual(input.clubs[3], { id: 'New', attack: 0, defence: 0 });
  assert.equal(input.clubs[0].attack, art.clubs.A.attack);
  assert.throws(() => simulateLeague({ ...input, clubs: [input.clubs[0], input.clubs[0]] }, { seed: 1 }), /unique/);
  assert.throws(() => simulateLeague(input, { seed: 1.5 }), /seed/);
  assert.throws(() => simulateLeague(input, { seed: 1, maxGoals: 2 }), /maxGoals/);
});
