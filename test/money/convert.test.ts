import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fromEur, moneyPair, moneyPairFromAmount, roundMoney, toEur } from '../../src/money/convert.js';
import { createRateTable, defaultRateTable } from '../../src/money/rates.js';

const table = defaultRateTable();

test('roundMoney rounds halves away from zero, both signs', () => {
  assert.equal(roundMoney(2.5), 3);
  assert.equal(roundMoney(-2.5), -3);
  assert.equal(roundMoney(0.5), 1);
  assert.equal(roundMoney(-0.5), -1);
  assert.equal(roundMoney(1234567.5), 1234568);
  assert.equal(roundMoney(-1234567.5), -1234568);
  assert.equal(Math.round(-2.5), -2); // why roundMoney exists
});

test('roundMoney rounds non-halves to the nearest whole number and never gives -0', () => {
  assert.equal(roundMoney(2.4999), 2);
  assert.equal(roundMoney(-2.4999), -2);
  assert.equal(roundMoney(2.5001), 3);
  assert.equal(roundMoney(-2.5001), -3);
  assert.equal(roundMoney(7), 7);
  assert.ok(Object.is(roundMoney(-0.2), 0));
  assert.ok(Object.is(roundMoney(-0), 0));
  assert.equal(roundMoney(987654321012.5), 987654321013);
});

test('roundMoney refuses non-finite amounts', () => {
  assert.throws(() => roundMoney(NaN), RangeError);
  assert.throws(() => roundMoney(Infinity), RangeError);
});

test('fromEur and toEur use units per EUR and round trip for every currency', () => {
  assert.equal(fromEur(1000, 'USD', table), 1070.5);
  assert.equal(fromEur(1000, 'EUR', table), 1000);
  assert.equal(toEur(1070.5, 'USD', table), 1000);
  assert.equal(toEur(171.94, 'JPY', table), 1);
  for (const code of ['EUR', ...Object.keys(table.rates)]) {
    for (const amount of [0, 1, 12_345.67, 85_000_000, -2_500_000]) {
      const back = toEur(fromEur(amount, code, table), code, table);
      assert.ok(Math.abs(back - amount) <= Math.abs(amount) * 1e-12, `${code} ${amount} -> ${back}`);
    }
  }
});

test('conversion with a code the table does not rate throws', () => {
  assert.throws(() => fromEur(1, 'ARS', table), /No exchange rate for ARS/);
  assert.throws(() => toEur(1, 'usd', table), /No exchange rate for usd/);
});

test('moneyPair: EUR gives the same whole number twice', () => {
  for (const x of [0, 0.5, -0.5, 2.5, 1_234_567.49, 99_999_999.5]) {
    const p = moneyPair(x, 'EUR', table);
    assert.equal(p.amount, p.amountEur);
    assert.equal(p.amountEur, roundMoney(x));
  }
});

test('moneyPair: both sides are whole and agree through the one rate', () => {
  assert.deepEqual(moneyPair(50_000_000, 'GBP', table), { amount: 42_319_000, amountEur: 50_000_000 });
  assert.deepEqual(moneyPair(1_000_000, 'USD', table), { amount: 1_070_500, amountEur: 1_000_000 });
  for (const code of Object.keys(table.rates)) {
    const rate = table.rates[code];
    for (let i = 0; i < 200; i++) {
      const eur = (i * 7919.37) ** 1.7 - 1e5; // spread over signs and magnitudes
      const p = moneyPair(eur, code, table);
      assert.ok(Number.isInteger(p.amount) && Number.isInteger(p.amountEur));
      assert.equal(p.amount, roundMoney(eur * rate));
      // Rounding both sides can separate them by at most half a unit each.
      assert.ok(Math.abs(p.amount - p.amountEur * rate) <= 0.5 + 0.5 * rate + 1e-9, `${code} ${eur}`);
    }
  }
});

test('moneyPair follows the table it is given', () => {
  const other = createRateTable({ date: '2024-07-01', source: 'test', rates: { USD: 1.0745 } });
  assert.equal(moneyPair(1_000_000, 'USD', other).amount, 1_074_500);
  assert.equal(moneyPair(1_000_000, 'USD', table).amount, 1_070_500);
});

test('moneyPairFromAmount keeps the caller figure and converts the EUR side', () => {
  assert.deepEqual(moneyPairFromAmount(1_070_500, 'USD', table), { amount: 1_070_500, amountEur: 1_000_000 });
  assert.deepEqual(moneyPairFromAmount(2_000_000.5, 'EUR', table), { amount: 2_000_001, amountEur: 2_000_001 });
  assert.deepEqual(moneyPairFromAmount(171_940_000, 'JPY', table), { amount: 171_940_000, amountEur: 1_000_000 });
});
