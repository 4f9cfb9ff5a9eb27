import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng, rngFromState, logGamma } from '../../src/domain/random.js';

test('same seed gives the same stream, different seeds differ', () => {
  const a = createRng(42);
  const b = createRng(42);
  const c = createRng(43);
  const sa = Array.from({ length: 20 }, () => a.uniform());
  const sb = Array.from({ length: 20 }, () => b.uniform());
  const sc = Array.from({ length: 20 }, () => c.uniform());
  assert.deepEqual(sa, sb);
  assert.notDeepEqual(sa, sc);
  for (const v of sa) assert.ok(v >= 0 && v < 1);
});

test('uniform, normal and poisson have the right moments', () => {
  const r = createRng(7);
  const n = 20000;
  let su = 0;
  let sn = 0;
  let sn2 = 0;
  let sp = 0;
  let sp2 = 0;
  let sbig = 0;
  for (let i = 0; i < n; i++) {
    su += r.uniform();
    const z = r.normal(2, 3);
    sn += z;
    sn2 += z * z;
    const p = r.poisson(1.4);
    sp += p;
    sp2 += p * p;
    sbig += r.poisson(60);
  }
  assert.ok(Math.abs(su / n - 0.5) < 0.01);
  const mn = sn / n;
  assert.ok(Math.abs(mn - 2) < 0.07, `normal mean ${mn}`);
  assert.ok(Math.abs(Math.sqrt(sn2 / n - mn * mn) - 3) < 0.07);
  const mp = sp / n;
  assert.ok(Math.abs(mp - 1.4) < 0.03, `poisson mean ${mp}`);
  assert.ok(Math.abs(sp2 / n - mp * mp - 1.4) < 0.06, 'poisson variance');
  assert.ok(Math.abs(sbig / n - 60) < 0.25, `poisson(60) mean ${sbig / n}`);
  assert.equal(r.poisson(0), 0);
  assert.throws(() => r.poisson(-1));
});

test('shuffle is a seeded permutation; sampleIndices draws distinct sorted indices', () => {
  const a = createRng(1).shuffle(Array.from({ length: 50 }, (_, i) => i));
  const b = createRng(1).shuffle(Array.from({ length: 50 }, (_, i) => i));
  assert.deepEqual(a, b);
  assert.deepEqual([...a].sort((x, y) => x - y), Array.from({ length: 50 }, (_, i) => i));
  assert.notDeepEqual(a, Array.from({ length: 50 }, (_, i) => i));
  const s = createRng(3).sampleIndices(100, 30);
  assert.equal(s.length, 30);
  assert.equal(new Set(s).size, 30);
  for (let i = 1; i < s.length; i++) assert.ok(s[i] > s[i - 1]);
});

test('state round trip, clone and fork', () => {
  const r = createRng(9);
  r.uniform();
  const copy = rngFromState(r.state());
  const clone = r.clone();
  const next = r.uniform();
  assert.equal(copy.uniform(), next);
  assert.equal(clone.uniform(), next);
  const parent = createRng(5);
  const child = parent.fork();
  const x = Array.from({ length: 5 }, () => child.uniform());
  const y = Array.from({ length: 5 }, () => parent.uniform());
  assert.notDeepEqual(x, y);
  assert.deepEqual(x, Array.from({ length: 5 }, ((g) => () => g.uniform())(createRng(5))));
  assert.throws(() => createRng(1.5));
});

test('logGamma matches factorials', () => {
  assert.ok(Math.abs(logGamma(1)) < 1e-12);
  assert.ok(Math.abs(logGamma(5) - Math.log(24)) < 1e-12);
  assert.ok(Math.abs(logGamma(0.5) - 0.5 * Math.log(Math.PI)) < 1e-12);
});
