import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contractLogFactor, type ContractCurve } from '../../../src/valuation/fee/contract.js';

const curve: ContractCurve = { months: [3, 9, 15, 21, 27, 33, 48], logFactor: [-0.43, -0.43, -0.27, -0.22, -0.22, -0.12, 0], signingMonths: [53, 47, 36], rows: [1, 1, 1, 1, 1, 1, 1] };

test('the contract factor: unknown months change nothing, fewer months never raise it, flat beyond the ends', () => {
  assert.equal(contractLogFactor(curve, NaN), 0);
  assert.equal(contractLogFactor(null, 6), 0);
  assert.equal(contractLogFactor(curve, 1), -0.43);
  assert.equal(contractLogFactor(curve, 120), 0);
  assert.ok(Math.abs(contractLogFactor(curve, 40.5) - -0.06) < 1e-12, 'linear between bin centres');
  let prev = -Infinity;
  for (let m = 0.5; m <= 72; m += 0.5) {
    const f = contractLogFactor(curve, m);
    assert.ok(f >= prev, `${m} months`);
    prev = f;
  }
});
