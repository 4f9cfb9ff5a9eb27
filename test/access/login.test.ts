import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DatabaseHandle } from '../../src/data/db.js';
import { createAccount, setAccountStatus } from '../../src/access/accounts.js';
import { createKeyAuthenticator } from '../../src/access/authenticator.js';
import { DbLoginService } from '../../src/access/login.js';
import { createPlan } from '../../src/access/plans.js';
import { openTestDatabase, uniqueEmail } from './fixture.js';

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
  const out = await new DbLoginService(h.db).login(`  ${u.email.toUpperCase()} `, u.password, T0);
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
  const svc = new DbLoginService(h.db);
  await svc.login('warm-up@example.test', 'x', T0); // the dummy hash is made once
  const time = async (email: string) => {
    const started = process.hrtime.bigint();
    const out = await svc.login(email, 'wrong password', T0);
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
  assert.deepEqual(await svc.login(noPassword, '', T0), BAD, 'an account without a password cannot log in');
});

test('right password on an account that is not active: 401, and not counted as a failure', async () => {
  const u = await user();
  const svc = new DbLoginService(h.db);
  await setAccountStatus(h.db, { email: u.email, status: 'inactive' });
  assert.deepEqual(await svc.login(u.email, u.password, T0), BAD);
  await setAccountStatus(h.db, { email: u.email, status: 'registered' });
  assert.deepEqual(await svc.login(u.email, u.password, T0), BAD);
  const failures = await h.db.selectFrom('login_failures').selectAll().where('email', '=', u.email).execute();
  assert.equal(failures.length, 0);
});

test('lockout: the 11th attempt within 15 minutes is 429 whatever the password, until the oldest failure leaves', async () => {
  const u = await user();
  const svc = new DbLoginService(h.db);
  // Ten failures, one a minute from T0.
  for (let i = 0; i < 10; i++) assert.deepEqual(await svc.login(u.email, `guess ${i}`, T0 + i * 60_000), BAD);
  const at = T0 + 10 * 60_000;
  const locked = await svc.login(u.email, u.password, at);
  assert.deepEqual(locked, { ok: false, status: 429, error: 'Rate limit exceeded', limit: 10, windowSeconds: 900, retryAfterSeconds: 300 });
  const lockedWrong = await svc.login(u.email, 'still wrong', at + 500);
  assert.equal(lockedWrong.ok, false);
  assert.equal(!lockedWrong.ok && lockedWrong.status, 429);
  assert.equal(!lockedWrong.ok && lockedWrong.status === 429 && lockedWrong.retryAfterSeconds, 300, '299.5 s rounds up');
  // Locked attempts are not recorded, so they do not extend the lock.
  assert.equal(!(await svc.login(u.email, u.password, T0 + 15 * 60_000 - 1)).ok, true, 'one ms before the oldest leaves');
  const back = await svc.login(u.email, u.password, T0 + 15 * 60_000);
  assert.ok(back.ok, 'recovers exactly when the oldest failure is 15 minutes old');
});

test('failures are shared through the database (another service instance sees them), and success clears them', async () => {
  const u = await user();
  const a = new DbLoginService(h.db);
  const b = new DbLoginService(h.db);
  for (let i = 0; i < 5; i++) await a.login(u.email, 'nope', T0 + i);
  for (let i = 0; i < 5; i++) await b.login(u.email, 'nope', T0 + 10 + i);
  const locked = await a.login(u.email, u.password, T0 + 100);
  assert.equal(!locked.ok && locked.status, 429);
  const lockedB = await b.login(u.email, u.password, T0 + 100);
  assert.equal(!lockedB.ok && lockedB.status, 429);

  // Nine failures then a success: the success clears them, so ten more wrong tries are allowed.
  const v = await user();
  for (let i = 0; i < 9; i++) await a.login(v.email, 'nope', T0 + i);
  assert.ok((await b.login(v.email, v.password, T0 + 20)).ok);
  for (let i = 0; i < 10; i++) assert.deepEqual(await a.login(v.email, 'nope', T0 + 30 + i), BAD);
  const now = await b.login(v.email, v.password, T0 + 60);
  assert.equal(!now.ok && now.status, 429);
});

test('failures past the window are pruned when new ones are recorded', async () => {
  const u = await user();
  const svc = new DbLoginService(h.db);
  await svc.login(u.email, 'nope', T0);
  await svc.login(uniqueEmail('other'), 'nope', T0 + 15 * 60_000);
  const left = await h.db.selectFrom('login_failures').selectAll().where('email', '=', u.email).execute();
  assert.equal(left.length, 0);
});
