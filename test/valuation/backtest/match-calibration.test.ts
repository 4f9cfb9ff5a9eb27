import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRng } from '../../../src/domain/random.js';
import { learnMatchCalibration, spreadFor, strengthDispersion, type SeasonInputs } from '../../../src/valuation/backtest/match.js';
import { outcomeProbabilities, sideRate, type GoalCeiling } from '../../../src/valuation/league/match.js';

test('strength dispersion: the root mean square of attack[i] − defence[j] over ordered pairs, from the league mean', () => {
  const mean = { attack: 0.1, defence: -0.1 };
  // deviations: attack +0.2, −0.2; defence +0.1, −0.1 → pairs (0,1): 0.2 + 0.1, (1,0): −0.2 − 0.1
  assert.ok(Math.abs(strengthDispersion([{ attack: [0.3, -0.1], defence: [0, -0.2], mean }]) - 0.3) < 1e-12);
  assert.equal(strengthDispersion([]), 0);
  assert.equal(spreadFor({ dispersion: null }, 0.2), 1);
  assert.equal(spreadFor({ dispersion: 0.3 }, 0.2), 1.5);
});

/**
 * Seasons played by a known model (true strengths, a goal ceiling), each predicted with the
 * strengths shrunk towards the mean by its own factor, as the tie's estimates are at each origin.
 */
function season(seed: number, shrink: number, truth: GoalCeiling, leagueShrink: (league: number) => number = () => 1): SeasonInputs {
  const rng = createRng(seed);
  const mean = { attack: 0, defence: 0 };
  const matches: SeasonInputs['matches'] = [];
  const leagues = [];
  for (let l = 0; l < 12; l++) {
    const clubs = Array.from({ length: 20 }, () => {
      const q = rng.normal(0, 0.3);
      return { attack: q + rng.normal(0, 0.05), defence: q + rng.normal(0, 0.05) };
    });
    const k = shrink * leagueShrink(l);
    const est = clubs.map((c) => ({ attack: k * c.attack, defence: k * c.defence }));
    leagues.push({ attack: est.map((c) => c.attack), defence: est.map((c) => c.defence), mean });
    for (let i = 0; i < 20; i++) {
      for (let j = 0; j < 20; j++) {
        if (i === j) continue;
        const h = sideRate(0.2 + 0.25 + clubs[i].attack - clubs[j].defence, truth), a = sideRate(0.2 + clubs[j].attack - clubs[i].defence, truth);
        const goals: [number, number] = [rng.poisson(h), rng.poisson(a)];
        const outcome = goals[0] > goals[1] ? 0 : goals[0] === goals[1] ? 1 : 2;
        const p = outcomeProbabilities({ home: h, away: a });
        matches.push({
          outcome, league: `L${l}`, clubs: [`c${l}-${i}`, `c${l}-${j}`], goals, intercept: 0.2, homeAdvantage: 0.25, rho: 0, mean,
          home: est[i], away: est[j], elo: p, base: [0.45, 0.27, 0.28],
        });
      }
    }
  }
  return { season: 2000 + seed, origin: `${2000 + seed}-06-30`, dispersion: strengthDispersion(leagues), matches };
}

test('the calibration undoes each season\'s shrinkage through the dispersion and finds the goal ceiling from the goals', () => {
  const truth = { level: 2.6, sharpness: 5 };
  const seasons = [season(1, 0.8, truth), season(2, 0.6, truth)];
  const c = learnMatchCalibration(seasons);
  assert.ok(c.ceiling && c.dispersion);
  assert.ok(Math.abs(c.ceiling.level - truth.level) < 0.4, `level ${c.ceiling.level}`);
  // each season's spread brings its estimates back to about the true dispersion
  for (const [s, shrink] of [[seasons[0], 0.8], [seasons[1], 0.6]] as const) {
    const k = spreadFor(c, s.dispersion);
    assert.ok(Math.abs(k * shrink - 1) < 0.12, `spread ${k} for shrink ${shrink}`);
  }
  // every league's estimates shrunk alike: no league has a spread of its own
  for (const [league, x] of Object.entries(c.leagueSpread)) assert.ok(Math.abs(x - 1) < 0.12, `${league} ${x}`);
  // no season, nothing learned: spread 1 and no ceiling
  assert.deepEqual(learnMatchCalibration([]), { dispersion: null, ceiling: null, leagueSpread: {} });
});

test('a league whose strengths are compressed more than the others gets a wider spread of its own, shrunk towards 1', () => {
  const truth = { level: 2.6, sharpness: 5 };
  // league 0's estimates at half the others' width, in every season
  const seasons = [1, 2, 3].map((seed) => season(seed, 0.8, truth, (l) => (l === 0 ? 0.5 : 1)));
  const c = learnMatchCalibration(seasons);
  const own = c.leagueSpread.L0, others = Object.entries(c.leagueSpread).filter(([l]) => l !== 'L0').map(([, x]) => x);
  // 1,140 matches of its own against a prior of 1,000: a bit more than half of the way to 2
  assert.ok(own > 1.3 && own < 1.8, `L0 ${own}`);
  assert.ok(others.every((x) => x > 0.85 && x < 1.15), `others ${others.join(', ')}`);
});

