/**
 * Read your own writes: an access change carried out by a running instance (its admin channel, which
 * the CLI uses while the server holds the embedded database, or a request to it) is in force on that
 * instance by the time the command has answered. Each change is repeated 50 times with no pause, and
 * the request made right after the answer must get the new answer every time. Runs on the embedded
 * database and, under `npm run test:pg`, on PostgreSQL.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { callAdminChannel, serveAdminChannel } from '../../src/admin/channel.js';
import { serverOperationRunner } from '../../src/operations.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

// Each round goes through the admin channel as an operator command does; 20 of each kind keep a race in sight.
const ROUNDS = 20;
const PASSWORD = 'correct horse battery staple';

let t: TestApp;
let channel: Server;
let dir: string;

before(async () => {
  t = await startTestApp();
  dir = mkdtempSync(join(tmpdir(), 'touchline-fresh-'));
  // The server's own runner, as `touchline serve` wires it to its socket.
  channel = await serveAdminChannel(
    join(dir, 'admin.sock'),
    serverOperationRunner({ handle: t.handle, config: t.config, logger: pino({ level: 'silent' }), after: () => t.runtime.world.refresh() }),
  );
  await cmd('access.plans.create', { name: 'fresh-all', all: true });
  await cmd('access.plans.create', { name: 'fresh-one', competitions: ['PREMIER_DIVISION'] });
});

after(async () => {
  await new Promise<void>((r) => (channel ? channel.close(() => r()) : r()));
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** What the CLI does while a server runs: send the operation over the server's socket and wait for its answer. */
function cmd(op: string, args: Record<string, unknown>): Promise<unknown> {
  return callAdminChannel(join(dir, 'admin.sock'), op, args, () => {});
}

let accountNo = 0;
async function account(): Promise<{ email: string; key: string; keyId: string }> {
  const email = `fresh${++accountNo}@club.example`;
  await cmd('access.accounts.create', { email, plan: 'fresh-all', password: PASSWORD });
  const k = (await cmd('access.keys.create', { email })) as { key_id: string; api_key: string };
  return { email, key: k.api_key, keyId: k.key_id };
}

/** Status and body of one request, as the client sees them. */
async function ask(key: string, path = '/v1/player_positions'): Promise<{ status: number; body: unknown }> {
  const r = await t.get(path, key);
  return { status: r.statusCode, body: JSON.parse(r.body) };
}

const denied = (error: string) => ({ status: 403, body: { error } });

describe('an access change through the running instance is in force when the command returns', () => {
  test(`key revoke (${ROUNDS} times)`, async () => {
    const { email } = await account();
    for (let i = 0; i < ROUNDS; i++) {
      const k = (await cmd('access.keys.create', { email })) as { key_id: string; api_key: string };
      assert.equal((await ask(k.api_key)).status, 200, `round ${i}: the new key works at once`);
      await cmd('access.keys.revoke', { keyId: k.key_id });
      assert.deepEqual(await ask(k.api_key), { status: 401, body: { error: 'API key is revoked' } }, `round ${i}`);
    }
  });

  test(`set-status inactive, registered, then active again (${ROUNDS} times)`, async () => {
    const { email, key } = await account();
    const ok = await ask(key);
    assert.equal(ok.status, 200);
    for (let i = 0; i < ROUNDS; i++) {
      await cmd('access.accounts.set-status', { email, status: 'inactive' });
      assert.deepEqual(await ask(key), denied('Account access denied: account is inactive'), `round ${i}: inactive`);
      await cmd('access.accounts.set-status', { email, status: 'registered' });
      assert.deepEqual(await ask(key), denied('Account access denied: account is not activated'), `round ${i}: registered`);
      await cmd('access.accounts.set-status', { email, status: 'active' });
      assert.deepEqual(await ask(key), ok, `round ${i}: active again`);
    }
  });

  test(`plan change: set-plan to another plan, and plans update of the plan in use (${ROUNDS} times)`, async () => {
    const { email, key } = await account();
    const all = (await ask(key, '/v1/competitions')).body as { competitions: string[] };
    assert.ok(all.competitions.length > 1);
    const one = { status: 200, body: { competitions: ['PREMIER_DIVISION'] } };
    for (let i = 0; i < ROUNDS; i++) {
      await cmd('access.accounts.set-plan', { email, plan: 'fresh-one' });
      assert.deepEqual(await ask(key, '/v1/competitions'), one, `round ${i}: narrower plan`);
      await cmd('access.plans.update', { name: 'fresh-one', all: true });
      assert.deepEqual(await ask(key, '/v1/competitions'), { status: 200, body: all }, `round ${i}: plan widened`);
      await cmd('access.plans.update', { name: 'fresh-one', competitions: ['PREMIER_DIVISION'] });
      assert.deepEqual(await ask(key, '/v1/competitions'), one, `round ${i}: plan narrowed`);
      await cmd('access.accounts.set-plan', { email, plan: 'fresh-all' });
      assert.deepEqual(await ask(key, '/v1/competitions'), { status: 200, body: all }, `round ${i}: back on the wide plan`);
    }
  });

  test(`plan removed (set-plan --no-plan), then given back (${ROUNDS} times)`, async () => {
    const { email, key } = await account();
    const ok = await ask(key);
    assert.equal(ok.status, 200);
    for (let i = 0; i < ROUNDS; i++) {
      await cmd('access.accounts.set-plan', { email, plan: null });
      assert.deepEqual(await ask(key), denied('Account access denied: no plan access'), `round ${i}: no plan`);
      await cmd('access.accounts.set-plan', { email, plan: 'fresh-all' });
      assert.deepEqual(await ask(key), ok, `round ${i}: plan back`);
    }
  });

  test('the account\'s currency (set-currency): the next answer that names none is in it, and "default" goes back to EUR', async () => {
    const { email, key } = await account();
    const currencyOf = async () => ((await ask(key, '/v1/players?limit=1')).body as { currency: string }).currency;
    assert.equal(await currencyOf(), 'EUR');
    const set = (await cmd('access.accounts.set-currency', { email, currency: 'gbp' })) as { currency: string | null };
    assert.equal(set.currency, 'GBP');
    assert.equal(await currencyOf(), 'GBP');
    assert.equal(((await ask(key, '/v1/players?limit=1&currency=USD')).body as { currency: string }).currency, 'USD', 'a request naming one still wins');
    await assert.rejects(cmd('access.accounts.set-currency', { email, currency: 'XYZ' }), /Invalid currency code: "XYZ"/);
    assert.equal(await currencyOf(), 'GBP', 'a refused change changes nothing');
    assert.equal(((await cmd('access.accounts.set-currency', { email, currency: null })) as { currency: string | null }).currency, null);
    assert.equal(await currencyOf(), 'EUR');
  });

  test('a key from POST /v1/auth/login works on the very next request (10 times)', async () => {
    const { email } = await account();
    for (let i = 0; i < 10; i++) {
      const login = await t.post('/v1/auth/login', { email, password: PASSWORD }, null);
      assert.equal(login.statusCode, 200, login.body);
      const key = (JSON.parse(login.body) as { api_key: string }).api_key;
      assert.equal((await ask(key)).status, 200, `round ${i}`);
    }
  });
});
