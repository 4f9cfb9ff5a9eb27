/**
 * REDIS_PREFIX: deployments on one Redis with different prefixes keep their rate limits and login
 * lockouts apart; with the same prefix they share them. Three apps on one database and one Redis
 * (A and C share a prefix, B has its own), so the same API key and address meet all three.
 * Needs TOUCHLINE_TEST_REDIS_URL (`.ci/run` sets it).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import pino from 'pino';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createRuntime, type Runtime } from '../../src/runtime.js';
import { startTestApp, TEST_KEY, type TestApp } from '../helpers/app.js';

const REDIS = process.env.TOUCHLINE_TEST_REDIS_URL;
const skip = !REDIS ? 'set TOUCHLINE_TEST_REDIS_URL to run the shared-Redis tests (.ci/run does)' : false;

const LIMIT = 3;
/** This run's own prefixes: a lockout of an earlier run (15 minutes) must not be found. */
const SHARED = `tl-test-${process.pid}-${Date.now()}-shared:`;
const OTHER = `tl-test-${process.pid}-${Date.now()}-other:`;

describe('REDIS_PREFIX on one Redis', { skip }, () => {
  let a: TestApp;
  const more: { app: FastifyInstance; runtime: Runtime }[] = [];
  let b: FastifyInstance;
  let c: FastifyInstance;

  /** Another deployment's app on A's database (the same keys and accounts), with its own Redis prefix. */
  async function deployment(prefix: string): Promise<FastifyInstance> {
    const config = loadConfig({ LOG_LEVEL: 'silent', ENGINE_WORKERS: '1', TOUCHLINE_MODELS_DIR: a.config.modelsDir, REDIS_URL: REDIS!, REDIS_PREFIX: prefix, RATE_LIMIT: String(LIMIT) });
    const logger = pino({ level: 'silent' });
    const runtime = await createRuntime(config, a.handle, logger, { dataPollMs: 0, world: a.runtime.world, warm: false });
    const app = await buildApp(runtime.deps, { logger });
    await app.ready();
    more.push({ app, runtime });
    return app;
  }

  before(async () => {
    a = await startTestApp({ env: { REDIS_URL: REDIS!, REDIS_PREFIX: SHARED, RATE_LIMIT: String(LIMIT) } });
    b = await deployment(OTHER);
    c = await deployment(SHARED);
  });

  after(async () => {
    for (const d of more) {
      await d.app.close();
      await d.runtime.close();
    }
    await a?.close();
    if (REDIS) {
      const redis = new Redis(REDIS);
      for (const prefix of [SHARED, OTHER]) {
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length) await redis.del(...keys);
      }
      redis.disconnect();
    }
  });

  const ask = (app: FastifyInstance) => app.inject({ method: 'GET', url: '/v1/player_positions', headers: { 'x-api-key': TEST_KEY } });
  const login = (app: FastifyInstance, ip: string) =>
    app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      remoteAddress: ip,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'nobody@prefix.test', password: 'not the password at all' }),
    });

  test('every key the deployments wrote starts with their prefix', async () => {
    await ask(a.app);
    await ask(b);
    const redis = new Redis(REDIS!);
    try {
      assert.ok((await redis.keys(`${SHARED}rl:*`)).length >= 1);
      assert.ok((await redis.keys(`${OTHER}rl:*`)).length >= 1);
      assert.equal((await redis.keys('touchline:*')).filter((k) => k.includes(SHARED) || k.includes(OTHER)).length, 0);
    } finally {
      redis.disconnect();
    }
  });

  test('the rate limit: the same prefix shares one count, another prefix counts apart', async () => {
    // the test before used one request on A and one on B
    assert.equal((await ask(a.app)).statusCode, 200);
    assert.equal((await ask(c)).statusCode, 200, 'the third request of the shared count');
    const refusedOnA = await ask(a.app);
    assert.equal(refusedOnA.statusCode, 429, 'A and C share the limit');
    assert.equal((await ask(c)).statusCode, 429);
    const onB = await ask(b);
    assert.equal(onB.statusCode, 200, 'B keeps its own count');
    assert.equal(onB.headers['ratelimit-remaining'], String(LIMIT - 2));
  });

  test('login lockouts: the same prefix shares them, another prefix keeps its own', async () => {
    // a private address per run (the lockout is per address, and per address and email)
    const ip = `10.${process.pid % 250}.${Date.now() % 250}.7`;
    let status = 0;
    let attempts = 0;
    while (status !== 429 && attempts < 40) {
      status = (await login(a.app, ip)).statusCode;
      attempts++;
    }
    assert.equal(status, 429, 'A locks the address out');
    assert.ok(attempts > 1);
    assert.equal((await login(c, ip)).statusCode, 429, 'C, on the same prefix, finds the lockout');
    assert.equal((await login(b, ip)).statusCode, 401, 'B, on another prefix, does not');
  });
});
