import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fillCdf, fillLut, goalsFor, LUT_SIZE, U16 } from '../../../src/valuation/impact/poisson-draws.js';

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
