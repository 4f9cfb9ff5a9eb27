import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatMoney, formatPercent, formatRank } from './format.ts';

test('money is compact above a thousand and in the chosen currency', () => {
  assert.equal(formatMoney(12_500_000, 'EUR'), '€12.5M');
  assert.equal(formatMoney(850_000, 'GBP'), '£850K');
  assert.equal(formatMoney(999, 'EUR'), '€999');
  assert.equal(formatMoney(2_000_000, 'USD'), '$2M');
  assert.match(formatMoney(-1_500_000, 'CHF'), /^-CHF.1\.5M$/);
});

test('percent and rank', () => {
  assert.equal(formatPercent(0.256), '26%');
  assert.equal(formatRank(4), '4');
  assert.equal(formatRank(4.26), '4.3');
});
