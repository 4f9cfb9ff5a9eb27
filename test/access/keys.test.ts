import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { DatabaseHandle } from '../../src/data/db.js';
import { createAccount, listAccounts, setAccountPlan, setAccountStatus } from '../../src/access/accounts.js';
import { ALL_PLAN_NAME, BOOTSTRAP_EMAIL, createDemoLogin, DEMO_EMAIL, DEMO_PLAN_NAME, DEMO_RATE_LIMIT, ensureBootstrapKey } from '../../src/access/bootstrap.js';
import {
  createKey,
  createKeyForAccount,
  generateApiKey,
  generateKeyId,
  hashApiKey,
  hashesEqual,
  isValidKeyLength,
  listKeys,
  revokeKey,
} from '../../src/access/keys.js';
import { createLoginService } from '../../src/access/login.js';
import { SqlLoginThrottle } from '../../src/access/throttle/index.js';
import { AccessError } from '../../src/access/messages.js';
import { createPlan, listPlans, updatePlan } from '../../src/access/plans.js';
import { readAccessVersion } from '../../src/access/version.js';
import { openTestDatabase, uniqueEmail } from './fixture.js';

let h: DatabaseHandle;
before(async () => {
  h = await openTestDatabase();
});
after(async () => {
  await h.close();
});

test('generated keys and ids: format, entropy, uniqueness', () => {
  const keys = new Set(Array.from({ length: 200 }, generateApiKey));
  assert.equal(keys.size, 200);
  for (const k of keys) {
    assert.match(k, /^tl_[A-Za-z0-9_-]{43}$/);
    assert.equal(isValidKeyLength(k), true);
  }
  const ids = new Set(Array.from({ length: 200 }, generateKeyId));
  assert.equal(ids.size, 200);
  for (const id of ids) assert.match(id, /^key_[0-9a-z]{16}$/);
});

test('valid key length is 20..200 characters', () => {
  assert.equal(isValidKeyLength('x'.repeat(19)), false);
  assert.equal(isValidKeyLength('x'.repeat(20)), true);
  assert.equal(isValidKeyLength('x'.repeat(200)), true);
  assert.equal(isValidKeyLength('x'.repeat(201)), false);
});

test('hashes are SHA-256 hex and compared in constant time', () => {
  const k = generateApiKey();
  assert.equal(hashApiKey(k), createHash('sha256').update(k).digest('hex'));
  assert.equal(hashesEqual(hashApiKey(k), hashApiKey(k)), true);
  assert.equal(hashesEqual(hashApiKey(k), hashApiKey(`${k}x`)), false);
  assert.equal(hashesEqual('ab', 'abc'), false);
});

test('only the hash of a key is stored, never the key', async () => {
  const plan = await createPlan(h.db, { name: 'keys-store', all: true });
  const email = uniqueEmail('store');
  await createAccount(h.db, { email, plan: plan.name });
  const { key_id, api_key } = await createKey(h.db, { email });
  const row = await h.db.selectFrom('api_keys').selectAll().where('id', '=', key_id).executeTakeFirstOrThrow();
  assert.equal(row.key_hash, hashApiKey(api_key));
  assert.ok(!JSON.stringify(row).includes(api_key), 'raw key absent from the row');
  assert.ok(!JSON.stringify(await listKeys(h.db, { email })).includes(api_key), 'raw key absent from the listing');
  assert.ok(row.created_at);
  assert.equal(row.revoked_at, null);
});

test('revocation is recorded once, shown by keys list, and unknown keys are errors', async () => {
  const email = uniqueEmail('revoke');
  await createAccount(h.db, { email });
  const { key_id } = await createKey(h.db, { email });
  const v0 = await readAccessVersion(h.db);
  const first = await revokeKey(h.db, { keyId: key_id });
  assert.notEqual(await readAccessVersion(h.db), v0, 'revocation bumps access_version');
  const second = await revokeKey(h.db, { keyId: key_id });
  assert.equal(second.revoked_at, first.revoked_at, 'idempotent');
  const expiring = await createKeyForAccount(h.db, (await listAccounts(h.db)).find((a) => a.email === email)!.id, { expiresAtMs: Date.now() - 1000 });
  const states = Object.fromEntries((await listKeys(h.db, { email })).map((k) => [k.key_id, k.state]));
  assert.deepEqual(states, { [key_id]: 'revoked', [expiring.key_id]: 'expired' });
  await assert.rejects(revokeKey(h.db, { keyId: 'key_doesnotexist0000' }), new AccessError('Unknown key: key_doesnotexist0000'));
  await assert.rejects(createKey(h.db, { email: 'nobody@example.test' }), new AccessError('Unknown account: nobody@example.test'));
});

test('plans: validation, duplicates, normalisation and update', async () => {
  const p = await createPlan(h.db, { name: 'euro', competitions: ['premier_league', ' LIGUE_1', 'LIGUE_1'], clubs: ['c00000000000000000000000000'], allowUnknown: true });
  assert.deepEqual(p.competitions, ['LIGUE_1', 'PREMIER_LEAGUE']);
  assert.deepEqual(p.clubs, ['C00000000000000000000000000']);
  assert.deepEqual(p.unknown_competitions, ['LIGUE_1', 'PREMIER_LEAGUE'], 'reported: no world loaded');
  await assert.rejects(createPlan(h.db, { name: 'euro', all: true }), new AccessError('Plan already exists: euro'));
  await assert.rejects(createPlan(h.db, { name: 'empty' }), /needs --all or at least one/);
  await assert.rejects(createPlan(h.db, { name: 'both', all: true, competitions: ['X'] }), /either --all/);
  await assert.rejects(createPlan(h.db, { name: 'bad', competitions: ['PREMIER LEAGUE'] }), new AccessError('Invalid competition id: PREMIER LEAGUE'));
  await assert.rejects(createPlan(h.db, { name: 'bad', clubs: ['C123'] }), new AccessError('Invalid club id: C123'));
  await assert.rejects(createPlan(h.db, { name: 'no spaces', all: true }), /Invalid plan name/);
  const v0 = await readAccessVersion(h.db);
  const u = await updatePlan(h.db, { name: 'euro', competitions: ['SERIE_A'], allowUnknown: true });
  assert.deepEqual([u.competitions, u.clubs], [['SERIE_A'], []]);
  assert.notEqual(await readAccessVersion(h.db), v0, 'plan change bumps access_version');
  await assert.rejects(updatePlan(h.db, { name: 'nope', all: true }), new AccessError('Unknown plan: nope'));
  assert.ok((await listPlans(h.db)).some((x) => x.name === 'euro' && x.competitions[0] === 'SERIE_A'));
});

test('accounts: create, duplicates, statuses, plans and errors', async () => {
  await createPlan(h.db, { name: 'acc-plan', all: true });
  const email = uniqueEmail('Acc').toUpperCase();
  const a = await createAccount(h.db, { email, password: 'correct horse staple', plan: 'acc-plan' });
  assert.deepEqual([a.email, a.status, a.plan, a.has_password, a.active_keys], [email.toLowerCase(), 'active', 'acc-plan', true, 0]);
  const stored = await h.db.selectFrom('accounts').select('password_hash').where('id', '=', a.id).executeTakeFirstOrThrow();
  assert.match(stored.password_hash ?? '', /^\$argon2id\$/);
  await assert.rejects(createAccount(h.db, { email: email.toLowerCase() }), new AccessError(`Account already exists: ${email.toLowerCase()}`));
  await assert.rejects(createAccount(h.db, { email: uniqueEmail('x'), plan: 'missing' }), new AccessError('Unknown plan: missing'));
  await assert.rejects(createAccount(h.db, { email: uniqueEmail('x'), status: 'paused' }), /Invalid status: "paused"/);
  await assert.rejects(createAccount(h.db, { email: 'not-an-email' }), /Invalid email/);
  await assert.rejects(createAccount(h.db, { email: uniqueEmail('x'), password: '' }), /Password must not be empty/);
  const r = await createAccount(h.db, { email: uniqueEmail('reg'), status: 'registered' });
  assert.equal(r.status, 'registered');
  assert.equal(r.plan, null);

  const v0 = await readAccessVersion(h.db);
  assert.equal((await setAccountStatus(h.db, { email, status: 'inactive' })).status, 'inactive');
  const v1 = await readAccessVersion(h.db);
  assert.notEqual(v1, v0, 'status change bumps access_version');
  assert.equal((await setAccountPlan(h.db, { email, plan: null })).plan, null);
  assert.notEqual(await readAccessVersion(h.db), v1, 'plan change bumps access_version');
  await assert.rejects(setAccountStatus(h.db, { email, status: 'gone' }), /Invalid status/);
  await assert.rejects(setAccountStatus(h.db, { email: 'nobody@example.test', status: 'active' }), new AccessError('Unknown account: nobody@example.test'));
  assert.ok((await listAccounts(h.db)).some((x) => x.email === email.toLowerCase() && x.status === 'inactive'));
});

test('bootstrap key: active all-coverage account holds it; idempotent; restores a revoked key', async () => {
  const raw = 'dev-bootstrap-key-0123456789';
  const first = await ensureBootstrapKey(h.db, raw);
  assert.equal(first.created, true);
  const v = await readAccessVersion(h.db);
  const again = await ensureBootstrapKey(h.db, raw);
  assert.deepEqual(again, { key_id: first.key_id, created: false });
  assert.equal(await readAccessVersion(h.db), v, 'nothing written the second time');
  const acc = (await listAccounts(h.db)).find((a) => a.email === BOOTSTRAP_EMAIL);
  assert.deepEqual([acc?.status, acc?.plan], ['active', ALL_PLAN_NAME]);
  const plan = (await listPlans(h.db)).find((p) => p.name === ALL_PLAN_NAME);
  assert.equal(plan?.all, true);
  assert.equal(plan?.rate_limit, null, 'the bootstrap key follows the RATE_LIMIT setting');

  await revokeKey(h.db, { keyId: first.key_id });
  await setAccountStatus(h.db, { email: BOOTSTRAP_EMAIL, status: 'inactive' });
  const restored = await ensureBootstrapKey(h.db, raw);
  assert.equal(restored.key_id, first.key_id);
  const row = await h.db.selectFrom('api_keys').selectAll().where('id', '=', first.key_id).executeTakeFirstOrThrow();
  assert.equal(row.revoked_at, null);
  assert.equal((await listAccounts(h.db)).find((a) => a.email === BOOTSTRAP_EMAIL)?.status, 'active');
  await assert.rejects(ensureBootstrapKey(h.db, 'short'), /20 to 200 characters/);
});

test('demo login: a fresh password and one active demo key each start; earlier demo keys revoked', async () => {
  const login = createLoginService(h.db, new SqlLoginThrottle(h.db));
  const a = await createDemoLogin(h.db);
  const b = await createDemoLogin(h.db);
  assert.equal(a.email, DEMO_EMAIL);
  assert.notEqual(a.api_key, b.api_key);
  assert.notEqual(a.password, b.password);
  assert.match(b.api_key, /^tl_/);
  const acc = (await listAccounts(h.db)).find((x) => x.email === DEMO_EMAIL);
  assert.deepEqual([acc?.status, acc?.plan, acc?.active_keys], ['active', DEMO_PLAN_NAME, 1]);
  const plan = (await listPlans(h.db)).find((p) => p.name === DEMO_PLAN_NAME);
  assert.deepEqual([plan?.all, plan?.rate_limit], [true, DEMO_RATE_LIMIT], 'all coverage, with a limit for browsing');
  const keys = await h.db.selectFrom('api_keys').select(['id', 'revoked_at']).where('label', '=', 'demo').execute();
  assert.equal(keys.find((k) => k.id === a.key_id)?.revoked_at !== null, true);
  assert.equal(keys.find((k) => k.id === b.key_id)?.revoked_at, null);
  assert.equal((await login.login(b.email, b.password, Date.now(), '127.0.0.1')).ok, true);
  assert.equal((await login.login(a.email, a.password, Date.now(), '127.0.0.1')).ok, false);
});

test('demo login: a limit the operator set on the demo plan is kept by later starts', async () => {
  await createDemoLogin(h.db);
  await updatePlan(h.db, { name: DEMO_PLAN_NAME, rateLimit: 1200 });
  await createDemoLogin(h.db);
  assert.equal((await listPlans(h.db)).find((p) => p.name === DEMO_PLAN_NAME)?.rate_limit, 1200);
  // A narrowed demo plan is widened again: the demo login is an all-coverage account.
  await updatePlan(h.db, { name: DEMO_PLAN_NAME, competitions: ['SERIE_A'], allowUnknown: true });
  await createDemoLogin(h.db);
  const plan = (await listPlans(h.db)).find((p) => p.name === DEMO_PLAN_NAME);
  assert.deepEqual([plan?.all, plan?.competitions, plan?.rate_limit], [true, [], 1200]);
});
