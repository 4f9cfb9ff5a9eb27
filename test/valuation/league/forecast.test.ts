import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matchPoints } from '../../../src/valuation/league/forecast.js';

test('expected points of a match: 3 shared out when someone wins, 2 on a draw; the stronger side expects more', () => {
  const even = matchPoints(1.3, 1.3);
  assert.ok(Math.abs(even.home - even.away) < 1e-12);
  for (const [h, a] of [[1.3, 1.3], [2.5, 0.6], [0.4, 1.9], [0.05, 0.05]]) {
    const m = matchPoints(h, a);
    assert.ok(m.home + m.away >= 2 && m.home + m.away <= 3, `${h}-${a}`);
    assert.ok(m.home >= 0 && m.home <= 3 && m.away >= 0 && m.away <= 3);
  }
  assert.ok(matchPoints(2.5, 0.6).home > 2 && matchPoints(2.5, 0.6).away < 0.6);
  // Almost no goals: almost always a draw.
  const dull = matchPoints(0.01, 0.01);
  assert.ok(Math.abs(dull.home - 1) < 0.03 && Math.abs(dull.away - 1) < 0.03);
  // Monotone in the own rate.
  assert.ok(matchPoints(1.6, 1.2).home > matchPoints(1.4, 1.2).home);
});
