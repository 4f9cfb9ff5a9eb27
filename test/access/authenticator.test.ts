import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Kysely } from 'kysely';
import type { DatabaseHandle } from '../../src/data/db.js';
import { SerialPGliteDialect } from '../../src/data/pglite-dialect.js';
import type { Database } from '../../src/data/schema.js';
import { createAccount, setAccountPlan, setAccountStatus } from '../../src/access/accounts.js';
import { createKeyAuthenticator, DbKeyAuthenticator, parseTimestamp } from '../../src/access/authenticator.js';
import { createKey, createKeyForAccount, revokeKey } from '../../src/access/keys.js';
import { createPlan, updatePlan } from '../../src/access/plans.js';
import { ACCESS_CHANNEL, bumpAccessVersion } from '../../src/access/version.js';
import { openTestDatabase, uniqueEmail } from './fixture.js';

let h: DatabaseHandle;
const authenticators: DbKeyAuthenticator[] = [];
before(async () => {
  h = await openTestDatabase();
  await createPlan(h.db, { name: 'auth-all', all: true });
  await createPlan(h.db, { name: 'auth-pl', competitions: ['PREMIER_LEAGUE'], clubs: ['C00000000000000000000000001'], allowUnknown: true });
});
after(async () => {
  for (const a of authenticators) await a.close();
  await h.close();
});

async function authenticator(opts: Parameters<typeof createKeyAuthenticator>[1] = {}) {
  const a = await createKeyAuthenticator(h.db, { pollMs: 50, ...opts });
  authenticators.push(a);
  return a;
}

async function accountWithKey(opts: { status?: string; plan?: string } = {}) {
  const email = uniqueEmail('auth');
  const acc = await createAccount(h.db, { email, status: opts.status, plan: opts.plan });
  const key = await createKey(h.db, { email });
  return { email, acc, ...key };
}

const until = async (cond: () => Promise<boolean>, ms: number) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return cond();
};

test('a valid key on an active account with a plan yields its principal', async () => {
  const a = await authenticator();
  const k = await accountWithKey({ plan: 'auth-pl' });
  const out = await a.authenticate(k.api_key);
  assert.ok(out.ok);
  assert.equal(out.principal.accountId, k.acc.id);
  assert.equal(out.principal.email, k.email);
  assert.equal(out.principal.keyId, k.key_id);
  assert.equal(out.principal.coverage.all, false);
  assert.deepEqual([...out.principal.coverage.competitions], ['PREMIER_LEAGUE']);
  assert.deepEqual([...out.principal.coverage.clubs], ['C00000000000000000000000001']);
  assert.equal(out.principal.preferredCurrency, null);
  assert.equal(out.principal.rateLimit, null, 'a plan without its own limit: the RATE_LIMIT setting');
});

test('exact 401 and 403 answers for every key and account state', async () => {
  const a = await authenticator();
  const deny = (status: number, error: string) => ({ ok: false, status, error });
  assert.deepEqual(await a.authenticate('tl_unknownunknownunknownunknown'), deny(401, 'Invalid API key'));
  assert.deepEqual(await a.authenticate('short'), deny(401, 'Invalid API key'));
  assert.deepEqual(await a.authenticate('x'.repeat(201)), deny(401, 'Invalid API key'));
  const revoked = await accountWithKey({ plan: 'auth-all' });
  await revokeKey(h.db, { keyId: revoked.key_id });
  assert.deepEqual(await a.authenticate(revoked.api_key), deny(401, 'API key is revoked'));
  const inactive = await accountWithKey({ status: 'inactive', plan: 'auth-all' });
  assert.deepEqual(await a.authenticate(inactive.api_key), deny(403, 'Account access denied: account is inactive'));
  const registered = await accountWithKey({ status: 'registered', plan: 'auth-all' });
  assert.deepEqual(await a.authenticate(registered.api_key), deny(403, 'Account access denied: account is not activated'));
  const noPlan = await accountWithKey({});
  assert.deepEqual(await a.authenticate(noPlan.api_key), deny(403, 'Account access denied: no plan access'));
  // Revoked wins over the account state: the key itself is refused first.
  await revokeKey(h.db, { keyId: inactive.key_id });
  a.invalidate();
  assert.deepEqual(await a.authenticate(inactive.api_key), deny(401, 'API key is revoked'));
});

test('keys outside the length range are refused without a database query', async () => {
  let queries = 0;
  // A second Kysely on the same database, only to count queries (nothing else runs meanwhile).
  const counted = new Kysely<Database>({ dialect: new SerialPGliteDialect(h.pglite!), log: () => void queries++ });
  const a = await createKeyAuthenticator(counted, { pollMs: 60_000 });
  queries = 0;
  await a.authenticate('s'.repeat(19));
  await a.authenticate('l'.repeat(201));
  assert.equal(queries, 0);
  await a.authenticate('m'.repeat(40));
  assert.equal(queries, 1, 'a key of valid length is looked up');
  await a.close();
});

test('an expired key is an invalid key, decided with the injected clock even from the cache', async () => {
  let now = Date.parse('2030-01-01T00:00:00Z');
  const a = await authenticator({ now: () => now });
  const k = await accountWithKey({ plan: 'auth-all' });
  const exp = await createKeyForAccount(h.db, k.acc.id, { expiresAtMs: now + 1000 });
  assert.equal((await a.authenticate(exp.api_key)).ok, true);
  now += 999;
  assert.equal((await a.authenticate(exp.api_key)).ok, true);
  now += 1;
  assert.deepEqual(await a.authenticate(exp.api_key), { ok: false, status: 401, error: 'Invalid API key' });
});

test('answers come from the cache until access_version moves, then within the poll bound', async () => {
  const a = await authenticator();
  const k = await accountWithKey({ plan: 'auth-all' });
  await a.tick(); // take in the bump of the key creation first
  assert.equal((await a.authenticate(k.api_key)).ok, true);
  // A change behind the service's back (no version bump) is not seen: proof the cache answers.
  await h.db.updateTable('accounts').set({ status: 'inactive' }).where('id', '=', k.acc.id).execute();
  await new Promise((r) => setTimeout(r, 150));
  assert.equal((await a.authenticate(k.api_key)).ok, true);
  // Bumping the version, as every access function does, makes it visible.
  await bumpAccessVersion(h.db);
  assert.ok(await until(async () => !(await a.authenticate(k.api_key)).ok, 1000), 'seen after the bump');
  assert.deepEqual(await a.authenticate(k.api_key), { ok: false, status: 403, error: 'Account access denied: account is inactive' });
});

test('revocation, status and plan changes by another writer reach a running authenticator within a second', async () => {
  const a = await authenticator({ pollMs: 500 });
  // The changes go through another handle on the same database, as the CLI or another instance would
  // make them: the authenticator learns of them only through access_version.
  const other = new Kysely<Database>({ dialect: new SerialPGliteDialect(h.pglite!) });
  const k = await accountWithKey({ plan: 'auth-all' });
  assert.equal((await a.authenticate(k.api_key)).ok, true);

  let t = Date.now();
  await setAccountStatus(other, { email: k.email, status: 'registered' });
  assert.ok(await until(async () => (await a.authenticate(k.api_key)).ok === false, 1000));
  const statusMs = Date.now() - t;
  assert.deepEqual(await a.authenticate(k.api_key), { ok: false, status: 403, error: 'Account access denied: account is not activated' });

  await setAccountStatus(other, { email: k.email, status: 'active' });
  assert.ok(await until(async () => (await a.authenticate(k.api_key)).ok, 1000));

  await setAccountPlan(other, { email: k.email, plan: 'auth-pl' });
  assert.ok(await until(async () => {
    const o = await a.authenticate(k.api_key);
    return o.ok && !o.principal.coverage.all;
  }, 1000), 'plan change seen');
  await updatePlan(other, { name: 'auth-pl', competitions: ['LIGUE_1'], allowUnknown: true });
  assert.ok(await until(async () => {
    const o = await a.authenticate(k.api_key);
    return o.ok && o.principal.coverage.competitions.has('LIGUE_1');
  }, 1000), 'plan content change seen');

  t = Date.now();
  await revokeKey(other, { keyId: k.key_id });
  assert.ok(await until(async () => (await a.authenticate(k.api_key)).ok === false, 1000));
  const revokeMs = Date.now() - t;
  assert.deepEqual(await a.authenticate(k.api_key), { ok: false, status: 401, error: 'API key is revoked' });
  console.log(`# seen after: status change ${statusMs} ms, revocation ${revokeMs} ms (poll 500 ms)`);
  await updatePlan(other, { name: 'auth-pl', competitions: ['PREMIER_LEAGUE'], clubs: ['C00000000000000000000000001'], allowUnknown: true });
});

test('a change made through the authenticator\'s own handle is in force when it returns, 50 times each, with no poll', async () => {
  const a = await authenticator({ pollMs: 3_600_000 });
  const k = await accountWithKey({ plan: 'auth-all' });
  const ok = await a.authenticate(k.api_key);
  assert.equal(ok.ok, true);
  const deny = (status: number, error: string) => ({ ok: false, status, error });
  const coverageOf = async () => {
    const o = await a.authenticate(k.api_key);
    return o.ok ? [o.principal.coverage.all, [...o.principal.coverage.competitions]] : o;
  };
  for (let i = 0; i < 50; i++) {
    await setAccountStatus(h.db, { email: k.email, status: 'inactive' });
    assert.deepEqual(await a.authenticate(k.api_key), deny(403, 'Account access denied: account is inactive'), `round ${i}`);
    await setAccountStatus(h.db, { email: k.email, status: 'registered' });
    assert.deepEqual(await a.authenticate(k.api_key), deny(403, 'Account access denied: account is not activated'), `round ${i}`);
    await setAccountStatus(h.db, { email: k.email, status: 'active' });
    assert.deepEqual(await a.authenticate(k.api_key), ok, `round ${i}`);

    await setAccountPlan(h.db, { email: k.email, plan: 'auth-pl' });
    assert.deepEqual(await coverageOf(), [false, ['PREMIER_LEAGUE']], `round ${i}: plan changed`);
    await updatePlan(h.db, { name: 'auth-pl', competitions: ['LIGUE_1'], allowUnknown: true });
    assert.deepEqual(await coverageOf(), [false, ['LIGUE_1']], `round ${i}: plan content changed`);
    await updatePlan(h.db, { name: 'auth-pl', competitions: ['PREMIER_LEAGUE'], clubs: ['C00000000000000000000000001'], allowUnknown: true });
    await setAccountPlan(h.db, { email: k.email, plan: null });
    assert.deepEqual(await a.authenticate(k.api_key), deny(403, 'Account access denied: no plan access'), `round ${i}: plan removed`);
    await setAccountPlan(h.db, { email: k.email, plan: 'auth-all' });
    assert.deepEqual(await a.authenticate(k.api_key), ok, `round ${i}: plan back`);

    const extra = await createKey(h.db, { email: k.email });
    assert.equal((await a.authenticate(extra.api_key)).ok, true, `round ${i}: a new key works at once`);
    await revokeKey(h.db, { keyId: extra.key_id });
    assert.deepEqual(await a.authenticate(extra.api_key), deny(401, 'API key is revoked'), `round ${i}: revoked`);
  }
});

test('an access version bump is announced on the notification channel at commit, and not at all on rollback', async () => {
  const heard: string[] = [];
  const unlisten = await h.pglite!.listen(ACCESS_CHANNEL, (payload) => void heard.push(payload));
  try {
    await assert.rejects(
      h.db.transaction().execute(async (trx) => {
        await bumpAccessVersion(trx);
        throw new Error('roll back');
      }),
      /roll back/,
    );
    const value = await h.db.transaction().execute((trx) => bumpAccessVersion(trx));
    await until(async () => heard.length > 0, 1000);
    assert.deepEqual(heard, [value]);
  } finally {
    await unlisten();
  }
});

test('last use is written off the request path, at most once a minute per key', async () => {
  let now = Date.parse('2031-05-05T10:00:00Z');
  const a = await authenticator({ now: () => now, pollMs: 60_000 });
  const k = await accountWithKey({ plan: 'auth-all' });
  const lastUsed = async () => (await h.db.selectFrom('api_keys').select('last_used_at').where('id', '=', k.key_id).executeTakeFirstOrThrow()).last_used_at;
  await a.authenticate(k.api_key);
  assert.equal(await lastUsed(), null, 'not written by the request itself');
  await a.tick();
  assert.equal(parseTimestamp((await lastUsed())!), now);
  const first = now;
  now += 30_000;
  await a.authenticate(k.api_key);
  await a.tick();
  assert.equal(parseTimestamp((await lastUsed())!), first, 'not again within the minute');
  now += 30_000;
  await a.authenticate(k.api_key);
  await a.close();
  assert.equal(parseTimestamp((await lastUsed())!), now, 'written again after a minute; close() flushes');
});

test('timestamps as PostgreSQL prints them parse to the same instant as ISO', () => {
  assert.equal(parseTimestamp('2026-01-02 03:04:05.678+00'), Date.parse('2026-01-02T03:04:05.678Z'));
  assert.equal(parseTimestamp('2026-01-02 03:04:05+02'), Date.parse('2026-01-02T01:04:05Z'));
  assert.equal(parseTimestamp('2026-01-02T03:04:05.000Z'), Date.parse('2026-01-02T03:04:05Z'));
});
