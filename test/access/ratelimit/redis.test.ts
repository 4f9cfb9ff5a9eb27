import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { RedisRateLimiter } from '../../../src/access/ratelimit/redis.js';
import { checkLimiterSemantics } from './semantics.js';
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
