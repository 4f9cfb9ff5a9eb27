import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DatabaseHandle } from '../../src/data/db.js';
import { createAccount, setAccountStatus } from '../../src/access/accounts.js';
import { createKeyAuthenticator } from '../../src/access/authenticator.js';
import { DbLoginService } from '../../src/access/login.js';
import { SqlLoginThrottle } from '../../src/access/throttle/index.js';
import { createKeyForAccount, listKeys } from '../../src/access/keys.js';
import { createPlan } from '../../src/access/plans.js';
import { openTestDatabase, uniqueEmail } from './fixture.js';

/** A fresh client address per test, so one test's failures never count against another's. */
let IP = '';
let ipSeq = 0;
beforeEach(() => {
  ipSeq += 1;
  IP = `10.20.${ipSeq >> 8}.${ipSeq & 255}`;
});
const service = () => new DbLoginService(h.db, new SqlLoginThrottle(h.db));

let h: DatabaseHandle;
before(async () => {
  h = await openTestDatabase();
  await createPlan(h.db, { name: 'login-all', all: true });
});
after(async () => {
  await h.close();
});

const BAD = { ok: false, status: 401, error: 'Invalid email or password' };
const T0 = Date.parse('2030-03-01T12:00:00Z');

async function user(password = 'open sesame 42') {
  const email = uniqueEmail('login');
  await createAccount(h.db, { email, password, plan: 'login-all' });
  return { email, password };
}

test('right credentials give a Bearer key that expires after 24 hours and authenticates', async () => {
  const u = await user();
  const out = await service().login(`  ${u.email.toUpperCase()} `, u.password, T0, IP);
  assert.ok(out.ok);
  assert.deepEqual(Object.keys(out.result).sort(), ['api_key', 'expires_at', 'key_id', 'token_type']);
  assert.equal(out.result.token_type, 'Bearer');
  assert.equal(out.result.expires_at, '2030-03-02T12:00:00.000Z');
  assert.match(out.result.api_key, /^tl_/);
  assert.match(out.result.key_id, /^key_/);
  let now = T0;
  const auth = await createKeyAuthenticator(h.db, { now: () => now });
  try {
    const ok = await auth.authenticate(out.result.api_key);
    assert.ok(ok.ok && ok.principal.keyId === out.result.key_id && ok.principal.email === u.email);
    now = T0 + 24 * 3_600_000;
    assert.deepEqual(await auth.authenticate(out.result.api_key), { ok: false, status: 401, error: 'Invalid API key' });
  } finally {
    await auth.close();
  }
});

test('unknown email and wrong password give the same 401, in comparable time', async () => {
  const u = await user();
  const svc = service();
  await svc.login('warm-up@example.test', 'x', T0, IP); // the dummy hash is made once
  const time = async (email: string) => {
    const started = process.hrtime.bigint();
    const out = await svc.login(email, 'wrong password', T0, IP);
    return { out, ms: Number(process.hrtime.bigint() - started) / 1e6 };
  };
  const unknown = await time(uniqueEmail('nobody'));
  const wrong = await time(u.email);
  assert.deepEqual(unknown.out, BAD);
  assert.deepEqual(wrong.out, BAD);
  // Both pay one argon2 verification (~15 ms here); without the dummy hash the unknown email would take ~1 ms.
  assert.ok(unknown.ms > wrong.ms / 3, `unknown ${unknown.ms.toFixed(1)} ms vs wrong ${wrong.ms.toFixed(1)} ms`);
  const noPassword = uniqueEmail('nopass');
  await createAccount(h.db, { email: noPassword, plan: 'login-all' });
  assert.deepEqual(await svc.login(noPassword, '', T0, IP), BAD, 'an account without a password cannot log in');
});

test('right password on an account that is not active: 401, and not counted as a failure', async () => {
  const u = await user();
  const svc = service();
  await setAccountStatus(h.db, { email: u.email, status: 'inactive' });
  assert.deepEqual(await svc.login(u.email, u.password, T0, IP), BAD);
  await setAccountStatus(h.db, { email: u.email, status: 'registered' });
  assert.deepEqual(await svc.login(u.email, u.password, T0, IP), BAD);
  const row = await h.db.selectFrom('login_throttle').select('attempts').where('client', '=', IP).executeTakeFirst();
  assert.equal((row?.attempts ?? []).filter((a) => a.e === u.email).length, 0, 'the right password took its count back');
});

test('lockout: the 11th attempt from one address within 15 minutes is 429 whatever the password, until the oldest failure leaves', async () => {
  const u = await user();
  const svc = service();
  // Ten failures, one a minute from T0.
  for (let i = 0; i < 10; i++) assert.deepEqual(await svc.login(u.email, `guess ${i}`, T0 + i * 60_000, IP), BAD);
  const at = T0 + 10 * 60_000;
  const locked = await svc.login(u.email, u.password, at, IP);
  assert.deepEqual(locked, { ok: false, status: 429, error: 'Rate limit exceeded', limit: 10, windowSeconds: 900, retryAfterSeconds: 300 });
  const lockedWrong = await svc.login(u.email, 'still wrong', at + 500, IP);
  assert.equal(!lockedWrong.ok && lockedWrong.status === 429 && lockedWrong.retryAfterSeconds, 300, '299.5 s rounds up');
  // Locked attempts are not recorded, so they do not extend the lock.
  assert.equal(!(await svc.login(u.email, u.password, T0 + 15 * 60_000 - 1, IP)).ok, true, 'one ms before the oldest leaves');
  const back = await svc.login(u.email, u.password, T0 + 15 * 60_000, IP);
  assert.ok(back.ok, 'recovers exactly when the oldest failure is 15 minutes old');
});

test('a lockout from one address leaves the owner free to sign in from another', async () => {
  const u = await user();
  const svc = service();
  for (let i = 0; i < 10; i++) await svc.login(u.email, 'nope', T0 + i, '198.51.100.7');
  const locked = await svc.login(u.email, u.password, T0 + 100, '198.51.100.7');
  assert.equal(!locked.ok && locked.status, 429);
  assert.ok((await svc.login(u.email, u.password, T0 + 100, '203.0.113.9')).ok, 'another address signs in');
  const mapped = await svc.login(u.email, u.password, T0 + 100, '::ffff:198.51.100.7');
  assert.equal(!mapped.ok && mapped.status, 429, 'the locked address, as a dual-stack socket reports it, is still locked');
});

test('30 failures per address across emails: the 31st email is 429 before its password is checked', async () => {
  const svc = service();
  const ip = IP;
  const owner = await user();
  for (let i = 0; i < 30; i++) assert.deepEqual(await svc.login(uniqueEmail('spray'), 'password guess', T0 + i * 1000, ip), BAD, `email ${i + 1}`);
  const locked = await svc.login(owner.email, owner.password, T0 + 30_000, ip);
  assert.deepEqual(locked, { ok: false, status: 429, error: 'Rate limit exceeded', limit: 30, windowSeconds: 900, retryAfterSeconds: 870 });
  assert.ok((await svc.login(owner.email, owner.password, T0 + 30_000, '198.51.100.31')).ok, 'the owner, from another address');
});

test('IPv6 addresses count by their /64', async () => {
  const u = await user();
  const svc = service();
  for (let i = 0; i < 10; i++) await svc.login(u.email, 'nope', T0 + i, `2001:db8:1:2::${(i + 1).toString(16)}`);
  const same64 = await svc.login(u.email, u.password, T0 + 100, '2001:db8:1:2:ffff:ffff:ffff:ffff');
  assert.equal(!same64.ok && same64.status, 429, 'another address of the same /64 is the same client');
  assert.ok((await svc.login(u.email, u.password, T0 + 100, '2001:db8:1:3::1')).ok, 'another /64 is another client');
});

test('parallel wrong guesses: at most 10 passwords are checked, the rest are 429', async () => {
  const u = await user();
  const a = service();
  const b = service();
  const outcomes = await Promise.all(Array.from({ length: 300 }, (_, i) => (i % 2 ? a : b).login(u.email, `parallel ${i}`, T0, IP)));
  const statuses = outcomes.map((o) => (o.ok ? 200 : o.status));
  assert.equal(statuses.filter((s) => s === 401).length, 10);
  assert.equal(statuses.filter((s) => s === 429).length, 290);
});

test('failures are shared through the database (another service instance sees them), and success clears them', async () => {
  const u = await user();
  const a = service();
  const b = service();
  for (let i = 0; i < 5; i++) await a.login(u.email, 'nope', T0 + i, IP);
  for (let i = 0; i < 5; i++) await b.login(u.email, 'nope', T0 + 10 + i, IP);
  const locked = await a.login(u.email, u.password, T0 + 100, IP);
  assert.equal(!locked.ok && locked.status, 429);
  const lockedB = await b.login(u.email, u.password, T0 + 100, IP);
  assert.equal(!lockedB.ok && lockedB.status, 429);

  // Nine failures then a success: the success clears them, so ten more wrong tries are allowed.
  const v = await user();
  for (let i = 0; i < 9; i++) await a.login(v.email, 'nope', T0 + i, IP);
  assert.ok((await b.login(v.email, v.password, T0 + 20, IP)).ok);
  for (let i = 0; i < 10; i++) assert.deepEqual(await a.login(v.email, 'nope', T0 + 30 + i, IP), BAD);
  const now = await b.login(v.email, v.password, T0 + 60, IP);
  assert.equal(!now.ok && now.status, 429);
});

test('at most 5 active login keys: the sixth and seventh logins revoke the oldest two; CLI keys untouched', async () => {
  const u = await user();
  const svc = service();
  const cli = await createKeyForAccount(h.db, (await h.db.selectFrom('accounts').select('id').where('email', '=', u.email).executeTakeFirstOrThrow()).id, { label: 'cli' });
  const ids: string[] = [];
  for (let i = 0; i < 7; i++) {
    const out = await svc.login(u.email, u.password, T0 + i * 1000, IP);
    assert.ok(out.ok);
    ids.push(out.result.key_id);
  }
  const keys = await listKeys(h.db, { email: u.email }, T0 + 10_000);
  const state = (id: string) => keys.find((k) => k.key_id === id)?.state;
  assert.deepEqual(ids.map(state), ['revoked', 'revoked', 'active', 'active', 'active', 'active', 'active']);
  assert.equal(state(cli.key_id), 'active', 'a CLI key is neither counted nor revoked');
});

test('logout revokes the key at once, for an authenticator that had it cached', async () => {
  const u = await user();
  const svc = service();
  const out = await svc.login(u.email, u.password, T0, IP);
  assert.ok(out.ok);
  const auth = await createKeyAuthenticator(h.db, { now: () => T0 + 1000, pollMs: 60_000 });
  try {
    assert.equal((await auth.authenticate(out.result.api_key)).ok, true);
    await svc.logout(out.result.key_id);
    assert.deepEqual(await auth.authenticate(out.result.api_key), { ok: false, status: 401, error: 'API key is revoked' });
  } finally {
    await auth.close();
  }
});

test('an email with NUL or a lone surrogate is counted and answered like any miss', async () => {
  const svc = service();
  for (const email of ['a\u0000b@example.test', '\ud800@example.test', 'x\udc00y@example.test']) {
    assert.deepEqual(await svc.login(email, 'a wrong password', T0, IP), BAD, JSON.stringify(email));
  }
});
