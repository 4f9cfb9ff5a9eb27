/**
 * Plans with their own limit (EXTENSIONS.md): every key of an account on the plan gets it, the 429
 * body's `limit` and the RateLimit-* headers follow it, a change applies to cached keys at once, and
 * with Redis every instance holds the one shared limit. RATE_LIMIT is 60 here, so a plan's own limit
 * is told apart from the setting.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import pino from 'pino';
import { buildApp } from '../../src/app.js';
import { callAdminChannel, serveAdminChannel } from '../../src/admin/channel.js';
import { serverOperationRunner } from '../../src/operations.js';
import { createAccount } from '../../src/access/accounts.js';
import { createDemoLogin, DEMO_RATE_LIMIT } from '../../src/access/bootstrap.js';
import { createKey } from '../../src/access/keys.js';
import { createPlan, updatePlan } from '../../src/access/plans.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/data/db.js';
import { createRuntime } from '../../src/runtime.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { redisReachable } from '../helpers/redis.js';

const json = (res: { body: string }) => JSON.parse(res.body);
let clock = Date.parse('2026-07-01T12:00:00Z');
let t: TestApp;
let channel: Server;
let dir: string;

before(async () => {
  t = await startTestApp({ env: { RATE_LIMIT: '60', RATE_WINDOW_SECONDS: '60' }, now: () => clock });
  dir = mkdtempSync(join(tmpdir(), 'touchline-plan-limit-'));
  // The server's own runner on its socket, as `touchline serve` wires it: what the CLI talks to.
  channel = await serveAdminChannel(
    join(dir, 'admin.sock'),
    serverOperationRunner({ handle: t.handle, config: t.config, logger: pino({ level: 'silent' }), after: () => t.runtime.world.refresh() }),
  );
  await createPlan(t.handle.db, { name: 'limit-default', all: true });
});

after(async () => {
  await new Promise<void>((r) => (channel ? channel.close(() => r()) : r()));
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const cmd = (op: string, args: Record<string, unknown>) => callAdminChannel(join(dir, 'admin.sock'), op, args, () => {});

let n = 0;
/** A new plan (all coverage) with `rateLimit`, and a key of an account on it. */
async function keyOnPlan(rateLimit?: number): Promise<{ plan: string; key: string }> {
  const plan = `limit-${++n}`;
  await createPlan(t.handle.db, { name: plan, all: true, rateLimit });
  const email = `limit${n}@club.example`;
  await createAccount(t.handle.db, { email, plan });
  return { plan, key: (await createKey(t.handle.db, { email })).api_key };
}

const headers = (res: { headers: Record<string, unknown> }) => [res.headers['ratelimit-limit'], res.headers['ratelimit-remaining']];

describe('a plan with its own limit', () => {
  test('its keys get the plan\'s limit: headers count down from it, the 429 body names it', async () => {
    const { key } = await keyOnPlan(5);
    const start = (clock += 120_000);
    for (let i = 1; i <= 5; i++) {
      clock = start + i * 1000;
      const res = await t.get('/v1/player_positions', key);
      assert.equal(res.statusCode, 200);
      assert.deepEqual(headers(res), ['5', String(5 - i)], `request ${i}`);
    }
    clock = start + 10_000;
    const rejected = await t.get('/v1/player_positions', key);
    assert.equal(rejected.statusCode, 429);
    // The oldest counted request (start + 1 s) leaves at start + 61 s: 51 s from now.
    assert.deepEqual(json(rejected), { error: 'Rate limit exceeded', limit: 5, window_seconds: 60, retry_after_seconds: 51 });
    assert.deepEqual(headers(rejected), ['5', '0']);
    assert.equal(rejected.headers['retry-after'], '51');
    assert.equal(rejected.headers['ratelimit-reset'], '51');
  });

  test('every key of every account on the plan gets it; other plans keep the setting', async () => {
    const { plan, key } = await keyOnPlan(1000);
    await createAccount(t.handle.db, { email: `second-${plan}@club.example`, plan });
    const second = (await createKey(t.handle.db, { email: `second-${plan}@club.example` })).api_key;
    const third = (await createKey(t.handle.db, { email: `second-${plan}@club.example` })).api_key;
    for (const k of [key, second, third]) assert.deepEqual(headers(await t.get('/v1/player_positions', k)), ['1000', '999']);
    const other = await keyOnPlan();
    assert.deepEqual(headers(await t.get('/v1/player_positions', other.key)), ['60', '59']);
    assert.deepEqual(headers(await t.get('/v1/player_positions')), ['60', '59'], 'the bootstrap key: the setting');
  });

  test('the demo login\'s plan allows comfortable browsing', async () => {
    const demo = await createDemoLogin(t.handle.db);
    const res = await t.get('/v1/player_positions', demo.api_key);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(headers(res), [String(DEMO_RATE_LIMIT), String(DEMO_RATE_LIMIT - 1)]);
    const login = await t.post('/v1/auth/login', { email: demo.email, password: demo.password }, null);
    assert.equal(login.statusCode, 200);
    assert.equal((await t.get('/v1/player_positions', json(login).api_key)).headers['ratelimit-limit'], String(DEMO_RATE_LIMIT));
  });
});

describe('a change of a plan\'s limit is in force at once', () => {
  test('raised, lowered and reset on a cached key, through this instance\'s handle', async () => {
    const { plan, key } = await keyOnPlan(3);
    clock += 120_000;
    for (let i = 0; i < 3; i++) assert.equal((await t.get('/v1/player_positions', key)).statusCode, 200);
    assert.equal((await t.get('/v1/player_positions', key)).statusCode, 429);
    await updatePlan(t.handle.db, { name: plan, rateLimit: 4 });
    const raised = await t.get('/v1/player_positions', key);
    assert.equal(raised.statusCode, 200, 'raised: the next request passes');
    assert.deepEqual(headers(raised), ['4', '0']);
    await updatePlan(t.handle.db, { name: plan, rateLimit: 2 });
    const lowered = await t.get('/v1/player_positions', key);
    assert.equal(lowered.statusCode, 429);
    assert.equal(json(lowered).limit, 2);
    await updatePlan(t.handle.db, { name: plan, rateLimit: null });
    assert.deepEqual(headers(await t.get('/v1/player_positions', key)), ['60', '55'], 'back to the setting, 4 counted before');
  });

  test('through the running server\'s admin channel (the CLI\'s path), 20 times with no pause', async () => {
    const { plan, key } = await keyOnPlan(10);
    assert.equal((await t.get('/v1/player_positions', key)).headers['ratelimit-limit'], '10');
    clock += 120_000;
    for (let i = 0; i < 20; i++) {
      const limit = i % 2 === 0 ? 500 + i : 100 + i;
      await cmd('access.plans.update', { name: plan, rateLimit: limit });
      const res = await t.get('/v1/player_positions', key);
      assert.equal(res.statusCode, 200);
      assert.deepEqual(headers(res), [String(limit), String(limit - i - 1)], `round ${i}`);
    }
    await cmd('access.plans.update', { name: plan, rateLimit: null });
    assert.equal((await t.get('/v1/player_positions', key)).headers['ratelimit-limit'], '60');
  });

  test('a plan update that names an unknown competition fails and leaves the limit as it was', async () => {
    const { plan, key } = await keyOnPlan(7);
    await assert.rejects(cmd('access.plans.update', { name: plan, competitions: ['NOT_A_LEAGUE'], rateLimit: 9 }), /Unknown competition: NOT_A_LEAGUE; nothing was changed/);
    const res = await t.get('/v1/competitions', key);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['ratelimit-limit'], '7');
    assert.ok((json(res) as { competitions: string[] }).competitions.length > 1, 'still all coverage');
  });
});

describe('on PostgreSQL, another instance', () => {
  const pgUrl = process.env.TOUCHLINE_TEST_DATABASE_URL;
  test('sees a plan\'s new limit on a key it has cached, without a restart', { skip: pgUrl ? false : 'PostgreSQL only (TOUCHLINE_TEST_DATABASE_URL)' }, async () => {
    // Instance B: its own connection to the test's database, listening for access changes as served.
    const name = (await sql<{ name: string }>`select current_database() as name`.execute(t.handle.db)).rows[0].name;
    const url = new URL(pgUrl!);
    url.pathname = `/${name}`;
    const handle = await openDatabase({ url: url.toString() });
    const logger = pino({ level: 'silent' });
    const runtime = await createRuntime(loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: url.toString(), RATE_LIMIT: '60' }), handle, logger, { dataPollMs: 0 });
    const app = await buildApp(runtime.deps, { logger });
    try {
      const { plan, key } = await keyOnPlan(5);
      const limitOnB = async () => (await app.inject({ method: 'GET', url: '/v1/player_positions', headers: { 'x-api-key': key } })).headers['ratelimit-limit'];
      assert.equal(await limitOnB(), '5');
      // Changed through instance A; B learns of it by NOTIFY (the poll is the fallback).
      await updatePlan(t.handle.db, { name: plan, rateLimit: 300 });
      let seen = await limitOnB();
      for (const end = Date.now() + 5_000; seen !== '300' && Date.now() < end; seen = await limitOnB()) await new Promise((r) => setTimeout(r, 20));
      assert.equal(seen, '300');
    } finally {
      await app.close();
      await runtime.close();
      await handle.close();
    }
  });
});

describe('a plan\'s limit shared on Redis', async () => {
  const redisUrl = process.env.TOUCHLINE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const reachable = await redisReachable(redisUrl);
  test('two instances with different settings hold the plan\'s one limit', { skip: reachable ? false : `no Redis at ${redisUrl}` }, async () => {
    const logger = pino({ level: 'silent' });
    // The instances' own settings differ on purpose: the plan's limit travels with each hit.
    const runtimes = [
      await createRuntime(loadConfig({ LOG_LEVEL: 'silent', REDIS_URL: redisUrl, RATE_LIMIT: '60' }), t.handle, logger, { dataPollMs: 0 }),
      await createRuntime(loadConfig({ LOG_LEVEL: 'silent', REDIS_URL: redisUrl, RATE_LIMIT: '2' }), t.handle, logger, { dataPollMs: 0 }),
    ];
    const apps = await Promise.all(runtimes.map((r) => buildApp(r.deps, { logger })));
    const ask = (i: number, key: string) => apps[i % 2].inject({ method: 'GET', url: '/v1/player_positions', headers: { 'x-api-key': key } });
    try {
      assert.equal(json(await apps[0].inject({ method: 'GET', url: '/v1/health' })).rate_limit, 'ok');
      const { plan, key } = await keyOnPlan(6);
      for (let i = 0; i < 6; i++) {
        const res = await ask(i, key);
        assert.equal(res.statusCode, 200, `request ${i + 1}`);
        assert.deepEqual(headers(res), ['6', String(5 - i)]);
      }
      for (let i = 0; i < 2; i++) {
        const res = await ask(i, key);
        assert.equal(res.statusCode, 429);
        assert.equal(json(res).limit, 6);
        assert.equal(res.headers['ratelimit-limit'], '6');
      }
      // A raised limit reaches both instances' cached keys (same handle: dropped on commit).
      await updatePlan(t.handle.db, { name: plan, rateLimit: 8 });
      for (let i = 0; i < 2; i++) assert.deepEqual(headers(await ask(i, key)), ['8', String(1 - i)]);
      assert.equal((await ask(0, key)).statusCode, 429);
    } finally {
      for (const app of apps) await app.close();
      for (const r of runtimes) await r.close();
    }
  });
});
