import assert from 'node:assert/strict';
import type { RateLimiter } from '../../../src/access/interface.js';

/**
 * The rolling-window contract every store must meet (limit 60, window 60 s), driven by an injected
 * clock. With several limiters, requests rotate over them: a shared store must count them as one.
 */
export async function checkLimiterSemantics(limiters: RateLimiter[], subject: string): Promise<void> {
  const at = (i: number) => limiters[i % limiters.length];
  const t0 = 1_700_000_000_000;
  // 60 requests one second apart: all accepted; remaining counts down, reset is the oldest's exit.
  for (let i = 0; i < 60; i++) {
    const d = await at(i).hit(subject, t0 + i * 1000);
    assert.equal(d.allowed, true, `request ${i + 1} accepted`);
    assert.equal(d.limit, 60);
    assert.equal(d.remaining, 59 - i, `remaining after request ${i + 1}`);
    assert.equal(d.resetSeconds, 60 - i, `reset after request ${i + 1}`);
  }
  // The 61st, 0.5 s after the 60th: rejected, oldest (t0) leaves at t0 + 60 s, 0.5 s later -> 1 s.
  const rejected = await at(60).hit(subject, t0 + 59_500);
  assert.equal(rejected.allowed, false);
  assert.equal(rejected.remaining, 0);
  assert.equal(rejected.retryAfterSeconds, 1);
  assert.equal(rejected.resetSeconds, 1);
  // Rejections do not count: many more rejected hits do not push recovery later.
  for (let i = 0; i < 20; i++) assert.equal((await at(i).hit(subject, t0 + 59_600)).allowed, false);
  const justBefore = await at(1).hit(subject, t0 + 59_999);
  assert.equal(justBefore.allowed, false);
  assert.equal(justBefore.retryAfterSeconds, 1, 'at least 1 second');
  // Exactly when the oldest leaves, one slot opens, and only one.
  const recovered = await at(2).hit(subject, t0 + 60_000);
  assert.equal(recovered.allowed, true, 'recovers exactly when the oldest leaves the window');
  assert.equal(recovered.remaining, 0);
  assert.equal(recovered.resetSeconds, 1, 'next oldest (t0 + 1 s) leaves in 1 s');
  const again = await at(3).hit(subject, t0 + 60_000);
  assert.equal(again.allowed, false);
  assert.equal(again.retryAfterSeconds, 1);
  // A long rejection: retry_after counts whole seconds up to the oldest's exit.
  const burstSubject = `${subject}-burst`;
  for (let i = 0; i < 60; i++) assert.equal((await at(i).hit(burstSubject, t0)).allowed, true);
  const wait = await at(0).hit(burstSubject, t0 + 10_200);
  assert.equal(wait.allowed, false);
  assert.equal(wait.retryAfterSeconds, 50); // 49.8 s rounded up
  const retryEarly = await at(1).hit(burstSubject, t0 + 10_200 + 49_000);
  assert.equal(retryEarly.allowed, false, 'a retry before retry_after has passed is rejected again');
  const retryOnTime = await at(1).hit(burstSubject, t0 + 10_200 + 50_000);
  assert.equal(retryOnTime.allowed, true);
  assert.equal(retryOnTime.remaining, 59, 'the whole burst left together');
  // Nothing counted: reset is 0 only for a subject with nothing in the window (checked on a fresh one).
  const fresh = await at(0).hit(`${subject}-fresh`, t0);
  assert.equal(fresh.remaining, 59);
  assert.equal(fresh.resetSeconds, 60);
}

/**
 * A limit given with each hit (a plan's own) wins over the store's setting, and a changed limit applies
 * from the next hit: raised, the subject may go on at once; lowered below what is counted, it waits
 * until enough requests have left the window. With several limiters (whatever their own settings),
 * requests rotate over them and must be judged as by one.
 */
export async function checkPerCallLimits(limiters: RateLimiter[], subject: string): Promise<void> {
  const at = (i: number) => limiters[i % limiters.length];
  const t0 = 1_800_000_000_000;
  for (let i = 0; i < 3; i++) {
    const d = await at(i).hit(subject, t0 + i * 1000, 3);
    assert.deepEqual([d.allowed, d.limit, d.remaining], [true, 3, 2 - i], `request ${i + 1}`);
  }
  const full = await at(3).hit(subject, t0 + 3000, 3);
  assert.deepEqual([full.allowed, full.limit, full.remaining, full.retryAfterSeconds], [false, 3, 0, 57]);
  // Raised to 5 (the plan changed): the next request passes, and the count goes on from 3.
  const raised = await at(4).hit(subject, t0 + 3000, 5);
  assert.deepEqual([raised.allowed, raised.limit, raised.remaining, raised.resetSeconds], [true, 5, 1, 57]);
  // Lowered to 2 with 4 counted: a slot opens when the third oldest (t0 + 2 s) leaves, at t0 + 62 s.
  const lowered = await at(5).hit(subject, t0 + 4000, 2);
  assert.deepEqual([lowered.allowed, lowered.limit, lowered.remaining, lowered.retryAfterSeconds], [false, 2, 0, 58]);
  assert.equal((await at(6).hit(subject, t0 + 61_999, 2)).allowed, false, 'not before');
  const open = await at(7).hit(subject, t0 + 62_000, 2);
  assert.deepEqual([open.allowed, open.limit, open.remaining], [true, 2, 0]);
}
