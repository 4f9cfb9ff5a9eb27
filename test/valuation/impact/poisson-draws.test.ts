import assert from 'node:assert/strict';
import { test } from 'node:test';
import { awayGoalsGiven, fillCdf, fillLowScores, fillLut, fillSideUnkept, goalsFor, LOW, LUT_SIZE, sideOf, U16 } from '../../../src/valuation/impact/poisson-draws.js';
import { outcomeProbabilities, scoreGrid } from '../../../src/valuation/league/match.js';

test('the lookup table gives exactly goalsFor\'s goals for every 16-bit uniform', () => {
  const maxGoals = 20;
  for (const lambda of [0.05, 0.4, 1.1, 1.6, 2.7, 4.9, 9]) {
    const cdf = new Int32Array(maxGoals + 1);
    fillCdf(cdf, 0, lambda, maxGoals);
    const lut = new Int8Array(LUT_SIZE);
    fillLut(lut, 0, cdf, 0);
    let direct = 0;
    for (let u = 0; u < U16; u++) {
      const g = lut[u >>> 8];
      if (g >= 0) direct++;
      assert.equal(g < 0 ? goalsFor(cdf, 0, u) : g, goalsFor(cdf, 0, u), `lambda ${lambda}, u ${u}`);
    }
    assert.ok(direct / U16 > 0.9, `lambda ${lambda}: ${direct} of ${U16} answered by the table`);
  }
});

test('a side filled without keeping it is the kept side, at any offset, kept or not before', () => {
  const maxGoals = 20, k1 = maxGoals + 1;
  // 1.3 is kept first (sideOf), so fillSideUnkept copies it; the others are computed in place
  const kept = sideOf(1.3, maxGoals);
  const lambdas = [0.7, 1.3, 2.45, 3.9];
  const cdf = new Int32Array((lambdas.length + 1) * k1), lut = new Int8Array((lambdas.length + 1) * LUT_SIZE);
  lambdas.forEach((lambda, i) => fillSideUnkept(cdf, (i + 1) * k1, lut, (i + 1) * LUT_SIZE, lambda, maxGoals));
  lambdas.forEach((lambda, i) => {
    const side = lambda === 1.3 ? kept : sideOf(lambda, maxGoals);
    assert.deepEqual(cdf.subarray((i + 1) * k1, (i + 2) * k1), side.cdf, `cdf of ${lambda}`);
    assert.deepEqual(lut.subarray((i + 1) * LUT_SIZE, (i + 2) * LUT_SIZE), side.lut, `lut of ${lambda}`);
  });
});

test('the sampler plays the match model\'s joint score: every 16-bit uniform pair counted, each score within 1e-4 of its probability', () => {
  const maxGoals = 20, k1 = maxGoals + 1;
  for (const [home, away] of [[1.45, 1.1], [0.45, 2.9], [3.4, 0.3], [0.8, 0.7]]) {
    for (const rho of [-0.15, -0.06, 0, 0.08]) {
      const h = sideOf(home, maxGoals), a = sideOf(away, maxGoals);
      const low = new Int32Array(LOW);
      fillLowScores(low, 0, home, away, rho, a.cdf, 0);
      // the home goals depend on their uniform only, the away goals on theirs and the home goals:
      // count the uniforms of each home score, and of each away score given 0, 1 and 2+ home goals
      const homeCount = new Float64Array(k1), awayCount = [new Float64Array(k1), new Float64Array(k1), new Float64Array(k1)];
      for (let u = 0; u < U16; u++) {
        homeCount[goalsFor(h.cdf, 0, u)]++;
        const y = goalsFor(a.cdf, 0, u);
        for (let x = 0; x < 3; x++) awayCount[x][awayGoalsGiven(x, y, u, low, 0)]++;
      }
      const grid = scoreGrid({ home, away, rho }, maxGoals);
      let win = 0, draw = 0;
      for (let x = 0; x < k1; x++) {
        for (let y = 0; y < k1; y++) {
          const p = (homeCount[x] / U16) * (awayCount[Math.min(x, 2)][y] / U16);
          assert.ok(Math.abs(p - grid[x * k1 + y]) < 1e-4, `${home}-${away} rho ${rho}: ${x}-${y} drawn ${p}, model ${grid[x * k1 + y]}`);
          if (x > y) win += p; else if (x === y) draw += p;
        }
      }
      const [pw, pd] = outcomeProbabilities({ home, away, rho }, maxGoals);
      assert.ok(Math.abs(win - pw) < 2e-4 && Math.abs(draw - pd) < 2e-4, `${home}-${away} rho ${rho}: ${win}/${draw} against ${pw}/${pd}`);
    }
  }
});

test('with rho 0 the away goals ignore the home goals (independent sides), and the thresholds stay monotone in the rates', () => {
  const maxGoals = 20;
  const a = sideOf(1.2, maxGoals), low = new Int32Array(LOW);
  fillLowScores(low, 0, 1.7, 1.2, 0, a.cdf, 0);
  // both thresholds are the Poisson one, and the band where the home goals matter is empty
  assert.deepEqual([...low], [a.cdf[0], a.cdf[0], a.cdf[0], 0]);
  // rho < 0: given no home goal the away side scores 0 more often, given one home goal less often
  fillLowScores(low, 0, 1.7, 1.2, -0.1, a.cdf, 0);
  assert.ok(low[0] > a.cdf[0] && low[1] < a.cdf[0] && low[0] <= a.cdf[1]);
  assert.deepEqual([low[2], low[3]], [low[1], low[0] - low[1]]);
  // a stronger away side (higher rate) never gets a higher threshold for 0 goals
  let last = [Infinity, Infinity];
  for (const away of [0.4, 0.8, 1.2, 1.6, 2.4, 3.5]) {
    const side = sideOf(away, maxGoals), t = new Int32Array(LOW);
    fillLowScores(t, 0, 1.5, away, -0.1, side.cdf, 0);
    assert.ok(t[0] <= last[0] && t[1] <= last[1], `away ${away}`);
    last = [t[0], t[1]];
  }
});
