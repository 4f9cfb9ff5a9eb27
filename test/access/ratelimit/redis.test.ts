import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { RedisRateLimiter } from '../../../src/access/ratelimit/redis.js';
import { checkLimiterSemantics, checkPerCallLimits } from './semantics.js';
import { cleanUp, REDIS_URL, redisUnavailable, uniquePrefix } from './redis-env.js';

const skip = await redisUnavailable();
if (skip) console.log(`# skipping Redis limiter tests: ${skip}`);
const prefix = uniquePrefix();
const limiters: RedisRateLimiter[] = [];

function limiter(limit = 60, windowSeconds = 60): RedisRateLimiter {
  const l = new RedisRateLimiter(REDIS_URL, { limit, windowSeconds, keyPrefix: prefix });
  limiters.push(l);
  return l;
}

before(async () => {
  if (!skip) for (const l of [limiter(), limiter()]) await l.connect();
});

after(async () => {
  for (const l of limiters) await l.close();
  if (!skip) await cleanUp(prefix);
});

test('redis limiter: rolling window semantics on one instance', { skip }, async () => {
  await checkLimiterSemantics([limiters[0]], 'single');
});

test('redis limiter: two instances share one limit', { skip }, async () => {
  await checkLimiterSemantics([limiters[0], limiters[1]], 'shared');
});

test('redis limiter: the limit travels with each hit, so instances with different settings agree', { skip }, async () => {
  // Instances configured 60 and 10: each hit's own limit decides, whichever instance sends it.
  const a = limiter(60);
  const b = limiter(10);
  await a.connect();
  await b.connect();
  await checkPerCallLimits([a, b], 'per-call');
  const t = 2_200_000_000_000;
  // Hits of one turn, each with its own limit, go in one script call and keep their limits.
  const mixed = await Promise.all([a.hit('mixed-1', t, 1), a.hit('mixed-1', t, 1), a.hit('mixed-2', t, 600), a.hit('mixed-3', t)]);
  assert.deepEqual(mixed.map((d) => [d.allowed, d.limit, d.remaining]), [[true, 1, 0], [false, 1, 0], [true, 600, 599], [true, 60, 59]]);
  await assert.rejects(async () => a.hit('x', t, 0), /Invalid rate limit/);
});

test('redis limiter: only accepted requests are stored, one member each, and the key expires', { skip }, async () => {
  const l = limiter(3, 10);
  await l.connect();
  const t = 2_000_000_000_000;
  for (let i = 0; i < 5; i++) await l.hit('members', t); // same millisecond: members must still be unique
  const r = new Redis(REDIS_URL);
  try {
    assert.equal(await r.zcard(`${prefix}members`), 3);
    const ttl = await r.pttl(`${prefix}members`);
    assert.ok(ttl > 0 && ttl <= 10_000, `ttl ${ttl}`);
  } finally {
    r.disconnect();
  }
  assert.equal(l.health(), 'ok');
});

test('redis limiter: hits of one turn go in one call and are counted in arrival order', { skip }, async () => {
  const l = limiter(5, 60);
  await l.connect();
  // Count the commands this client sends (observed, not replaced).
  const sent: string[] = [];
  const send = l.client.sendCommand.bind(l.client);
  l.client.sendCommand = (command, stream) => {
    sent.push(command.name);
    return send(command, stream);
  };
  const t = 2_100_000_000_000;
  const decisions = await Promise.all(Array.from({ length: 8 }, (_, i) => l.hit(i % 2 === 0 ? 'turn-a' : 'turn-b', t + i)));
  // (an 'eval' may follow when this Redis has not seen the script yet)
  assert.equal(sent.filter((name) => name === 'evalsha').length, 1, `one script call for the whole turn: ${sent.join(', ')}`);
  // a: hits 0,2,4,6 and b: hits 1,3,5,7 all fit, counted in the order they arrived.
  assert.deepEqual(decisions.map((d) => d.remaining), [4, 4, 3, 3, 2, 2, 1, 1]);
  const more = await Promise.all([l.hit('turn-a', t + 10), l.hit('turn-a', t + 11)]);
  assert.deepEqual(more.map((d) => [d.allowed, d.remaining]), [[true, 0], [false, 0]]);
  assert.equal(more[1].retryAfterSeconds, 60);
});

test('redis limiter: an unreachable server makes hit() fail fast', async () => {
  const l = new RedisRateLimiter('redis://127.0.0.1:1', { limit: 5, windowSeconds: 60, redisOptions: { retryStrategy: () => null } });
  l.client.on('error', () => {});
  await assert.rejects(l.connect());
  const started = Date.now();
  await assert.rejects(l.hit('x', Date.now()));
  assert.ok(Date.now() - started < 500);
  assert.equal(l.health(), 'degraded');
  await l.close();
});
