import assert from 'node:assert/strict';
import { test } from 'node:test';
import { listQuery, nextSort } from './query.ts';

test('only known filters, a known sort and the cursor reach the API', () => {
  const q = new URLSearchParams('position=LB,LWB&min_age=&nationality= Spain &sort=-rating&cursor=abc&evil=1');
  assert.deepEqual(listQuery(q), { position: 'LB,LWB', nationality: 'Spain', sort: '-rating', cursor: 'abc' });
  assert.deepEqual(listQuery(new URLSearchParams('sort=salary')), {});
});

test('a column sorts descending first, then flips', () => {
  assert.equal(nextSort('-market_value', 'rating'), '-rating');
  assert.equal(nextSort('-rating', 'rating'), 'rating');
  assert.equal(nextSort('rating', 'rating'), '-rating');
});
