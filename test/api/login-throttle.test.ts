import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createAccount } from '../../src/access/accounts.js';
import { createKey } from '../../src/access/keys.js';
import { createPlan } from '../../src/access/plans.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/** EXTENSIONS "Login throttling" and "Sign-out and login keys", through the real app. */
let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t?.close();
});

const PASSWORD = 'touchline-owner-passphrase';
let n = 0;
async function owner(): Promise<string> {
  const email = `owner-${++n}@club.example`;
  await createAccount(t.handle.db, { email, password: PASSWORD, plan: 'all-coverage' });
  return email;
}

function login(email: string, password: string, from: string, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/v1/auth/login',
    remoteAddress: from,
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify({ email, password }),
  });
}

const counts = (statuses: number[]) => statuses.reduce<Record<number, number>>((c, s) => ({ ...c, [s]: (c[s] ?? 0) + 1 }), {});

describe('login throttling', () => {
  test('300 parallel wrong passwords: at most 10 answers of 401, the rest 429 with the usual body', async () => {
    const email = await owner();
    const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => login(email, `guess-number-${i}`, '198.18.0.1')));
    const c = counts(answers.map((a) => a.statusCode));
    assert.deepEqual(c, { 401: 10, 429: 290 });
    const locked = answers.find((a) => a.statusCode === 429)!;
    assert.deepEqual(JSON.parse(locked.body), { error: 'Rate limit exceeded', limit: 10, window_seconds: 900, retry_after_seconds: JSON.parse(locked.body).retry_after_seconds });
    const retry = Number(locked.headers['retry-after']);
    assert.ok(retry >= 899 && retry <= 900, `Retry-After ${retry}`);
    assert.equal(JSON.parse(locked.body).retry_after_seconds, retry);
    // The right password from the attacker's address is refused too: 429 comes before the check.
    assert.equal((await login(email, PASSWORD, '198.18.0.1')).statusCode, 429);
    // The owner, from another address, signs in.
    const own = await login(email, PASSWORD, '198.18.0.2');
    assert.equal(own.statusCode, 200, own.body);
  });

  test('40 emails from one address: at most 30 answers of 401', async () => {
    const answers: number[] = [];
    for (let i = 0; i < 40; i++) answers.push((await login(`sprayed-${i}@club.example`, 'a wrong password', '198.18.0.3')).statusCode);
    assert.deepEqual(counts(answers), { 401: 30, 429: 10 });
    assert.deepEqual(answers.slice(0, 30), Array(30).fill(401), 'the first thirty are checked');
    const email = await owner();
    const locked = await login(email, PASSWORD, '198.18.0.3');
    assert.equal(locked.statusCode, 429);
    assert.equal(JSON.parse(locked.body).limit, 30);
    assert.equal((await login(email, PASSWORD, '198.18.0.4')).statusCode, 200);
  });
});

describe('client address', () => {
  test('X-Forwarded-For is believed from a proxy on this machine only (TRUST_PROXY default: loopback)', async () => {
    const email = await owner();
    // A remote client cannot pick its address: each guess names another, all count for its own.
    for (let i = 0; i < 10; i++) assert.equal((await login(email, 'nope', '198.18.0.8', { 'x-forwarded-for': `198.18.1.${i}` })).statusCode, 401);
    assert.equal((await login(email, PASSWORD, '198.18.0.8', { 'x-forwarded-for': '198.18.1.99' })).statusCode, 429);
    // Through a proxy on this machine the forwarded address is the client's.
    assert.equal((await login(email, PASSWORD, '127.0.0.1', { 'x-forwarded-for': '198.18.0.8' })).statusCode, 429, 'the locked client, forwarded');
    assert.equal((await login(email, PASSWORD, '127.0.0.1', { 'x-forwarded-for': '198.18.0.9' })).statusCode, 200, 'another client, forwarded');
  });
});

describe('sign-out and login keys', () => {
  test('seven logins: the first two keys are revoked, the last five work, a CLI key is untouched', async () => {
    const email = await owner();
    const cli = await createKey(t.handle.db, { email });
    const keys: string[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await login(email, PASSWORD, '198.18.0.5');
      assert.equal(res.statusCode, 200, res.body);
      keys.push(JSON.parse(res.body).api_key);
    }
    const statuses = [];
    for (const key of keys) {
      const res = await t.get('/v1/competitions', key);
      statuses.push(res.statusCode === 200 ? 200 : `${res.statusCode} ${JSON.parse(res.body).error}`);
    }
    assert.deepEqual(statuses, ['401 API key is revoked', '401 API key is revoked', 200, 200, 200, 200, 200]);
    assert.equal((await t.get('/v1/competitions', cli.api_key)).statusCode, 200);
  });

  test('POST /v1/auth/logout revokes the key it is called with: 204, then 401 API key is revoked', async () => {
    const email = await owner();
    const signIn = async () => JSON.parse((await login(email, PASSWORD, '198.18.0.6')).body).api_key as string;
    const [a, b, c] = [await signIn(), await signIn(), await signIn()];
    assert.equal((await t.get('/v1/competitions', a)).statusCode, 200);
    const out = await t.app.inject({ method: 'POST', url: '/v1/auth/logout', headers: { 'x-api-key': a } });
    assert.equal(out.statusCode, 204);
    assert.equal(out.body, '');
    const after = await t.get('/v1/competitions', a);
    assert.equal(after.statusCode, 401);
    assert.deepEqual(JSON.parse(after.body), { error: 'API key is revoked' });
    assert.equal((await t.get('/v1/competitions', b)).statusCode, 200, 'the account\'s other keys still work');
    // Bearer, with a JSON content type and an empty or empty-object body: clients differ.
    const bearer = await t.app.inject({ method: 'POST', url: '/v1/auth/logout', headers: { authorization: `Bearer ${b}`, 'content-type': 'application/json' } });
    assert.equal(bearer.statusCode, 204, bearer.body);
    assert.equal((await t.post('/v1/auth/logout', {}, c)).statusCode, 204);
    // A revoked key cannot log out again, and no key is 401 Missing API key.
    const twice = await t.post('/v1/auth/logout', {}, a);
    assert.deepEqual([twice.statusCode, JSON.parse(twice.body)], [401, { error: 'API key is revoked' }]);
    // A body over the limit is refused before the handler: the key stays.
    const d = await signIn();
    const huge = await t.post('/v1/auth/logout', { pad: 'a'.repeat(1024 * 1024) }, d);
    assert.deepEqual([huge.statusCode, JSON.parse(huge.body)], [413, { error: 'Request body too large' }]);
    assert.equal((await t.get('/v1/competitions', d)).statusCode, 200);
    const none = await t.post('/v1/auth/logout', {}, null);
    assert.deepEqual([none.statusCode, JSON.parse(none.body)], [401, { error: 'Missing API key' }]);
  });

  test('a key that spent its rate budget can still sign out', async () => {
    await createPlan(t.handle.db, { name: 'one-a-minute', all: true, rateLimit: 1 });
    const email = `spent-${++n}@club.example`;
    await createAccount(t.handle.db, { email, password: PASSWORD, plan: 'one-a-minute' });
    const key = JSON.parse((await login(email, PASSWORD, '198.18.0.7')).body).api_key as string;
    assert.equal((await t.get('/v1/competitions', key)).statusCode, 200);
    assert.equal((await t.get('/v1/competitions', key)).statusCode, 429);
    assert.equal((await t.post('/v1/auth/logout', {}, key)).statusCode, 204);
    assert.equal((await t.get('/v1/competitions', key)).statusCode, 401);
  });
});
