import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { createRateLimiter } from '../../../src/access/ratelimit/index.js';
import { FallbackRateLimiter } from '../../../src/access/ratelimit/fallback.js';
import { MemoryRateLimiter } from '../../../src/access/ratelimit/memory.js';
import { RedisRateLimiter } from '../../../src/access/ratelimit/redis.js';
import { cleanUp, REDIS_URL, redisUnavailable, uniquePrefix } from './redis-env.js';

const skip = await redisUnavailable();
if (skip) console.log(`# skipping the Redis recovery test: ${skip}`);
const prefix = uniquePrefix();
after(async () => {
  if (!skip) await cleanUp(prefix);
});

/** A pino logger whose lines are kept for assertions. */
function capturingLogger() {
  const lines: { level: number; msg: string }[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      cb();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

const until = async (cond: () => boolean, ms: number) => {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  return cond();
};

test('without a Redis URL the limiter is the in-memory one', async () => {
  const { logger } = capturingLogger();
  const l = await createRateLimiter({ limit: 60, windowSeconds: 60, logger });
  assert.ok(l instanceof MemoryRateLimiter);
  await l.close();
});

test('Redis on a closed port: degraded, logged once, and still limiting from memory', async () => {
  const { logger, lines } = capturingLogger();
  const l = await createRateLimiter({ redisUrl: 'redis://127.0.0.1:1', limit: 3, windowSeconds: 60, logger });
  assert.equal(l.health(), 'degraded');
  const t = 1_000_000;
  const results = [];
  for (let i = 0; i < 5; i++) results.push(await l.hit('k', t + i));
  assert.deepEqual(results.map((d) => d.allowed), [true, true, true, false, false]);
  assert.deepEqual(results.map((d) => d.remaining), [2, 1, 0, 0, 0]);
  assert.equal(results[3].retryAfterSeconds, 60);
  // A plan's own limit is kept while degraded.
  const plan = await l.hit('plan-key', t, 600);
  assert.deepEqual([plan.allowed, plan.limit, plan.remaining], [true, 600, 599]);
  // A bad limit is refused and does not count as Redis trouble.
  await assert.rejects(async () => l.hit('plan-key', t, 0), /Invalid rate limit/);
  await new Promise((r) => setTimeout(r, 300)); // reconnect attempts fail meanwhile
  assert.equal(lines.filter((x) => x.level === 40).length, 1, 'one warning, not one per failure');
  assert.match(lines[0].msg, /Redis is not answering/);
  await l.close();
});

test('Redis that goes away and comes back: degraded meanwhile, shared again after', { skip }, async () => {
  // A TCP relay in front of the real Redis, so the test can cut and restore the connection.
  const target = new URL(REDIS_URL);
  const sockets = new Set<net.Socket>();
  const makeServer = () =>
    net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 6379), target.hostname);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('error', () => {});
        s.on('close', () => sockets.delete(s));
      }
      client.pipe(upstream).pipe(client);
    });
  let server = makeServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;

  const { logger, lines } = capturingLogger();
  // The relay keeps the database index of REDIS_URL, so both limiters count in the same database.
  const redis = new RedisRateLimiter(`redis://127.0.0.1:${port}${target.pathname}`, {
    limit: 5,
    windowSeconds: 60,
    keyPrefix: prefix,
    redisOptions: { retryStrategy: () => 50 },
  });
  const direct = new RedisRateLimiter(REDIS_URL, { limit: 5, windowSeconds: 60, keyPrefix: prefix });
  await direct.connect();
  const l = new FallbackRateLimiter(redis, new MemoryRateLimiter({ limit: 5, windowSeconds: 60 }), logger, { probeEveryMs: 50 });
  await l.start();
  try {
    assert.equal(l.health(), 'ok');
    const t = 3_000_000;
    assert.equal((await l.hit('r', t)).remaining, 4);
    assert.equal((await direct.hit('r', t)).remaining, 3, 'the relayed limiter wrote to the shared store');

    // Cut: close the relay and every connection through it.
    await new Promise<void>((r) => {
      server.close(() => r());
      for (const s of sockets) s.destroy();
    });
    assert.ok(await until(() => l.health() === 'degraded', 2_000), 'reports degraded');
    const local = await l.hit('r', t + 1);
    assert.equal(local.allowed, true);
    assert.equal(local.remaining, 4, 'answered from memory, which has not seen the shared requests');

    // Restore: the probe finds Redis again and the shared count resumes.
    server = makeServer();
    await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
    assert.ok(await until(() => l.health() === 'ok', 5_000), 'back to ok');
    const shared = await l.hit('r', t + 2);
    assert.equal(shared.remaining, 2, 'counts in Redis again (2 earlier + this one)');
    assert.deepEqual(
      lines.map((x) => x.level),
      [40, 30],
      'one warning when lost, one info when back',
    );
  } finally {
    await l.close();
    await direct.close();
    for (const s of sockets) s.destroy();
    server.close();
  }
});
