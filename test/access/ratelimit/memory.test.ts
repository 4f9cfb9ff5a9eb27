import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryRateLimiter } from '../../../src/access/ratelimit/memory.js';
import { checkLimiterSemantics, checkPerCallLimits } from './semantics.js';

test('memory limiter: rolling window semantics (shared checks)', async () => {
  const limiter = new MemoryRateLimiter({ limit: 60, windowSeconds: 60 });
  await checkLimiterSemantics([limiter], 'k1');
  await limiter.close();
});

test('memory limiter: a limit given per call wins over the setting, raised or lowered (shared checks)', async () => {
  const limiter = new MemoryRateLimiter({ limit: 60, windowSeconds: 60 });
  await checkPerCallLimits([limiter], 'plan');
  // Without one, the setting; subjects keep their own limits side by side.
  const t = 1_900_000_000_000;
  assert.deepEqual([(await limiter.hit('default', t)).limit, (await limiter.hit('default', t)).remaining], [60, 58]);
  assert.deepEqual([(await limiter.hit('big', t, 1000)).limit, (await limiter.hit('big', t, 1000)).remaining], [1000, 998]);
  for (const bad of [0, -1, 1.5, Number.NaN]) await assert.rejects(async () => limiter.hit('x', t, bad), /Invalid rate limit/);
  await limiter.close();
});

test('memory limiter: a large per-call limit counts exactly past the ring\'s first sizes', async () => {
  const limiter = new MemoryRateLimiter({ limit: 2, windowSeconds: 60 });
  const t = 2_000_000;
  for (let i = 0; i < 600; i++) assert.equal((await limiter.hit('demo', t + i, 600)).remaining, 599 - i);
  const d = await limiter.hit('demo', t + 600, 600);
  assert.deepEqual([d.allowed, d.retryAfterSeconds], [false, 60]);
  await limiter.close();
});

test('memory limiter: subjects are independent', async () => {
  const limiter = new MemoryRateLimiter({ limit: 2, windowSeconds: 10 });
  const t = 1_000_000;
  assert.equal((await limiter.hit('a', t)).allowed, true);
  assert.equal((await limiter.hit('a', t)).allowed, true);
  assert.equal((await limiter.hit('a', t)).allowed, false);
  assert.equal((await limiter.hit('b', t)).allowed, true);
  assert.equal((await limiter.hit('b', t)).remaining, 0);
});

test('memory limiter: idle subjects are dropped, so memory follows active keys', async () => {
  const limiter = new MemoryRateLimiter({ limit: 5, windowSeconds: 60 });
  const t0 = 5_000_000;
  for (let i = 0; i < 1000; i++) await limiter.hit(`key-${i}`, t0);
  assert.equal(limiter.subjects, 1000);
  // One window later every one of them is idle; the next request sweeps them.
  await limiter.hit('fresh', t0 + 60_000);
  assert.equal(limiter.subjects, 1);
  assert.equal(limiter.health(), 'ok');
});

test('memory limiter: a smaller window and limit from settings', async () => {
  const limiter = new MemoryRateLimiter({ limit: 3, windowSeconds: 2 });
  const t = 10_000;
  for (let i = 0; i < 3; i++) assert.equal((await limiter.hit('s', t + i * 100)).allowed, true);
  const no = await limiter.hit('s', t + 500);
  assert.equal(no.allowed, false);
  assert.equal(no.retryAfterSeconds, 2); // oldest (t) leaves at t + 2000: 1500 ms -> 2 s
  assert.equal((await limiter.hit('s', t + 1999)).allowed, false);
  assert.equal((await limiter.hit('s', t + 2000)).allowed, true);
  assert.throws(() => new MemoryRateLimiter({ limit: 0, windowSeconds: 60 }));
});

test('memory limiter: agrees with a plain list of accepted times on a long random sequence', async () => {
  // Exercises ring growth and wrap-around against the definition of the rolling window.
  const limit = 20;
  const windowMs = 5_000;
  const limiter = new MemoryRateLimiter({ limit, windowSeconds: windowMs / 1000 });
  const accepted: Record<string, number[]> = { a: [], b: [] };
  let seed = 12345;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  let now = 1_000;
  let rejected = 0;
  for (let i = 0; i < 5_000; i++) {
    now += Math.floor(rand() * 300);
    const subject = rand() < 0.7 ? 'a' : 'b';
    const inWindow = accepted[subject].filter((t) => t + windowMs > now);
    const d = await limiter.hit(subject, now);
    assert.equal(d.allowed, inWindow.length < limit, `step ${i}`);
    if (d.allowed) inWindow.push(now);
    else rejected++;
    accepted[subject] = inWindow;
    assert.equal(d.remaining, d.allowed ? limit - inWindow.length : 0);
    assert.equal(d.resetSeconds, Math.ceil((inWindow[0] + windowMs - now) / 1000));
  }
  assert.ok(rejected > 500 && rejected < 4_000, `both outcomes exercised (${rejected} rejected)`);
});
