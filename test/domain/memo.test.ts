import { test } from 'node:test';
import assert from 'node:assert/strict';
import { memoFor, memoTable } from '../../src/domain/memo.js';

test('memoFor computes once per owner and name', () => {
  const a = {}, b = {};
  let calls = 0;
  const compute = () => ({ n: ++calls });
  const first = memoFor(a, 'x', compute);
  assert.equal(memoFor(a, 'x', compute), first);
  assert.notEqual(memoFor(a, 'y', compute), first);
  assert.notEqual(memoFor(b, 'x', compute), first);
  assert.equal(calls, 3);
});

test('a list of owners keys by all of them, in order; null and undefined values are kept', () => {
  const model = {}, snap1 = {}, snap2 = {};
  let calls = 0;
  assert.equal(memoFor([model, snap1], 'v', () => (calls++, null)), null);
  assert.equal(memoFor([model, snap1], 'v', () => (calls++, 1)), null);
  assert.equal(memoFor([model, snap2], 'v', () => (calls++, 2)), 2);
  assert.equal(memoFor([snap1, model], 'v', () => (calls++, 3)), 3);
  assert.equal(calls, 3);
});

test('a throw is not kept; tables are per owner and name', () => {
  const o = {};
  assert.throws(() => memoFor(o, 'bad', () => { throw new Error('no'); }));
  assert.equal(memoFor(o, 'bad', () => 5), 5);
  const t = memoTable<number>(o, 'ids');
  t.set('p1', 1);
  assert.equal(memoTable<number>(o, 'ids').get('p1'), 1);
  assert.equal(memoTable<number>({}, 'ids').size, 0);
  assert.throws(() => memoFor([], 'x', () => 1), /no owner/);
});
