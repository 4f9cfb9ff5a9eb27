import assert from 'node:assert/strict';
import { test } from 'node:test';
import { effectiveRho, goalRates, MATCH_MAX_GOALS, matchPoints, matchProbabilities, outcomeProbabilities, poissonPmf, scoreGrid, sideRate, tau } from '../../../src/valuation/league/match.js';

// The one match model: Poisson marginals joined by the Dixon–Coles low-score dependence rho.
const k1 = MATCH_MAX_GOALS + 1;
const fixtures = [
  { home: 1.45, away: 1.1 }, { home: 0.4, away: 3.2 }, { home: 3.6, away: 0.35 }, { home: 0.9, away: 0.8 }, { home: 2.2, away: 2.0 },
];

test('the score grid sums to 1 and keeps both Poisson marginals: the expected goals are the rates', () => {
  for (const r of fixtures) {
    for (const rho of [-0.12, -0.05, 0, 0.05]) {
      const g = scoreGrid({ ...r, rho });
      let sum = 0, eh = 0, ea = 0;
      for (let x = 0; x < k1; x++) for (let y = 0; y < k1; y++) { const p = g[x * k1 + y]; assert.ok(p >= 0); sum += p; eh += x * p; ea += y * p; }
      assert.ok(Math.abs(sum - 1) < 1e-12);
      // (goals are capped at 20 a side: the tail beyond moves a mean by under 1e-8)
      assert.ok(Math.abs(eh - r.home) < 1e-7 && Math.abs(ea - r.away) < 1e-7, `${r.home}/${r.away} rho ${rho}: ${eh}/${ea}`);
      // each row's mass is the home side's Poisson probability, each column's the away side's
      const ph = poissonPmf(r.home, MATCH_MAX_GOALS), pa = poissonPmf(r.away, MATCH_MAX_GOALS);
      for (let x = 0; x < 4; x++) {
        let row = 0, col = 0;
        for (let y = 0; y < k1; y++) { row += g[x * k1 + y]; col += g[y * k1 + x]; }
        assert.ok(Math.abs(row - ph[x]) < 1e-8 && Math.abs(col - pa[x]) < 1e-8);
      }
    }
  }
});

test('win, draw and loss sum to 1 and are the grid\'s sums; rho 0 is independent goals', () => {
  for (const r of fixtures) {
    for (const rho of [-0.1, 0, 0.07]) {
      const m = matchProbabilities({ ...r, rho }, 5);
      assert.ok(Math.abs(m.homeWin + m.draw + m.awayWin - 1) < 1e-12);
      const g = scoreGrid({ ...r, rho });
      let win = 0, draw = 0;
      for (let x = 0; x < k1; x++) for (let y = 0; y < k1; y++) { if (x > y) win += g[x * k1 + y]; else if (x === y) draw += g[x * k1 + y]; }
      assert.ok(Math.abs(m.homeWin - win) < 1e-12 && Math.abs(m.draw - draw) < 1e-12);
      assert.deepEqual(m.expectedGoals, r);
      assert.equal(m.likelyScores.length, 5);
      for (let i = 1; i < 5; i++) assert.ok(m.likelyScores[i - 1].probability >= m.likelyScores[i].probability);
      assert.ok(Math.abs(m.likelyScores[0].probability - Math.max(...g)) < 1e-15);
      const pts = matchPoints({ ...r, rho });
      assert.ok(Math.abs(pts.home - (3 * m.homeWin + m.draw)) < 1e-12 && Math.abs(pts.away - (3 * m.awayWin + m.draw)) < 1e-12);
    }
    const ph = poissonPmf(r.home, MATCH_MAX_GOALS), pa = poissonPmf(r.away, MATCH_MAX_GOALS);
    let draw = 0;
    for (let x = 0; x < k1; x++) draw += ph[x] * pa[x];
    assert.ok(Math.abs(outcomeProbabilities({ ...r, rho: 0 })[1] - draw) < 1e-8); // the cap at 20 goals renormalises
    assert.deepEqual(outcomeProbabilities({ ...r, rho: 0 }), outcomeProbabilities(r));
  }
});

test('rho < 0 moves 1-0 and 0-1 to 0-0 and 1-1: more draws, the same goals', () => {
  const r = { home: 1.3, away: 1.0 };
  const [w0, d0, l0] = outcomeProbabilities({ ...r, rho: 0 });
  const [w1, d1, l1] = outcomeProbabilities({ ...r, rho: -0.1 });
  const moved = 0.1 * r.home * r.away * Math.exp(-r.home - r.away);
  assert.ok(Math.abs(d1 - d0 - 2 * moved) < 1e-12 && Math.abs(w0 - w1 - moved) < 1e-12 && Math.abs(l0 - l1 - moved) < 1e-12);
  assert.equal(tau(2, 1, r.home, r.away, -0.1), 1);
  assert.ok(tau(0, 0, r.home, r.away, -0.1) > 1 && tau(1, 0, r.home, r.away, -0.1) < 1);
});

test('rho is clamped where a tau would be negative, so every score keeps a probability >= 0', () => {
  assert.equal(effectiveRho(8, 0.2, -0.5), -1 / 8);
  assert.equal(effectiveRho(2, 3, 0.4), 1 / 6);
  assert.equal(effectiveRho(1, 1, Number.NaN), 0);
  const g = scoreGrid({ home: 8, away: 0.2, rho: -0.5 });
  for (const p of g) assert.ok(p >= 0);
});

test('a neutral venue drops the home advantage: two equal clubs are then even', () => {
  const s = { intercept: 0.1, homeAdvantage: 0.3, rho: -0.06, home: { attack: 0.2, defence: 0.1 }, away: { attack: 0.2, defence: 0.1 } };
  const home = matchProbabilities(goalRates(s));
  assert.ok(home.homeWin > home.awayWin + 0.1);
  const neutral = matchProbabilities(goalRates(s, true));
  assert.ok(Math.abs(neutral.homeWin - neutral.awayWin) < 1e-12);
  assert.ok(Math.abs(neutral.expectedGoals.home - neutral.expectedGoals.away) < 1e-12);
  assert.equal(goalRates(s, true).rho, s.rho);
  // swapping the sides at a neutral venue swaps the answer
  const a = { ...s, home: { attack: 0.5, defence: 0.3 } };
  const ab = matchProbabilities(goalRates(a, true)), ba = matchProbabilities(goalRates({ ...a, home: a.away, away: a.home }, true));
  assert.ok(Math.abs(ab.homeWin - ba.awayWin) < 1e-12 && Math.abs(ab.draw - ba.draw) < 1e-12);
});

test('the goal ceiling keeps low rates, bends high ones below its level, and keeps their order', () => {
  const ceiling = { level: 3, sharpness: 6 };
  assert.equal(sideRate(0.4), Math.exp(0.4));
  assert.equal(sideRate(0.4, null), Math.exp(0.4));
  // well below the level almost nothing changes; far above it the rate approaches the level
  assert.ok(Math.abs(sideRate(Math.log(1.2), ceiling) - 1.2) < 1e-3);
  assert.ok(sideRate(Math.log(3), ceiling) < 3 * 0.9);
  assert.ok(sideRate(Math.log(20), ceiling) < 3 && sideRate(Math.log(20), ceiling) > 2.9);
  let last = 0;
  for (let x = -2; x <= 3; x += 0.05) {
    const r = sideRate(x, ceiling);
    assert.ok(r > last && r < Math.exp(x), `rate ${r} at ${x}`);
    last = r;
  }
  // the fixture's rates are the bent ones, so a lopsided fixture is less lopsided
  const s = { intercept: 0.2, homeAdvantage: 0.25, rho: -0.05, home: { attack: 0.9, defence: 0.8 }, away: { attack: -0.5, defence: -0.4 } };
  const bent = goalRates({ ...s, ceiling });
  assert.equal(bent.home, sideRate(0.2 + 0.25 + 0.9 + 0.4, ceiling));
  assert.equal(bent.away, sideRate(0.2 - 0.5 - 0.8, ceiling));
  assert.ok(matchProbabilities(bent).homeWin < matchProbabilities(goalRates(s)).homeWin);
});
