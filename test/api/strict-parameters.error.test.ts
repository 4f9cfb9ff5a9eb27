import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let player: string;
let club: string;
before(async () => {
  t = await startTestApp();
  const s = t.runtime.world.current();
  player = [...s.players.values()].find((p) => p.analysis_available)!.id;
  club = [...s.clubs.keys()].sort()[0]!;
});
after(async () => {
  await t?.close();
});

const json = (res: { body: string }) => JSON.parse(res.body);
const unknown = (name: string) => ({ error: `Unknown parameter: ${name}` });

describe('unknown parameters: 400 Unknown parameter', () => {
  test('a query parameter the endpoint does not define, on every kind of GET', async () => {
    for (const path of ['/v1/players?max_agee=3', '/v1/competitions?x=1', `/v1/player_info?player_id=${player}&currencyy=GBP`, '/v1/search?q=united&typo=1']) {
      const res = await t.get(path);
      assert.equal(res.statusCode, 400, path);
      assert.deepEqual(json(res), unknown([...new URL(path, 'http://x').searchParams.keys()].at(-1)!), path);
    }
  });

  test('a body field the endpoint does not define', async () => {
    const res = await t.post('/v1/get_roi_analysis', { player_id: player, club_id: club, annual_wages: 1 });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(json(res), unknown('annual_wages'));
    const login = await t.post('/v1/auth/login', { email: 'a@b.c', password: 'x', remember: true }, null);
    assert.deepEqual([login.statusCode, json(login)], [400, unknown('remember')]);
  });

  test('checked first among the 400s: before a missing or malformed field', async () => {
    assert.deepEqual(json(await t.get('/v1/players?sort=nope&max_agee=3')), unknown('max_agee'));
    assert.deepEqual(json(await t.post('/v1/get_sportive_impact', { club_id: 'bad', extra: 1 })), unknown('extra'));
    assert.deepEqual(json(await t.get('/v1/player_info?nope=1')), unknown('nope'));
  });

  test('after the key, account and rate checks', async () => {
    const res = await t.get('/v1/players?max_agee=3', null);
    assert.deepEqual([res.statusCode, json(res)], [401, { error: 'Missing API key' }]);
    const bad = await t.post('/v1/get_roi_analysis', { extra: 1 }, 'tl_nope');
    assert.deepEqual([bad.statusCode, json(bad)], [401, { error: 'Invalid API key' }]);
  });

  test('what the endpoints define is accepted, aliases and ignored parameters included', async () => {
    assert.equal((await t.get(`/v1/player_positions?player_id=${player}`)).statusCode, 200);
    assert.equal((await t.get(`/v1/player_positions?player_id=anything`)).statusCode, 200);
    const competition = [...t.runtime.world.current().clubsOfLeague.keys()].sort()[0]!;
    assert.equal((await t.get(`/v1/get_clubs_in_competition?competition=${competition}`)).statusCode, 200);
    assert.equal((await t.get(`/v1/get_clubs_in_competition?competition_id=${competition}`)).statusCode, 200);
    assert.equal((await t.get('/v1/players?max_age=30&limit=2')).statusCode, 200);
  });

  test('HEAD on a GET route follows the GET route', async () => {
    const ok = await t.app.inject({ method: 'HEAD', url: '/v1/competitions', headers: { 'x-api-key': t.key } });
    assert.equal(ok.statusCode, 200);
    const typo = await t.app.inject({ method: 'HEAD', url: '/v1/competitions?x=1', headers: { 'x-api-key': t.key } });
    assert.equal(typo.statusCode, 400);
  });

  test('the web app, the docs and the OpenAPI document are not API routes', async () => {
    for (const path of ['/?x=1', '/docs?x=1', '/v1/openapi.json?x=1']) {
      const res = await t.get(path, null);
      assert.ok(res.statusCode < 400 || res.statusCode === 503, `${path}: ${res.statusCode}`);
    }
  });
});

describe('wrong methods: 405 Method not allowed', () => {
  test('a GET on a POST route, and a POST on a GET route, name the methods the path has', async () => {
    const get = await t.get('/v1/get_roi_analysis');
    assert.equal(get.statusCode, 405);
    assert.deepEqual(json(get), { error: 'Method not allowed' });
    assert.equal(get.headers.allow, 'POST');
    const post = await t.post('/v1/players', {});
    assert.deepEqual([post.statusCode, json(post), post.headers.allow], [405, { error: 'Method not allowed' }, 'GET, HEAD']);
  });

  test('any other method, with or without a key, and with a trailing slash', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH'] as const) {
      const res = await t.app.inject({ method, url: '/v1/squad_analysis' });
      assert.deepEqual([res.statusCode, json(res), res.headers.allow], [405, { error: 'Method not allowed' }, 'POST'], method);
    }
    const slash = await t.get('/v1/recommend_signings/');
    assert.deepEqual([slash.statusCode, slash.headers.allow], [405, 'POST']);
    const query = await t.app.inject({ method: 'DELETE', url: '/v1/health?x=1' });
    assert.deepEqual([query.statusCode, query.headers.allow], [405, 'GET, HEAD']);
  });

  test('the 405 carries the security headers like every answer', async () => {
    const res = await t.get('/v1/get_roi_analysis');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['cache-control'], 'no-store');
  });

  test('unknown routes stay 404 Not found, whatever the method; the web app and docs paths are not judged', async () => {
    for (const [method, url] of [['GET', '/v1/nope'], ['POST', '/v1/nope'], ['DELETE', '/v1/'], ['POST', '/docs/nope'], ['GET', '/nope']] as const) {
      const res = await t.app.inject({ method, url });
      assert.deepEqual([res.statusCode, json(res)], [404, { error: 'Not found' }], `${method} ${url}`);
      assert.equal(res.headers.allow, undefined);
    }
  });
});
