import assert from 'node:assert/strict';
import { test } from 'node:test';
import { linear, niceMax } from './scale.ts';

test('linear maps ends to ends and a flat domain to the middle', () => {
  const y = linear(0, 100, 200, 0);
  assert.equal(y(0), 200);
  assert.equal(y(100), 0);
  assert.equal(y(25), 150);
  assert.equal(linear(5, 5, 0, 10)(5), 5);
});

test('niceMax rounds up to 1, 2 or 5 times a power of ten', () => {
  assert.equal(niceMax(0.37), 0.5);
  assert.equal(niceMax(12_345_678), 20_000_000);
  assert.equal(niceMax(50), 50);
  assert.equal(niceMax(0), 1);
});

test('dates become fractional years', async () => {
  const { yearFraction } = await import('./ValueChart.tsx');
  assert.equal(yearFraction('2024-01-01'), 2024);
  assert.ok(Math.abs(yearFraction('2024-07-01') - 2024.5) < 0.01);
});
