import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { createAccount } from '../../src/access/accounts.js';
import { createKey } from '../../src/access/keys.js';
import { createPlan } from '../../src/access/plans.js';
import { enqueueEvent, listenersWithListedPlayers } from '../../src/data/webhook-store.js';
import { addMemberByName, createOrganisation } from '../../src/access/organisations.js';
import { WebhookDeliverer, retryDelayMs } from '../../src/notify/deliverer.js';
import { checkWebhookUrl } from '../../src/notify/url-policy.js';
import { postTo } from '../../src/notify/post.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { freePort, REPO_ROOT, waitFor } from '../helpers/server-process.js';
import { signatureHeader } from '../../src/notify/signature.js';
import { signatureValid, startReceiver } from '../helpers/webhook-receiver.js';

// Webhooks (EXTENSIONS "Webhooks") through the real app on the embedded database: registration and
// its refusals, signed deliveries to a loopback receiver, retries, and pending deliveries that a
// process started later sends. The app here sends nothing itself: each test drives a deliverer, as a
// server process runs one, so what was stored is all a delivery has to go on.

let t: TestApp;
let otherKey: string;
const json = (res: { body: string }) => JSON.parse(res.body);
const deliverers: WebhookDeliverer[] = [];

before(async () => {
  t = await startTestApp({ env: { WEBHOOKS_ALLOW_HTTP_LOOPBACK: '1' }, webhooks: false });
  await createPlan(t.handle.db, { name: 'hooks-all', all: true });
  await createAccount(t.handle.db, { email: 'other@club.example', plan: 'hooks-all' });
  otherKey = (await createKey(t.handle.db, { email: 'other@club.example' })).api_key;
  await (t.runtime.deps.authenticator as unknown as { tick(): Promise<void> }).tick();
});
after(async () => {
  for (const d of deliverers) await d.stop();
  await t.close();
});

/** What a server process runs: a deliverer on the same database, serving the data version in force. */
function deliverer(): WebhookDeliverer {
  const d = new WebhookDeliverer(t.handle.db, { policy: { allowLoopback: true }, servedDataVersion: () => t.runtime.world.current().dataVersion });
  deliverers.push(d);
  return d;
}

const register = (body: unknown, key?: string) => t.post('/v1/webhooks', body, key);
const deliveries = async (id: string, key?: string) => json(await t.get(`/v1/webhooks/deliveries?webhook_id=${id}`, key)).deliveries as Array<Record<string, unknown>>;
const dataUpdated = () => enqueueEvent(t.handle.db, { type: 'data.updated', dataVersion: t.runtime.world.current().dataVersion, data: { status: 'updated', data_version: t.runtime.world.current().dataVersion } });

test('register answers 201 with the secret once; the list shows the webhook without it; delete answers 204, then 404', async () => {
  const res = await register({ url: 'http://127.0.0.1:9/hook', events: ['data.updated', 'list.value_changed'] });
  assert.equal(res.statusCode, 201, res.body);
  const made = json(res);
  assert.match(made.webhook_id, /^wh_[A-Za-z0-9_-]{16}$/);
  assert.match(made.secret, /^whsec_/);
  assert.deepEqual(made.events, ['data.updated', 'list.value_changed']);
  const listed = json(await t.get('/v1/webhooks')).webhooks as Array<Record<string, unknown>>;
  const mine = listed.find((w) => w.webhook_id === made.webhook_id)!;
  assert.deepEqual(Object.keys(mine).sort(), ['created_at', 'events', 'url', 'webhook_id']);
  assert.equal(json(await t.get('/v1/webhooks', otherKey)).webhooks.length, 0, 'another account sees none of them');
  assert.equal((await t.get(`/v1/webhooks/deliveries?webhook_id=${made.webhook_id}`, otherKey)).statusCode, 404);
  const other = await t.app.inject({ method: 'DELETE', url: `/v1/webhooks?webhook_id=${made.webhook_id}`, headers: { 'x-api-key': otherKey } });
  assert.equal(other.statusCode, 404);
  assert.deepEqual(json(other), { error: 'Webhook not found' });
  const del = () => t.app.inject({ method: 'DELETE', url: `/v1/webhooks?webhook_id=${made.webhook_id}`, headers: { 'x-api-key': t.key } });
  assert.equal((await del()).statusCode, 204);
  assert.equal((await del()).statusCode, 404);
});

test('URLs inside the network, or not https, are refused with 400 Webhook URL not allowed; bad fields have their messages', async () => {
  for (const url of ['https://10.0.0.5/hook', 'https://192.168.1.10/hook', 'https://172.16.0.1/', 'https://169.254.169.254/latest/meta-data', 'https://[fe80::1]/', 'https://[fc00::1]/', 'https://[::ffff:10.0.0.1]/', 'https://0.0.0.0/', 'https://100.64.0.1/', 'ftp://example.com/', 'https://user:pw@127.0.0.1/']) {
    const res = await register({ url, events: ['data.updated'] });
    assert.equal(res.statusCode, 400, url);
    assert.deepEqual(json(res), { error: 'Webhook URL not allowed' }, url);
  }
  assert.deepEqual(json(await register({ events: ['data.updated'] })), { error: 'url is required' });
  assert.deepEqual(json(await register({ url: 'https://example.com/', events: [] })), { error: 'events is required' });
  assert.deepEqual(json(await register({ url: 'https://example.com/', events: ['player.sold'] })), { error: 'Invalid events' });
  assert.deepEqual(json(await t.get('/v1/webhooks/deliveries?webhook_id=nope')), { error: 'Invalid webhook_id' });
  assert.deepEqual(json(await t.get('/v1/webhooks/deliveries')), { error: 'webhook_id is required' });
});

test('without WEBHOOKS_ALLOW_HTTP_LOOPBACK, loopback is refused over http and https alike; a public https URL passes', async () => {
  const strict = { allowLoopback: false };
  for (const url of ['http://127.0.0.1:8080/', 'https://127.0.0.1/', 'https://[::1]/', 'http://localhost/']) {
    await assert.rejects(checkWebhookUrl(url, strict), /loopback|not https/, url);
  }
  await assert.rejects(checkWebhookUrl('http://8.8.8.8/', strict), /not https/);
  assert.equal((await checkWebhookUrl('https://8.8.8.8/hook', strict)).url.hostname, '8.8.8.8');
});

test('a delivery connects to the address checked, never to what the name resolves to later (DNS rebinding)', async () => {
  const receiver = await startReceiver();
  try {
    const port = new URL(receiver.url).port;
    // a name that resolves nowhere: only the address the check gave can be reached
    const status = await postTo({ url: new URL(`http://rebind.invalid:${port}/hooks/touchline`), addresses: ['127.0.0.1'] }, { 'content-type': 'application/json' }, '{"id":"evt_pinned","type":"data.updated","created_at":"","data":{}}', 5_000);
    assert.equal(status, 200);
    assert.equal(receiver.received.at(-1)?.body.id, 'evt_pinned');
  } finally {
    await receiver.close();
  }
});

test('a data.updated event reaches the receiver signed with the secret, and is listed as delivered', async () => {
  const receiver = await startReceiver();
  try {
    const made = json(await register({ url: receiver.url, events: ['data.updated'] }));
    const ignoring = json(await register({ url: receiver.url, events: ['list.value_changed'] }));
    assert.equal(await dataUpdated(), 1, 'one delivery: the webhook listening for it');
    await deliverer().tick();
    assert.equal(receiver.received.length, 1);
    const got = receiver.received[0]!;
    assert.ok(signatureValid(got.signature, got.raw, made.secret), got.signature);
    assert.ok(!signatureValid(got.signature, got.raw, 'whsec_wrong'));
    assert.ok(!signatureValid(got.signature, `${got.raw} `, made.secret), 'a changed body fails the check');
    assert.equal(got.body.type, 'data.updated');
    assert.match(got.body.id, /^evt_/);
    assert.ok(!Number.isNaN(Date.parse(got.body.created_at)));
    assert.equal(got.body.data.data_version, t.runtime.world.current().dataVersion);
    const [d] = await deliveries(made.webhook_id);
    assert.equal(d!.status, 'delivered');
    assert.equal(d!.status_code, 200);
    assert.equal(d!.attempts, 1);
    assert.equal(d!.event_id, got.body.id);
    assert.equal((await deliveries(ignoring.webhook_id)).length, 0);
    await t.app.inject({ method: 'DELETE', url: `/v1/webhooks?webhook_id=${made.webhook_id}`, headers: { 'x-api-key': t.key } });
    await t.app.inject({ method: 'DELETE', url: `/v1/webhooks?webhook_id=${ignoring.webhook_id}`, headers: { 'x-api-key': t.key } });
  } finally {
    await receiver.close();
  }
});

test('a receiver answering 500 is retried with backoff; the retry that gets 2xx delivers it', async () => {
  assert.deepEqual([1, 2, 3, 9, 20].map((n) => retryDelayMs(n) / 1000), [30, 60, 120, 7200, 7200]);
  const receiver = await startReceiver((n) => (n === 1 ? 500 : 204));
  try {
    const made = json(await register({ url: receiver.url, events: ['data.updated'] }));
    await dataUpdated();
    const d = deliverer();
    await d.tick();
    let [first] = await deliveries(made.webhook_id);
    assert.equal(first!.status, 'pending');
    assert.equal(first!.status_code, 500);
    assert.equal(first!.attempts, 1);
    assert.equal(first!.error, 'answered 500');
    const wait = Date.parse(String(first!.next_attempt_at)) - Date.parse(String(first!.last_attempt_at));
    assert.ok(wait >= 29_000 && wait <= 31_000, `the first retry waits 30 s (${wait} ms)`);
    await d.tick();
    assert.equal((await deliveries(made.webhook_id))[0]!.attempts, 1, 'not retried before its time');
    // the clock moved on: the retry is due
    await sql`update webhook_deliveries set next_attempt_at = now() where webhook_id = ${made.webhook_id}`.execute(t.handle.db);
    await d.tick();
    [first] = await deliveries(made.webhook_id);
    assert.equal(first!.status, 'delivered');
    assert.equal(first!.status_code, 204);
    assert.equal(first!.attempts, 2);
    assert.equal(receiver.received.length, 1);
    await t.app.inject({ method: 'DELETE', url: `/v1/webhooks?webhook_id=${made.webhook_id}`, headers: { 'x-api-key': t.key } });
  } finally {
    await receiver.close();
  }
});

test('deliveries are stored: raised while no process sends them, a process started later delivers them', async () => {
  const receiver = await startReceiver();
  try {
    const made = json(await register({ url: receiver.url, events: ['data.updated'] }));
    await dataUpdated();
    await dataUpdated();
    const pending = await deliveries(made.webhook_id);
    assert.deepEqual(pending.map((d) => [d.status, d.attempts]), [['pending', 0], ['pending', 0]]);
    // a server started now (its deliverer polling every second) sends both
    const later = new WebhookDeliverer(t.handle.db, { policy: { allowLoopback: true }, servedDataVersion: () => t.runtime.world.current().dataVersion, pollMs: 100 });
    deliverers.push(later);
    later.start();
    await waitFor('both delivered', async () => (await deliveries(made.webhook_id)).every((d) => d.status === 'delivered'), { timeoutMs: 10_000, intervalMs: 100 });
    assert.equal(receiver.received.length, 2);
    assert.notEqual(receiver.received[0]!.body.id, receiver.received[1]!.body.id);
    await later.stop();
  } finally {
    await receiver.close();
  }
});

test('the receiver of docs/calling-the-api.md, run as written, accepts a delivery and refuses a forged one', async () => {
  const doc = readFileSync(join(REPO_ROOT, 'docs/calling-the-api.md'), 'utf8');
  const code = /## Webhooks[\s\S]*?```js\n([\s\S]*?)```/.exec(doc)?.[1];
  assert.ok(code, 'the receiver is in the docs');
  const dir = mkdtempSync(join(tmpdir(), 'touchline-receiver-'));
  const file = join(dir, 'receiver.mjs');
  writeFileSync(file, code);
  const port = await freePort();
  const made = json(await register({ url: `http://127.0.0.1:${port}/`, events: ['data.updated'] }));
  const child = spawn(process.execPath, [file], { env: { ...process.env, PORT: String(port), TOUCHLINE_WEBHOOK_SECRET: made.secret }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  try {
    await waitFor('the receiver listening', async () => fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}' }).then((r) => r.status === 400, () => false), { timeoutMs: 10_000, intervalMs: 100 });
    await dataUpdated();
    await deliverer().tick();
    const [d] = await deliveries(made.webhook_id);
    assert.equal(d!.status, 'delivered', JSON.stringify(d) + out);
    assert.equal(d!.status_code, 204);
    // the child's stdout reaches this process after its answer did: wait for the line
    await waitFor('the receiver\'s line', async () => new RegExp(`^data\\.updated ${d!.event_id} \\{`, 'm').test(out), { timeoutMs: 5_000, intervalMs: 50 });
    const body = JSON.stringify({ id: 'evt_forged', type: 'data.updated', created_at: new Date().toISOString(), data: {} });
    const forged = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body, headers: { 'touchline-signature': signatureHeader('whsec_not_the_secret', body, Math.floor(Date.now() / 1000)) } });
    assert.equal(forged.status, 400);
    const stale = Math.floor(Date.now() / 1000) - 3600;
    const replayed = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body, headers: { 'touchline-signature': signatureHeader(made.secret, body, stale) } });
    assert.equal(replayed.status, 400, 'an hour-old signature is refused');
    assert.doesNotMatch(out, /evt_forged/);
  } finally {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('list.value_changed listens to every list the account sees: its Shortlist, and its organisation\'s shared lists', async () => {
  const s = t.runtime.world.current();
  const [a, b, c] = [...s.players.keys()].sort();
  await createAccount(t.handle.db, { email: 'head@hooks.example', plan: 'hooks-all' });
  await createAccount(t.handle.db, { email: 'scout@hooks.example', plan: 'hooks-all' });
  await createOrganisation(t.handle.db, { name: 'Hooks FC', owner: 'head@hooks.example' });
  await addMemberByName(t.handle.db, { name: 'Hooks FC', email: 'scout@hooks.example', role: 'scout' });
  const head = (await createKey(t.handle.db, { email: 'head@hooks.example' })).api_key;
  const scout = (await createKey(t.handle.db, { email: 'scout@hooks.example' })).api_key;
  await (t.runtime.deps.authenticator as unknown as { tick(): Promise<void> }).tick();
  const list = json(await t.post('/v1/lists', { name: 'Summer window' }, head));
  assert.equal((await t.post('/v1/lists/entries', { list_id: list.list_id, player_id: a }, head)).statusCode, 200);
  assert.equal((await t.post('/v1/shortlist', { player_id: b }, scout)).statusCode, 200);
  assert.equal((await t.post('/v1/shortlist', { player_id: c }, otherKey)).statusCode, 200);
  const scoutHook = json(await register({ url: 'http://127.0.0.1:9/scout', events: ['list.value_changed'] }, scout));
  const listened = await listenersWithListedPlayers(t.handle.db, 'list.value_changed');
  assert.deepEqual(listened.get(scoutHook.webhook_id), [a, b].sort(), 'the shared list\'s player and his own Shortlist\'s; not another account\'s');
});
