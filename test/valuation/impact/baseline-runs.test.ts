import { test } from 'node:test';
import assert from 'node:assert/strict';
import { simulateScenarios, simulateScenariosInFull, type ScenarioLeagueInput } from '../../../src/valuation/impact/scenarios.js';
import { keptBaselines } from '../../../src/valuation/impact/baseline-runs.js';
import { createRng } from '../../../src/domain/random.js';

function league(seed: number, n: number) {
  const rng = createRng(seed);
  const ids = Array.from({ length: n }, (_, i) => `club${String((i * 7) % n).padStart(2, '0')}`);
  const attack = ids.map(() => rng.normal(0, 0.3));
  const defence = ids.map(() => rng.normal(0, 0.3));
  return { ids, attack, defence, rng };
}

test('the kept baseline answers exactly what playing every run in full answers', () => {
  for (const [seed, n] of [[1, 20], [2, 18], [3, 6]] as const) {
    const { ids, attack, defence, rng } = league(seed, n);
    const target = ids[3], former = ids[5];
    const t = ids.indexOf(target), f = ids.indexOf(former);
    const up = (a: number[], i: number, by: number) => a.map((x, k) => (k === i ? x + by : x));
    const cases: ScenarioLeagueInput['scenarios'][] = [
      // a signing: only the tracked club changes
      [{ attack, defence }, { attack: up(attack, t, 0.1), defence: up(defence, t, 0.05) }],
      // the player's former club, in the same league, loses him
      [{ attack, defence }, { attack: up(up(attack, t, 0.2), f, -0.1), defence: up(up(defence, t, 0.1), f, -0.07) }],
      // a scenario equal to the baseline, and several (the recommendation screen's shape)
      [{ attack, defence }, { attack, defence }, { attack: up(attack, t, 0.3), defence }, { attack: up(attack, t, rng.uniform()), defence: up(defence, t, 0.4) }],
      // the baseline alone
      [{ attack, defence }],
    ];
    for (const scenarios of cases) {
      // one league with a goal ceiling low enough to bend most fixtures: the replays must bend them too
      const input = { clubIds: ids, intercept: 0.25, homeAdvantage: 0.3, rho: seed % 2 ? -0.1 : 0, ceiling: seed === 2 ? { level: 1.8, sharpness: 3 } : null, target, scenarios };
      for (const settings of [{ seed: seed * 13, targetStandardError: 0.09 }, { seed: seed * 13, runs: 900 }, { seed: 77, targetStandardError: 0.03, runsFrom: scenarios.length - 1 }]) {
        const full = simulateScenariosInFull(input, settings);
        assert.deepEqual(simulateScenarios(input, settings), full);
        // again, on the baseline kept by the first call
        assert.deepEqual(simulateScenarios(input, settings), full);
      }
    }
  }
  const kept = keptBaselines();
  assert.ok(kept.count > 0 && kept.bytes > 0);
});
