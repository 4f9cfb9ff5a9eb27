import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import pino from 'pino';
import { createAccount } from '../../src/access/accounts.js';
import { createKeyForAccount } from '../../src/access/keys.js';
import { createLoginService } from '../../src/access/login.js';
import { SqlLoginThrottle } from '../../src/access/throttle/index.js';
import { createRateLimiter } from '../../src/access/ratelimit/index.js';
import { buildApp } from '../../src/app.js';
import { WORLD_TABLE_ORDER } from '../../src/domain/world.js';
import type { HttpDeps } from '../../src/http/deps.js';
import { REDACT_PATHS } from '../../src/logger.js';
import { createRuntime, type Runtime } from '../../src/runtime.js';
import { jsonBodyOfSize } from '../helpers/fuzz.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const UNEXPECTED = 'Unexpected server error. Please try again later.';
const EMAIL = 'security-test@example.com';
const PASSWORD = 'S3cret-Pa55word-that-must-never-be-logged';
const BAD_KEY = 'tl_wrong_key_that_must_not_be_logged_either';

let t: TestApp;
/** A key issued for the test account, so a second, non-bootstrap key is checked too. */
let ownKey: string;

before(async () => {
  t = await startTestApp();
  const account = await createAccount(t.handle.db, { email: EMAIL, password: PASSWORD, plan: 'all-coverage' });
  ownKey = (await createKeyForAccount(t.handle.db, account.id, { label: 'security-test' })).api_key;
});
after(async () => {
  await t?.close();
});

const json = (res: { body: string }) => JSON.parse(res.body) as Record<string, unknown>;

/** A pino logger with the production redaction, writing to memory (createLogger writes to stdout only). */
function captureLogger(level: string) {
  const lines: string[] = [];
  const logger = pino({ level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, { write: (l: string) => void lines.push(l) });
  return { logger, lines };
}

describe('secrets never reach the log', () => {
  test('keys, bad keys, passwords and issued keys are absent from trace-level output', async () => {
    const { logger, lines } = captureLogger('trace');
    // Runtime too, so the authenticator, limiter and login service log through the capture.
    const runtime: Runtime = await createRuntime(t.config, t.handle, logger, { dataPollMs: 0 });
    const failing: HttpDeps = { ...runtime.deps, snapshot: () => { throw new Error(`read model exploded for ${'x'}`); } };
    const loginFailing: HttpDeps = {
      ...runtime.deps,
      login: { login: async () => { throw new Error('login store unavailable'); }, logout: async () => {} },
    };
    const apps = [await buildApp(runtime.deps, { logger }), await buildApp(failing, { logger }), await buildApp(loginFailing, { logger })];
    const [app, broken, brokenLogin] = apps;
    const issued: string[] = [];
    try {
      const get = (a: typeof app, url: string, headers: Record<string, string>) => a.inject({ method: 'GET', url, headers });
      const login = (a: typeof app, body: unknown) =>
        a.inject({ method: 'POST', url: '/v1/auth/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });

      assert.equal((await get(app, '/v1/competitions', { 'x-api-key': t.key })).statusCode, 200);
      assert.equal((await get(app, '/v1/competitions', { authorization: `Bearer ${ownKey}` })).statusCode, 200);
      assert.equal((await get(app, '/v1/competitions', { 'x-api-key': BAD_KEY })).statusCode, 401);
      assert.equal((await get(app, '/v1/player_info?player_id=nope', { 'x-api-key': t.key })).statusCode, 400);
      const ok = await login(app, { email: EMAIL, password: PASSWORD });
      assert.equal(ok.statusCode, 200, ok.body);
      issued.push(String(json(ok).api_key));
      assert.equal((await get(app, '/v1/competitions', { 'x-api-key': issued[0] })).statusCode, 200);
      assert.equal((await login(app, { email: EMAIL, password: `${PASSWORD}-wrong` })).statusCode, 401);
      assert.equal((await login(app, { email: 'nobody@example.com', password: PASSWORD })).statusCode, 401);
      assert.equal((await get(broken, '/v1/competitions', { 'x-api-key': t.key })).statusCode, 500);
      assert.equal((await login(brokenLogin, { email: EMAIL, password: PASSWORD })).statusCode, 500);
    } finally {
      for (const a of apps) await a.close();
      await runtime.close();
    }

    const log = lines.join('');
    assert.ok(lines.length > 0 && log.includes('read model exploded') && log.includes('login store unavailable'), 'the 500s are logged');
    for (const [name, secret] of [['bootstrap key', t.key], ['account key', ownKey], ['bad key', BAD_KEY], ['password', PASSWORD], ['issued key', issued[0]]]) {
      assert.ok(!log.includes(secret), `the ${name} appears in the log`);
    }
  });

  test('the redaction paths censor keys and passwords where request logging would put them', () => {
    const { logger, lines } = captureLogger('trace');
    logger.info({ req: { headers: { 'x-api-key': t.key, authorization: `Bearer ${t.key}` } } }, 'request');
    logger.info({ headers: { 'x-api-key': t.key, authorization: `Bearer ${t.key}` } }, 'headers');
    logger.info({ body: { email: EMAIL, password: PASSWORD } }, 'body');
    logger.info({ password: PASSWORD, api_key: t.key, apiKey: t.key, key: t.key }, 'fields');
    const log = lines.join('');
    assert.equal(lines.length, 4);
    assert.ok(!log.includes(t.key) && !log.includes(PASSWORD), log);
    assert.ok(log.includes(EMAIL), 'only secrets are censored');
  });
});

describe('security headers', () => {
  const expectHeaders = (res: { statusCode: number; headers: Record<string, unknown> }, what: string, api = true) => {
    assert.equal(res.headers['x-content-type-options'], 'nosniff', what);
    assert.ok(['DENY', 'SAMEORIGIN'].includes(String(res.headers['x-frame-options'])), `${what}: X-Frame-Options ${String(res.headers['x-frame-options'])}`);
    assert.ok(res.headers['referrer-policy'], `${what}: Referrer-Policy`);
    if (api) assert.equal(res.headers['cache-control'], 'no-store', what);
  };

  test('on successes and on every kind of error', async () => {
    const cases: Array<[string, () => Promise<{ statusCode: number; headers: Record<string, unknown> }>, number]> = [
      ['200', () => t.get('/v1/competitions'), 200],
      ['health', () => t.get('/v1/health', null), 200],
      ['openapi', () => t.get('/v1/openapi.json', null), 200],
      ['400 validation', () => t.get('/v1/player_info?player_id=bad'), 400],
      ['400 malformed JSON', () => t.post('/v1/query_player', '{'), 400],
      ['401', () => t.get('/v1/competitions', null), 401],
      ['404 route', () => t.get('/v1/nope'), 404],
      ['404 player', () => t.get(`/v1/player_info?player_id=P${'0'.repeat(26)}`), 404],
      ['413', () => t.post('/v1/query_player', jsonBodyOfSize(1024 * 1024 + 1)), 413],
      ['login 401', () => t.post('/v1/auth/login', { email: 'nobody@example.com', password: 'x' }, null), 401],
    ];
    for (const [what, run, status] of cases) {
      const res = await run();
      assert.equal(res.statusCode, status, what);
      expectHeaders(res, what);
    }
    const broken = await buildApp({ ...t.runtime.deps, snapshot: () => { throw new Error('boom'); } }, { logger: pino({ level: 'silent' }) });
    try {
      const res = await broken.inject({ method: 'GET', url: '/v1/competitions', headers: { 'x-api-key': t.key } });
      assert.equal(res.statusCode, 500);
      expectHeaders(res, '500');
    } finally {
      await broken.close();
    }
  });

  test('429 answers carry them too', async () => {
    const silent = pino({ level: 'silent' });
    const limiter = await createRateLimiter({ limit: 1, windowSeconds: 60, logger: silent });
    const limited = await buildApp({ ...t.runtime.deps, limiter }, { logger: silent });
    try {
      const get = () => limited.inject({ method: 'GET', url: '/v1/competitions', headers: { 'x-api-key': t.key } });
      assert.equal((await get()).statusCode, 200);
      const res = await get();
      assert.equal(res.statusCode, 429);
      expectHeaders(res, '429');
    } finally {
      await limited.close();
      await limiter.close();
    }
  });

  test('the docs page cannot be framed', async () => {
    const res = await t.get('/docs/', null);
    assert.equal(res.statusCode, 200);
    expectHeaders(res, 'docs', false);
  });
});

describe('no stack traces', () => {
  test('whatever a dependency throws, a 500 answers the fixed body only', async () => {
    const throwables: unknown[] = [
      new Error(`failed at ${new URL('../../src/app.ts', import.meta.url).pathname}:1:1`),
      new TypeError("Cannot read properties of undefined (reading 'id')"),
      'a bare string',
      { message: 'plain object', stack: 'Error\n    at secret (/srv/app.js:1:1)' },
      Object.assign(new Error('upstream said 503'), { statusCode: 503 }),
      Object.assign(new Error('relation "players" does not exist'), { code: '42P01', severity: 'ERROR' }),
    ];
    for (const thrown of throwables) {
      const app = await buildApp({ ...t.runtime.deps, snapshot: () => { throw thrown; } }, { logger: pino({ level: 'silent' }) });
      try {
        const res = await app.inject({ method: 'GET', url: '/v1/competitions', headers: { 'x-api-key': t.key } });
        assert.equal(res.statusCode, 500, String(thrown));
        assert.deepEqual(json(res), { error: UNEXPECTED });
        assert.match(String(res.headers['content-type']), /^application\/json/);
      } finally {
        await app.close();
      }
    }
  });
});

/** Fastify keeps `requestTimeout` in initialConfig at run time; its type leaves it out. */
const initialRequestTimeout = (app: { initialConfig: object }) => (app.initialConfig as { requestTimeout?: number }).requestTimeout;

/** Writes `request` on a fresh connection and collects what comes back until the server closes it. */
function rawExchange(port: number, request: string): Promise<{ data: string; closedAfterMs: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    const guard = setTimeout(() => {
      socket.destroy();
      reject(new Error('the connection was still open after 10 s'));
    }, 10_000);
    socket.on('connect', () => socket.write(request));
    socket.on('data', (d) => (data += d.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(guard);
      resolve({ data, closedAfterMs: Date.now() - started });
    });
  });
}

/** Status, lower-cased headers and body of one raw HTTP/1.1 response. */
function parseRaw(data: string): { status: number; headers: Record<string, string>; body: string } {
  const split = data.indexOf('\r\n\r\n');
  assert.ok(split > 0, `no complete response head in ${JSON.stringify(data)}`);
  const [statusLine, ...lines] = data.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: data.slice(split + 4) };
}

/** An answer Fastify writes on the raw socket: the house shape, the security headers, then the connection closes. */
function assertHouseAnswer(data: string, status: number, error: string): void {
  const res = parseRaw(data);
  assert.equal(res.status, status, data);
  assert.deepEqual(JSON.parse(res.body), { error }, data);
  assert.equal(Number(res.headers['content-length']), Buffer.byteLength(res.body), 'content-length matches the body');
  assert.match(res.headers['content-type'] ?? '', /^application\/json/);
  assert.equal(res.headers.connection, 'close');
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
  assert.equal(res.headers['cache-control'], 'no-store');
  assert.equal(res.headers['x-frame-options'], 'DENY');
  assert.equal(res.headers['referrer-policy'], 'no-referrer');
}

describe('request timeout', () => {
  test('configured, and a listening server drops a request whose body never finishes', async () => {
    const app = await buildApp(t.runtime.deps, { logger: pino({ level: 'silent' }) });
    try {
      const configured = initialRequestTimeout(app);
      assert.ok(typeof configured === 'number' && configured > 0 && configured <= 60_000, `requestTimeout ${configured}`);
      assert.equal(app.server.requestTimeout, configured, 'the setting reaches the HTTP server');
      // buildApp has no option for a shorter timeout, so the test shortens the same server settings
      // (both, with headersTimeout <= requestTimeout as Node requires at construction, and a check
      // more often than Node's 30 s default) to keep the run to seconds; the mechanism is the app's own.
      app.server.requestTimeout = 1_500;
      app.server.headersTimeout = 1_500;
      (app.server as unknown as { connectionsCheckingInterval: number }).connectionsCheckingInterval = 250;
      await app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = app.server.address() as { port: number };

      const outcome = await rawExchange(
        port,
        `POST /v1/query_player HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${t.key}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"service_id":`,
      );
      assert.ok(outcome.closedAfterMs >= 1_000 && outcome.closedAfterMs < 5_000, `closed after ${outcome.closedAfterMs} ms`);
      assert.match(outcome.data, /^HTTP\/1\.1 408/, 'answered 408 before closing');
      assertHouseAnswer(outcome.data, 408, 'Request timeout');

      // A body that stalls after two of its 100 bytes.
      const short = await rawExchange(port, `POST /v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"`);
      assertHouseAnswer(short.data, 408, 'Request timeout');
    } finally {
      await app.close();
    }
  });

  test('malformed HTTP and oversized heads get the house shape; an oversized body keeps its 413', async () => {
    const app = await buildApp(t.runtime.deps, { logger: pino({ level: 'silent' }) });
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = app.server.address() as { port: number };
      assertHouseAnswer((await rawExchange(port, 'THIS IS NOT HTTP\r\n\r\n')).data, 400, 'Bad request');
      assertHouseAnswer((await rawExchange(port, 'GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n')).data, 400, 'Bad request');
      const bigHead = `GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nx-filler: ${'a'.repeat(64 * 1024)}\r\n\r\n`;
      assertHouseAnswer((await rawExchange(port, bigHead)).data, 431, 'Request header fields too large');

      // Answered by the route's error handler, not on the raw socket: unchanged.
      const tooLarge = await rawExchange(
        port,
        `POST /v1/query_player HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${t.key}\r\ncontent-type: application/json\r\ncontent-length: ${2 * 1024 * 1024}\r\nConnection: close\r\n\r\n{}`,
      );
      const res = parseRaw(tooLarge.data);
      assert.equal(res.status, 413, tooLarge.data);
      assert.deepEqual(JSON.parse(res.body), { error: 'Request body too large' });
    } finally {
      await app.close();
    }
  });

  test(
    'a stalled body is cut at the configured requestTimeout, not at the 60 s headersTimeout',
    async () => {
      const app = await buildApp(t.runtime.deps, { logger: pino({ level: 'silent' }) });
      try {
        const configured = initialRequestTimeout(app) ?? 0;
        assert.ok(app.server.headersTimeout <= configured, `headersTimeout ${app.server.headersTimeout} > requestTimeout ${configured}`);
      } finally {
        await app.close();
      }
    },
  );
});

describe('stored secrets', () => {
  test('keys are stored only as hashes, passwords only as argon2id', async () => {
    // A key issued by login too, so every way a key is made is covered.
    const login = await t.post('/v1/auth/login', { email: EMAIL, password: PASSWORD }, null);
    assert.equal(login.statusCode, 200, login.body);
    const issued = String(json(login).api_key);

    const keys = await t.handle.db.selectFrom('api_keys').selectAll().execute();
    assert.ok(keys.length >= 3, `${keys.length} keys`);
    for (const row of keys) {
      assert.match(row.key_hash, /^[0-9a-f]{64}$/);
      const text = JSON.stringify(row);
      for (const raw of [t.key, ownKey, issued]) assert.ok(!text.includes(raw), `a raw key is stored in api_keys row ${row.id}`);
    }
    const account = await t.handle.db.selectFrom('accounts').selectAll().where('email', '=', EMAIL).executeTakeFirstOrThrow();
    assert.match(String(account.password_hash), /^\$argon2id\$/);

    // Nowhere outside the world's own tables either (accounts, plans, failures, metadata, models, rates...).
    const tables = await sql<{ table_name: string }>`
      select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(t.handle.db);
    const world = new Set<string>(WORLD_TABLE_ORDER);
    const checked: string[] = [];
    for (const { table_name: name } of tables.rows.filter((r) => !world.has(r.table_name))) {
      const rows = await sql<{ row: string }>`select row_to_json(x)::text as row from ${sql.table(name)} x`.execute(t.handle.db);
      for (const { row } of rows.rows) {
        for (const secret of [t.key, ownKey, issued, PASSWORD]) assert.ok(!row.includes(secret), `a secret is stored in ${name}`);
      }
      checked.push(name);
    }
    assert.ok(checked.includes('api_keys') && checked.includes('accounts'), checked.join(', '));
  });
});

describe('login lockout', () => {
  test('holds across two app instances on one database', async () => {
    const email = 'lockout-test@example.com';
    await createAccount(t.handle.db, { email, password: PASSWORD, plan: 'all-coverage' });
    const silent = pino({ level: 'silent' });
    // Two instances: each its own login service (all login state an instance holds), one database.
    const [a, b] = [
      await buildApp({ ...t.runtime.deps, login: createLoginService(t.handle.db, new SqlLoginThrottle(t.handle.db)) }, { logger: silent }),
      await buildApp({ ...t.runtime.deps, login: createLoginService(t.handle.db, new SqlLoginThrottle(t.handle.db)) }, { logger: silent }),
    ];
    try {
      const login = (app: typeof a, password: string) =>
        app.inject({ method: 'POST', url: '/v1/auth/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ email, password }) });
      for (let i = 0; i < 10; i++) assert.equal((await login(i % 2 === 0 ? a : b, 'wrong')).statusCode, 401, `attempt ${i + 1}`);
      const locked = await login(b, PASSWORD);
      assert.equal(locked.statusCode, 429, 'the right password is refused while locked, on the other instance');
      assert.ok(Number(locked.headers['retry-after']) >= 1);
      assert.equal((await login(a, PASSWORD)).statusCode, 429);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
