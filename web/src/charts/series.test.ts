import assert from 'node:assert/strict';
import { test } from 'node:test';
import { trendPath, valueTop, yearFraction, yearSpan, yearTicks } from './series.ts';

test('dates become fractional years', () => {
  assert.equal(yearFraction('2024-01-01'), 2024);
  assert.ok(Math.abs(yearFraction('2024-07-01') - 2024.5) < 0.01);
});

test('the time axis spans whole years with at most six ticks', () => {
  assert.deepEqual(yearSpan([{ t: 2019.4, value: 1 }, { t: 2029.5, value: 2 }]), [2019, 2030]);
  assert.deepEqual(yearSpan([{ t: 2026, value: 1 }]), [2026, 2027]);
  assert.deepEqual(yearTicks([2019, 2030]), [2019, 2021, 2023, 2025, 2027, 2029]);
  assert.deepEqual(yearTicks([2026, 2029]), [2026, 2027, 2028, 2029]);
});

test('the value axis reaches the highest range end; the trend starts at the last market value', () => {
  const history = [{ t: 2020, value: 5 }, { t: 2025, value: 8 }];
  const model = [{ t: 2026, value: 10, low: 7, high: 14 }, { t: 2029, value: 12, low: 6, high: 20 }];
  assert.equal(valueTop([...history, ...model]), 20);
  assert.equal(valueTop([]), 1);
  assert.deepEqual(trendPath(history, model), [history[1], ...model]);
  assert.deepEqual(trendPath([], model), model);
});
