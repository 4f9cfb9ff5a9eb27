import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AnswerCache, type StoredAnswer } from './answer-cache.ts';

const answer = (status: number, body = '{}'): StoredAnswer => ({ status, headers: [], body });

test('one load per key while fresh, shared while in flight', async () => {
  let t = 0;
  let loads = 0;
  const cache = new AnswerCache(1000, 10, () => t);
  const load = async () => (loads++, answer(200, `{"n":${loads}}`));
  const [a, b] = await Promise.all([cache.get('k', load), cache.get('k', load)]);
  assert.equal(loads, 1);
  assert.equal(a.body, b.body);
  t = 999;
  await cache.get('k', load);
  assert.equal(loads, 1);
  t = 1000;
  assert.equal((await cache.get('k', load)).body, '{"n":2}', 'expired answers are asked again');
});

test('errors and 429s are not kept', async () => {
  const cache = new AnswerCache(1000, 10, () => 0);
  let loads = 0;
  await cache.get('k', async () => (loads++, answer(429)));
  await new Promise((r) => setImmediate(r));
  await cache.get('k', async () => (loads++, answer(200)));
  assert.equal(loads, 2);
  await cache.get('x', () => Promise.reject(new Error('offline'))).catch(() => {});
  await new Promise((r) => setImmediate(r));
  assert.equal(cache.size, 1);
});

test('holds at most maxEntries, dropping the least recently used', async () => {
  const cache = new AnswerCache(1000, 2, () => 0);
  for (const k of ['a', 'b', 'c']) await cache.get(k, async () => answer(200));
  assert.equal(cache.size, 2);
  let loads = 0;
  await cache.get('a', async () => (loads++, answer(200)));
  assert.equal(loads, 1, 'the oldest entry was dropped');
});
