import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/data/db.js';
import { createLoginThrottle, RedisLoginThrottle, RefusalMemo, SqlLoginThrottle, type LoginThrottle } from '../../src/access/throttle/index.js';
import { clientAddress } from '../../src/access/client-address.js';
import { openTestDatabase } from './fixture.js';
import { cleanUp, REDIS_URL, redisUnavailable, uniquePrefix } from './ratelimit/redis-env.js';

/**
 * The same semantics for every store: the embedded database (one connection), PostgreSQL (a pool of
 * ten, so attempts really race) when TOUCHLINE_TEST_DATABASE_URL is set, and Redis when one answers.
 */
const T0 = Date.parse('2030-05-01T08:00:00Z');
const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function checkSemantics(a: LoginThrottle, b: LoginThrottle): Promise<void> {
  const ip = `10.9.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
  const email = `victim-${randomBytes(4).toString('hex')}@example.test`;

  // 300 parallel attempts on two instances: exactly 10 counted, 290 refused.
  const decisions = await Promise.all(Array.from({ length: 300 }, (_, i) => (i % 2 ? a : b).attempt(email, ip, T0)));
  assert.equal(decisions.filter((d) => d.allowed).length, 10);
  const refused = decisions.filter((d) => !d.allowed);
  assert.ok(refused.every((d) => d.limit === 10 && d.retryAfterSeconds === 900), JSON.stringify(refused[0]));

  // Another address is untouched; the same address with another email still has 20 of its 30.
  assert.equal((await a.attempt(email, `${ip}1`, T0)).allowed, true);
  let allowed = 0;
  for (let i = 0; i < 25; i++) if ((await b.attempt(`other-${i}@example.test`, ip, T0 + 1000 + i)).allowed) allowed++;
  assert.equal(allowed, 20, 'the address has 30 in all');
  const full = await a.attempt('fresh@example.test', ip, T0 + 2000);
  assert.deepEqual(full, { allowed: false, limit: 30, retryAfterSeconds: 900 - 2, freeAtMs: T0 + 900_000 });

  // A right password takes back its own count; clearing removes the email's failures from that address.
  const ip2 = `${ip}2`;
  for (let i = 0; i < 9; i++) await a.attempt(email, ip2, T0 + i);
  const tenth = await a.attempt(email, ip2, T0 + 9);
  assert.ok(tenth.allowed);
  await a.forgive(email, ip2, tenth.ticket, false);
  const again = await b.attempt(email, ip2, T0 + 10);
  assert.ok(again.allowed, 'the forgiven attempt no longer counts');
  await b.forgive(email, ip2, again.ticket, true);
  for (let i = 0; i < 10; i++) assert.equal((await a.attempt(email, ip2, T0 + 20 + i)).allowed, true, `after clearing, attempt ${i + 1}`);
  assert.equal((await a.attempt(email, ip2, T0 + 40)).allowed, false);
  // The window rolls: the oldest of those ten leaves 15 minutes after it was made.
  assert.equal((await a.attempt(email, ip2, T0 + 20 + 15 * 60_000 - 1)).allowed, false);
  assert.equal((await a.attempt(email, ip2, T0 + 20 + 15 * 60_000)).allowed, true);
}

test('client addresses: IPv4, IPv4 mapped into IPv6, and IPv6 by /64', () => {
  assert.equal(clientAddress('203.0.113.5'), '203.0.113.5');
  assert.equal(clientAddress('::ffff:203.0.113.5'), '203.0.113.5');
  assert.equal(clientAddress('2001:db8::1'), '2001:db8:0:0::/64');
  assert.equal(clientAddress('2001:0db8:0000:0000:ffff:1:2:3'), '2001:db8:0:0::/64');
  assert.equal(clientAddress('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
  assert.equal(clientAddress('::1'), '0:0:0:0::/64');
  assert.equal(clientAddress('fe80::1%eth0'), 'fe80:0:0:0::/64');
});

test('SQL throttle on the embedded database', async () => {
  const h = await openTestDatabase();
  cleanups.push(() => h.close());
  await checkSemantics(new SqlLoginThrottle(h.db), new SqlLoginThrottle(h.db));
});

const pgUrl = process.env.TOUCHLINE_TEST_DATABASE_URL;
test('SQL throttle on PostgreSQL: parallel attempts race on a pool of ten connections', { skip: pgUrl ? false : 'TOUCHLINE_TEST_DATABASE_URL is not set' }, async () => {
  const name = `touchline_throttle_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(pgUrl!);
  url.pathname = `/${name}`;
  let h: DatabaseHandle | null = null;
  cleanups.push(async () => {
    await h?.close();
    await admin.query(`drop database if exists ${name}`);
    await admin.end();
  });
  h = await openDatabase({ url: url.toString() });
  await migrateToLatest(h.db);
  const db = h.db;
  await checkSemantics(new SqlLoginThrottle(db), new SqlLoginThrottle(db));
});

const redisSkip = await redisUnavailable();
test('Redis throttle: one script per attempt, shared by two instances', { skip: redisSkip }, async () => {
  const prefix = uniquePrefix();
  const made: RedisLoginThrottle[] = [];
  cleanups.push(async () => {
    for (const t of made) await t.close();
    await cleanUp(prefix);
  });
  for (let i = 0; i < 2; i++) {
    made.push(new RedisLoginThrottle(REDIS_URL, undefined, { keyPrefix: prefix }));
    await made[i].connect();
  }
  await checkSemantics(made[0], made[1]);
});

test('with Redis configured but not answering, the database counts: still atomic, still shared', async () => {
  const h = await openTestDatabase();
  cleanups.push(() => h.close());
  // Port 1: nothing listens, so the connection is refused at once.
  const a = await createLoginThrottle(h.db, { redisUrl: 'redis://127.0.0.1:1' });
  const b = await createLoginThrottle(h.db, { redisUrl: 'redis://127.0.0.1:1' });
  cleanups.push(async () => {
    await a.close();
    await b.close();
  });
  await checkSemantics(a, b);
});

test('as the server builds it (refusals remembered per instance): the same semantics, and a locked pair costs no store call', async () => {
  const h = await openTestDatabase();
  cleanups.push(() => h.close());
  await checkSemantics(await createLoginThrottle(h.db), await createLoginThrottle(h.db));

  const store = new SqlLoginThrottle(h.db);
  let calls = 0;
  const counting: LoginThrottle = {
    settings: store.settings,
    attempt: (...args) => (calls++, store.attempt(...args)),
    forgive: (...args) => store.forgive(...args),
    close: () => store.close(),
  };
  const memo = new RefusalMemo(counting);
  for (let i = 0; i < 10; i++) assert.ok((await memo.attempt('memo@example.test', '10.8.0.1', T0 + i)).allowed);
  const first = await memo.attempt('memo@example.test', '10.8.0.1', T0 + 100);
  assert.ok(!first.allowed);
  const before = calls;
  for (let i = 0; i < 100; i++) assert.deepEqual(await memo.attempt('memo@example.test', '10.8.0.1', T0 + 200), { ...first, retryAfterSeconds: 900 });
  assert.equal(calls, before, 'refused from memory');
  assert.ok((await memo.attempt('other@example.test', '10.8.0.1', T0 + 200)).allowed, 'another email from that address still asks the store');
  assert.ok((await memo.attempt('memo@example.test', '10.8.0.1', T0 + 15 * 60_000)).allowed, 'free again exactly when the oldest failure leaves');
});
