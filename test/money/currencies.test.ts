import { test } from 'node:test';
import assert from 'node:assert/strict';
import { codes as isoCodes } from 'currency-codes';
import { isIsoCurrency, resolveCurrency, usableCurrencies } from '../../src/money/currencies.js';
import { createRateTable, defaultRateTable, rateOf } from '../../src/money/rates.js';

const table = defaultRateTable();

test('codes are accepted in any case and echoed upper case', () => {
  assert.deepEqual(resolveCurrency('usd', table), { ok: true, code: 'USD' });
  assert.deepEqual(resolveCurrency('Gbp', table), { ok: true, code: 'GBP' });
  assert.deepEqual(resolveCurrency('JPY', table), { ok: true, code: 'JPY' });
  assert.deepEqual(resolveCurrency(' chf ', table), { ok: true, code: 'CHF' });
});

test('EUR is always usable, even with a table that lists other currencies only', () => {
  const small = createRateTable({ date: '2024-06-28', source: 'test', rates: { USD: 1.0705 } });
  assert.deepEqual(resolveCurrency('eur', small), { ok: true, code: 'EUR' });
  assert.deepEqual(resolveCurrency('EUR', table), { ok: true, code: 'EUR' });
});

test('a code unknown to ISO 4217 is refused with the code as given', () => {
  assert.deepEqual(resolveCurrency('XYZ', table), { ok: false, error: 'Invalid currency code: XYZ' });
  assert.deepEqual(resolveCurrency('xyz', table), { ok: false, error: 'Invalid currency code: xyz' });
  assert.deepEqual(resolveCurrency('US', table), { ok: false, error: 'Invalid currency code: US' });
  assert.deepEqual(resolveCurrency('USDX', table), { ok: false, error: 'Invalid currency code: USDX' });
  assert.deepEqual(resolveCurrency('', table), { ok: false, error: 'Invalid currency code: ' });
  // Withdrawn when Croatia joined the euro: no longer ISO 4217.
  assert.equal(isIsoCurrency('HRK'), false);
  assert.deepEqual(resolveCurrency('hrk', table), { ok: false, error: 'Invalid currency code: hrk' });
});

test('a valid ISO 4217 code without a rate in the table is refused', () => {
  for (const code of ['ARS', 'RUB', 'XAU', 'XXX', 'NGN']) {
    assert.equal(isIsoCurrency(code), true, code);
    assert.deepEqual(resolveCurrency(code.toLowerCase(), table), { ok: false, error: `Invalid currency code: ${code.toLowerCase()}` });
  }
  // ...and accepted once a table rates it.
  const withArs = createRateTable({ date: '2024-06-28', source: 'test', rates: { ARS: 975.5 } });
  assert.deepEqual(resolveCurrency('ars', withArs), { ok: true, code: 'ARS' });
});

test('a rate for a code that is not ISO 4217 does not make it usable', () => {
  const odd = createRateTable({ date: '2024-06-28', source: 'test', rates: { HRK: 7.5345, USD: 1.07 } });
  assert.deepEqual(resolveCurrency('HRK', odd), { ok: false, error: 'Invalid currency code: HRK' });
  assert.deepEqual(usableCurrencies(odd), ['EUR', 'USD']);
});

test('a non-string gives the type error', () => {
  for (const input of [1, null, undefined, true, ['USD'], { code: 'USD' }]) {
    assert.deepEqual(resolveCurrency(input, table), { ok: false, error: 'currency_code must be a string' });
  }
});

test('the default table is the ECB set: 30 currencies, all ISO 4217, plus EUR', () => {
  assert.equal(table.date, '2024-06-28');
  assert.match(table.source, /European Central Bank/);
  const ecb = 'USD JPY BGN CZK DKK GBP HUF PLN RON SEK CHF ISK NOK TRY AUD BRL CAD CNY HKD IDR ILS INR KRW MXN MYR NZD PHP SGD THB ZAR'.split(' ');
  assert.deepEqual(Object.keys(table.rates).sort(), [...ecb].sort());
  assert.deepEqual(usableCurrencies(table), ['EUR', ...ecb].sort());
  assert.ok(ecb.every((c) => isoCodes().includes(c)));
  assert.equal(rateOf(table, 'EUR'), 1);
  assert.equal(rateOf(table, 'USD'), 1.0705);
  assert.equal(rateOf(table, 'BGN'), 1.9558); // the lev's fixed euro peg
  assert.equal(rateOf(table, 'usd'), undefined);
});
