import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fillCdf, fillLut, fillSideUnkept, goalsFor, LUT_SIZE, sideOf, U16 } from '../../../src/valuation/impact/poisson-draws.js';

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
