import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ROLE_IDS } from '../../src/domain/roles.js';
import { createRng } from '../../src/domain/random.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import {
  answerProblem, endpointsFromOpenApi, generateRequest, leakMarkers, type FuzzContext, type FuzzEndpoint, type FuzzRequest,
} from '../helpers/fuzz.js';

/** Seed and count can be overridden to replay or widen a run (FUZZ_COUNT=50000); the defaults are what CI runs. */
const SEED = Number(process.env.FUZZ_SEED ?? 7_2026);
// About 120 requests a path with the organisation, webhook and MCP routes in: every path must get 100.
const COUNT = Number(process.env.FUZZ_COUNT ?? 7_000);
const BATCH = 8;
const ANSWER_TIMEOUT_MS = 10_000;
const ROOT = new URL('../../', import.meta.url).pathname.replace(/\/$/, '');

let t: TestApp;
let endpoints: FuzzEndpoint[];
let ctx: FuzzContext;

/** Every n-th element of a sorted list, so the sample is deterministic and spread over the world. */
const spread = <T>(xs: readonly T[], n: number): T[] => xs.filter((_, i) => i % Math.max(1, Math.floor(xs.length / n)) === 0).slice(0, n);

before(async () => {
  t = await startTestApp({ env: { RATE_LIMIT: '100000000' } });
  const doc = JSON.parse((await t.get('/v1/openapi.json', null)).body);
  // Signing out would revoke the one key every other request uses; test/api/login-throttle.test.ts covers it.
  endpoints = endpointsFromOpenApi(doc).filter((e) => e.path !== '/v1/auth/logout');
  const s = t.runtime.deps.snapshot();
  // Test apps start their analysis workers on the first analysis: start them here, so the answer
  // timeout below measures answers, not the workers' start.
  await t.runtime.deps.engine.warm({ snapshot: s, source: t.runtime.deps.source(), bundle: t.runtime.deps.models()! });
  const players = [...s.players.values()].sort((a, b) => a.id.localeCompare(b.id));
  const clubs = [...s.clubs.values()].sort((a, b) => a.id.localeCompare(b.id));
  ctx = {
    key: t.key,
    playerIds: spread(players.map((p) => p.id), 40),
    clubIds: spread(clubs.map((c) => c.id), 20),
    competitionIds: [...s.competitions.keys()].sort(),
    roles: ROLE_IDS,
    registryIds: spread(players.flatMap((p) => (p.registry_a_id === null ? [] : [p.registry_a_id])), 20),
  };
});
after(async () => {
  await t?.close();
});

function inject(req: FuzzRequest) {
  const answer = t.app.inject({
    method: req.method as 'GET',
    url: req.url,
    headers: req.headers,
    ...(req.payload === undefined ? {} : { payload: req.payload }),
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms`)), ANSWER_TIMEOUT_MS);
  });
  return Promise.race([answer, timeout]).finally(() => clearTimeout(timer));
}


const describeReq = (i: number, r: FuzzRequest) =>
  `#${i} ${r.kind} ${r.method} ${r.url.slice(0, 160)}${r.url.length > 160 ? '…' : ''} headers=${JSON.stringify(r.headers).slice(0, 160)} payload=${JSON.stringify((r.payload ?? '').slice(0, 160))}`;

describe(`fuzz: ${COUNT} malformed requests (seed ${SEED})`, () => {
  test('the endpoint list comes from the OpenAPI document and covers the API', () => {
    const names = endpoints.map((e) => `${e.method} ${e.path}`);
    for (const must of ['GET /v1/health', 'POST /v1/auth/login', 'GET /v1/player_info', 'POST /v1/query_player', 'GET /v1/competitions']) {
      assert.ok(names.includes(must), must);
    }
    assert.ok(endpoints.length >= 12, names.join(', '));
    assert.ok(endpoints.some((e) => e.body !== null) && endpoints.some((e) => e.query.length > 0));
  });

  test('no 5xx, every answer JSON with an `error` string or a documented success, no leaks', async () => {
    const rng = createRng(SEED);
    const leaks = leakMarkers(ROOT);
    const responses = new Map(endpoints.map((e) => [`${e.method} ${e.path}`, e.responses]));
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    const perPath = new Map<string, number>();
    const started = Date.now();

    for (let i = 0; i < COUNT; i += BATCH) {
      const batch: FuzzRequest[] = [];
      for (let j = i; j < Math.min(COUNT, i + BATCH); j++) batch.push(generateRequest(rng, endpoints, ctx));
      const answers = await Promise.allSettled(batch.map(inject));
      answers.forEach((a, k) => {
        const req = batch[k];
        const path = req.url.split('?')[0];
        perPath.set(path, (perPath.get(path) ?? 0) + 1);
        if (a.status === 'rejected') {
          failures.push(`${describeReq(i + k, req)} -> ${String(a.reason)}`);
          return;
        }
        const res = a.value;
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        const problem = answerProblem(req, res, { key: t.key, leaks, responses: responses.get(`${req.method} ${path}`) });
        if (problem) failures.push(`${describeReq(i + k, req)} -> ${res.statusCode} ${problem}: ${res.body.slice(0, 300)}`);
      });
    }

    const seconds = (Date.now() - started) / 1000;
    const tally = [...statuses].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}:${n}`).join(' ');
    console.log(`fuzz: ${COUNT} requests in ${seconds.toFixed(1)} s (${Math.round(COUNT / seconds)}/s); statuses ${tally}`);
    assert.deepEqual(failures.slice(0, 20), [], `${failures.length} bad answers (first 20 shown; replay with FUZZ_SEED=${SEED})`);

    // The run reached every layer: access, validation, data, body limit, and success.
    for (const s of [200, 400, 401, 404, 413]) assert.ok((statuses.get(s) ?? 0) > 0, `no ${s} answer in the run: ${tally}`);
    for (const e of endpoints) assert.ok((perPath.get(e.path) ?? 0) >= 100, `${e.path} got only ${perPath.get(e.path) ?? 0} requests`);
  });

  test(
    'an undecodable path answers 404 Not found with the security headers',
    async () => {
      for (const url of ['/v1/%ZZ', '/%', '/v1/x%ED%A0%80', '/v1/player_info%C0%AF']) {
        const res = await t.get(url);
        assert.equal(res.statusCode, 404, url);
        assert.deepEqual(JSON.parse(res.body), { error: 'Not found' }, url);
        assert.equal(res.headers['x-content-type-options'], 'nosniff', url);
        assert.equal(res.headers['cache-control'], 'no-store', url);
      }
    },
  );

  test(
    'a NUL character in the login email is refused, not a 500',
    async () => {
      for (const email of ['\u0000', 'a\u0000b@example.com']) {
        const res = await t.post('/v1/auth/login', { email, password: 'whatever' }, null);
        // 429 once the fuzzing above spent this address's 30 failed logins.
        assert.ok([400, 401, 429].includes(res.statusCode), `${JSON.stringify(email)}: ${res.statusCode} ${res.body}`);
        assert.equal(typeof JSON.parse(res.body).error, 'string');
      }
    },
  );

  test('afterwards the server is healthy and valid requests still work', async () => {
    const health = await t.get('/v1/health', null);
    assert.equal(health.statusCode, 200);
    assert.equal(JSON.parse(health.body).status, 'ok');
    const comps = await t.get('/v1/competitions');
    assert.equal(comps.statusCode, 200);
    assert.ok(JSON.parse(comps.body).competitions.length > 0);
    const player = ctx.playerIds[0];
    const info = await t.get(`/v1/player_info?player_id=${player}`);
    assert.equal(info.statusCode, 200, info.body);
    assert.equal(JSON.parse(info.body).service_id, player);
    const lookup = await t.post('/v1/query_player', { service_id: player });
    assert.equal(lookup.statusCode, 200, lookup.body);
  });
});
