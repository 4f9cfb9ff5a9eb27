import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { buildApp } from '../../src/app.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t?.close();
});

const json = (res: { body: string }) => JSON.parse(res.body);

describe('keys', () => {
  test('no key: 401 Missing API key', async () => {
    const res = await t.get('/v1/competitions', null);
    assert.equal(res.statusCode, 401);
    assert.deepEqual(json(res), { error: 'Missing API key' });
    assert.deepEqual(json(await t.get('/v1/competitions', null, { authorization: 'Basic abc' })), { error: 'Missing API key' });
  });

  test('unknown or malformed key: 401 Invalid API key', async () => {
    for (const key of ['x', 'tl_' + 'a'.repeat(40), 'k'.repeat(500)]) {
      const res = await t.get('/v1/competitions', key);
      assert.equal(res.statusCode, 401);
      assert.deepEqual(json(res), { error: 'Invalid API key' });
    }
  });

  test('Authorization: Bearer works like x-api-key', async () => {
    const res = await t.get('/v1/competitions', null, { authorization: `Bearer ${t.key}` });
    assert.equal(res.statusCode, 200);
  });

  test('the key is checked before the body is parsed and before validation', async () => {
    const res = await t.post('/v1/query_club', '{not json', null);
    assert.equal(res.statusCode, 401);
    const res2 = await t.get('/v1/player_info?player_id=bad', 'nope-nope-nope-nope-nope');
    assert.deepEqual(json(res2), { error: 'Invalid API key' });
  });

  test('authenticated answers carry RateLimit headers', async () => {
    const res = await t.get('/v1/competitions');
    assert.equal(res.headers['ratelimit-limit'], String(t.config.RATE_LIMIT));
    assert.match(String(res.headers['ratelimit-remaining']), /^\d+$/);
    assert.match(String(res.headers['ratelimit-reset']), /^\d+$/);
  });
});

describe('transport', () => {
  test('health needs no key and reports its parts', async () => {
    const res = await t.get('/v1/health', null);
    assert.equal(res.statusCode, 200);
    const b = json(res);
    assert.deepEqual(Object.keys(b).sort(), ['data_as_of', 'database', 'rate_limit', 'status', 'version']);
    assert.equal(b.data_as_of, '2026-06-30', 'the demo world keeps its own as-of date');
    assert.equal(b.status, 'ok');
    assert.equal(b.database, 'ok');
    assert.equal(b.rate_limit, 'ok');
    assert.equal(res.headers['ratelimit-limit'], undefined);
  });

  test('unknown routes: 404 Not found', async () => {
    for (const url of ['/v1/nope', '/nope', '/v2/competitions']) {
      const res = await t.get(url);
      assert.equal(res.statusCode, 404);
      assert.deepEqual(json(res), { error: 'Not found' });
    }
    // a known path with a method it does not have is 405 (EXTENSIONS.md, strict parameters)
    const wrongMethod = await t.app.inject({ method: 'DELETE', url: '/v1/competitions', headers: { 'x-api-key': t.key } });
    assert.equal(wrongMethod.statusCode, 405);
    assert.deepEqual(json(wrongMethod), { error: 'Method not allowed' });
    assert.equal(wrongMethod.headers.allow, 'GET, HEAD');
  });

  test('bodies that are not JSON objects: 400 Body must be a JSON object', async () => {
    for (const body of ['{"a":', 'null', '[]', '42', '']) {
      const res = await t.post('/v1/query_player', body);
      assert.equal(res.statusCode, 400, body);
      assert.deepEqual(json(res), { error: 'Body must be a JSON object' }, body);
    }
    const text = await t.post('/v1/query_player', 'registry_a_id=1', undefined, { 'content-type': 'text/plain' });
    assert.deepEqual(json(text), { error: 'Body must be a JSON object' });
  });

  test('bodies over 1 MiB: 413 Request body too large', async () => {
    const big = JSON.stringify({ service_id: 'x'.repeat(1024 * 1024 + 10) });
    const res = await t.post('/v1/query_player', big);
    assert.equal(res.statusCode, 413);
    assert.deepEqual(json(res), { error: 'Request body too large' });
  });

  test('an unexpected failure answers 500 with the fixed body and no stack', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'error' }, { write: (l: string) => lines.push(l) });
    const broken = await buildApp({ ...t.runtime.deps, snapshot: () => { throw new Error('read model exploded'); } }, { logger });
    const res = await broken.inject({ method: 'GET', url: '/v1/competitions', headers: { 'x-api-key': t.key } });
    await broken.close();
    assert.equal(res.statusCode, 500);
    assert.deepEqual(json(res), { error: 'Unexpected server error. Please try again later.' });
    assert.ok(lines.some((l) => l.includes('read model exploded')), 'the error is logged');
    assert.ok(!lines.some((l) => l.includes(t.key)), 'the key is not logged');
  });

  test('while draining, health answers 503 draining and requests in flight still finish', async () => {
    const app = await buildApp(t.runtime.deps, { logger: false });
    try {
      const drained = app.drain(50, 2_000);
      const health = await app.inject({ method: 'GET', url: '/v1/health' });
      assert.equal(health.statusCode, 503);
      assert.deepEqual(json(health), { status: 'draining', version: t.runtime.deps.version, database: 'ok', rate_limit: 'ok' });
      const res = await app.inject({ method: 'GET', url: '/v1/competitions', headers: { 'x-api-key': t.key } });
      assert.equal(res.statusCode, 200);
      await drained;
      assert.equal(app.isDraining(), true);
    } finally {
      await app.close();
    }
  });

  test('security headers on every answer', async () => {
    const res = await t.get('/v1/competitions');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['cache-control'], 'no-store');
  });

  test('OpenAPI 3.1 document lists every endpoint; docs page is served', async () => {
    const res = await t.get('/v1/openapi.json', null);
    assert.equal(res.statusCode, 200);
    const doc = json(res);
    assert.equal(doc.openapi, '3.1.0');
    for (const p of [
      '/v1/health', '/v1/competitions', '/v1/get_clubs_in_competition', '/v1/get_players_at_club', '/v1/query_club',
      '/v1/query_player', '/v1/player_info', '/v1/player_positions', '/v1/career_path', '/v1/playing_time',
      '/v1/role_description', '/v1/auth/login',
    ]) {
      assert.ok(doc.paths[p], p);
    }
    assert.ok(doc.paths['/v1/player_info'].get.parameters.some((x: { name: string }) => x.name === 'player_id'));
    const docs = await t.get('/docs', null);
    assert.ok([200, 302].includes(docs.statusCode));
    const page = await t.get('/docs/', null);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /swagger/i);
  });
});
