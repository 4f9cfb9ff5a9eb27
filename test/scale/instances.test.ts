/**
 * Two real server processes on one PostgreSQL database and one Redis, as behind a load balancer:
 * keys, the rate limit, account changes, login lockout and world changes are shared without a restart.
 * Needs TOUCHLINE_TEST_DATABASE_URL and TOUCHLINE_TEST_REDIS_URL (`.ci/run` sets both).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createKey, revokeKey } from '../../src/access/keys.js';
import { openDatabase } from '../../src/data/db.js';
import { createScratchDatabase, queryOnce, runCli, spawnCli, startServerProcess, StopWaiting, waitFor, type HttpAnswer, type ServerProcess } from '../helpers/server-process.js';

const PG = process.env.TOUCHLINE_TEST_DATABASE_URL;
const REDIS = process.env.TOUCHLINE_TEST_REDIS_URL;
const skip = !PG || !REDIS ? 'set TOUCHLINE_TEST_DATABASE_URL and TOUCHLINE_TEST_REDIS_URL to run the scale-out tests (.ci/run does)' : false;

const BOOTSTRAP_KEY = 'tl_scale_instances_key_0123456789abcdef';
const LIMIT = 10;
const PASSWORD = 'correct horse battery staple';
const PLAN = 'all-coverage';
/** docs/operations.md: a change made by another process is in force on every instance within 0.5 s. */
const FRESHNESS_BOUND_MS = 500;

describe('several instances on one PostgreSQL and one Redis', { skip }, () => {
  let db: Awaited<ReturnType<typeof createScratchDatabase>>;
  let a: ServerProcess;
  let b: ServerProcess;
  let cliEnv: Record<string, string>;
  const run = `${process.pid}`;

  before(async () => {
    db = await createScratchDatabase(PG!, `scale_i${run}`);
    cliEnv = { DATABASE_URL: db.url };
    const env = {
      DATABASE_URL: db.url,
      REDIS_URL: REDIS!,
      RATE_LIMIT: String(LIMIT),
      // A short window so the polling below stays under the limit; the shared-limit test needs < 10 s.
      RATE_WINDOW_SECONDS: '10',
      TOUCHLINE_BOOTSTRAP_KEY: BOOTSTRAP_KEY,
      LOG_LEVEL: 'warn',
    };
    // A loads the demo world into the empty database; B starts on it afterwards, as a scale-out does.
    a = await startServerProcess({ env, name: 'instance A', startTimeoutMs: 150_000 });
    b = await startServerProcess({ env, name: 'instance B', startTimeoutMs: 60_000 });
  });

  after(async () => {
    const stops = await Promise.all([a?.stop(), b?.stop()]);
    await db?.drop();
    for (const s of stops) if (s) assert.deepEqual({ code: s.code, forced: s.forced }, { code: 0, forced: false }, 'a clean exit on SIGTERM');
  });

  const cli = (...args: string[]) => runCli([...args, '--json'], cliEnv);

  async function newAccount(label: string, status = 'active'): Promise<{ email: string; key: string; keyId: string }> {
    const email = `${label}-${run}@scale.test`;
    await cli('accounts', 'create', '--email', email, '--password', PASSWORD, '--plan', PLAN, '--status', status);
    const k = (await cli('keys', 'create', '--email', email)).json<{ key_id: string; api_key: string }>();
    return { email, key: k.api_key, keyId: k.key_id };
  }

  /** When the last access change was written: its version starts with Date.now() in base 36. */
  async function accessChangedAt(): Promise<number> {
    const [row] = await queryOnce<{ value: string }>(db.url, `select value from meta where key = 'access_version'`);
    return parseInt(row.value.split('-')[0], 36);
  }

  /** Polls both instances until `seen` holds on each; returns each instance's time of first sight. */
  async function seenByBoth(what: string, path: string, key: string, seen: (r: HttpAnswer) => boolean, timeoutMs: number): Promise<number[]> {
    return Promise.all(
      [a, b].map((s) =>
        waitFor(`${what} on ${s.name}`, async () => ((seen(await s.request(path, { key }))) ? Date.now() : undefined), { timeoutMs, intervalMs: 100 }),
      ),
    );
  }

  test('a key made through the CLI works on both instances, and a key from a login on A works on B', async () => {
    const acc = await newAccount('keys');
    const ra = await a.request('/v1/competitions', { key: acc.key });
    const rb = await b.request('/v1/competitions', { key: acc.key });
    assert.equal(ra.status, 200, ra.text);
    assert.equal(rb.status, 200, rb.text);
    assert.deepEqual(rb.json(), ra.json());

    const login = await a.request('/v1/auth/login', { body: { email: acc.email, password: PASSWORD } });
    assert.equal(login.status, 200, login.text);
    const fromLogin = login.json<{ api_key: string }>().api_key;
    const onB = await b.request('/v1/competitions', { key: fromLogin });
    assert.equal(onB.status, 200, onB.text);
  });

  test('the rate limit is one limit shared by both instances', async () => {
    const acc = await newAccount('limit');
    const remaining: number[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const r = await (i % 2 === 0 ? a : b).request('/v1/player_positions', { key: acc.key });
      assert.equal(r.status, 200, `request ${i + 1}: ${r.text}`);
      remaining.push(Number(r.headers['ratelimit-remaining']));
    }
    // One count across both: 9, 8, ..., 0 whichever instance answered.
    assert.deepEqual(remaining, Array.from({ length: LIMIT }, (_, i) => LIMIT - 1 - i));
    for (const s of [a, b]) {
      const r = await s.request('/v1/player_positions', { key: acc.key });
      assert.equal(r.status, 429, `${s.name}: ${r.text}`);
      const body = r.json<{ error: string; limit: number; window_seconds: number; retry_after_seconds: number }>();
      assert.equal(body.error, 'Rate limit exceeded');
      assert.equal(body.limit, LIMIT);
      assert.ok(Number(r.headers['retry-after']) >= 1);
    }
  });

  test('an account status change made through the CLI reaches both instances within about a second', async () => {
    const acc = await newAccount('status');
    for (const s of [a, b]) assert.equal((await s.request('/v1/player_positions', { key: acc.key })).status, 200);

    await cli('accounts', 'set-status', '--email', acc.email, '--status', 'inactive');
    const changed = await accessChangedAt();
    const denied = await seenByBoth('inactive account refused', '/v1/player_positions', acc.key, (r) => r.status === 403, 5_000);
    for (const s of [a, b]) {
      const r = await s.request('/v1/player_positions', { key: acc.key });
      assert.deepEqual({ status: r.status, body: r.json() }, { status: 403, body: { error: 'Account access denied: account is inactive' } });
    }

    await cli('accounts', 'set-status', '--email', acc.email, '--status', 'active');
    const reactivated = await accessChangedAt();
    // 429 also means the key was accepted: the limiter runs only after authentication.
    const allowed = await seenByBoth('reactivated account accepted', '/v1/player_positions', acc.key, (r) => r.status === 200 || r.status === 429, 5_000);

    const lags = [...denied.map((t) => t - changed), ...allowed.map((t) => t - reactivated)];
    console.log(`status change seen after ${lags.join(', ')} ms (A, B inactive; A, B active)`);
    for (const lag of lags) assert.ok(lag <= 2_000, `propagation took ${lag} ms`);
  });

  test('a key revoked through the CLI is refused by both instances within about a second', async () => {
    const acc = await newAccount('revoke');
    for (const s of [a, b]) assert.equal((await s.request('/v1/player_positions', { key: acc.key })).status, 200);
    await cli('keys', 'revoke', '--key-id', acc.keyId);
    const changed = await accessChangedAt();
    const refused = await seenByBoth('revoked key refused', '/v1/player_positions', acc.key, (r) => r.status === 401, 5_000);
    for (const s of [a, b]) {
      const r = await s.request('/v1/player_positions', { key: acc.key });
      assert.deepEqual({ status: r.status, body: r.json() }, { status: 401, body: { error: 'API key is revoked' } });
    }
    const lags = refused.map((t) => t - changed);
    console.log(`revocation seen after ${lags.join(', ')} ms (A, B)`);
    for (const lag of lags) assert.ok(lag <= 2_000, `propagation took ${lag} ms`);
  });

  test('a key revoked by another process is refused by both instances within the freshness bound (0.5 s), 10 times', async () => {
    // The test process is the third instance making the change, on its own connection.
    const writer = await openDatabase({ url: db.url });
    try {
      const acc = await newAccount('bound');
      const lags: number[] = [];
      for (let i = 0; i < 10; i++) {
        const k = await createKey(writer.db, { email: acc.email });
        for (const s of [a, b]) assert.equal((await s.request('/v1/player_positions', { key: k.api_key })).status, 200, `${s.name} accepts the new key`);
        await revokeKey(writer.db, { keyId: k.key_id });
        const t0 = performance.now();
        // Back-to-back requests, no pause, until each instance refuses the key.
        const seen = await Promise.all(
          [a, b].map(async (s) => {
            for (;;) {
              const r = await s.request('/v1/player_positions', { key: k.api_key });
              if (r.status === 401) {
                assert.deepEqual(r.json(), { error: 'API key is revoked' });
                return performance.now() - t0;
              }
              assert.ok(r.status === 200 || r.status === 429, `${s.name}: ${r.status} ${r.text}`);
              assert.ok(performance.now() - t0 < 5_000, `${s.name} still accepts the revoked key after 5 s`);
            }
          }),
        );
        lags.push(...seen);
      }
      console.log(`revocation refused after ${lags.map((l) => l.toFixed(0)).join(', ')} ms (A, B per round)`);
      for (const lag of lags) assert.ok(lag <= FRESHNESS_BOUND_MS, `refused only after ${lag.toFixed(0)} ms`);
    } finally {
      await writer.close();
    }
  });

  test('login lockout holds across instances: failures on A lock the email on B', async () => {
    const acc = await newAccount('lockout');
    for (let i = 0; i < 10; i++) {
      const r = await a.request('/v1/auth/login', { body: { email: acc.email, password: `wrong-${i}` } });
      assert.equal(r.status, 401, `failure ${i + 1}: ${r.text}`);
    }
    for (const s of [b, a]) {
      // The right password does not help while the email is locked, on either instance.
      const r = await s.request('/v1/auth/login', { body: { email: acc.email, password: PASSWORD } });
      assert.equal(r.status, 429, `${s.name}: ${r.text}`);
      assert.equal(r.json<{ error: string }>().error, 'Rate limit exceeded');
      assert.ok(Number(r.headers['retry-after']) >= 1);
    }
  });

  test('a world replaced through the CLI is served by both instances without a restart', { timeout: 360_000 }, async () => {
    // One key per instance keeps each poll far under the limit.
    const keyA = BOOTSTRAP_KEY;
    const keyB = (await newAccount('world')).key;
    const clubsOf = async (s: ServerProcess, key: string) => {
      const r = await s.request('/v1/get_clubs_in_competition?competition_id=PREMIER_DIVISION', { key });
      return r.status === 200 ? JSON.stringify(r.json()) : undefined;
    };
    const before42 = await clubsOf(a, keyA);
    assert.ok(before42, 'club list served');
    assert.equal(await clubsOf(b, keyB), before42);

    const dataVersion = async () => (await queryOnce<{ value: string }>(db.url, `select value from meta where key = 'data_version'`))[0]?.value;
    const oldVersion = await dataVersion();
    // The CLI goes on after the commit (it rates or trains models for the new data), so the clock starts
    // when the new data version is visible in the database, not when the command ends.
    // the backtests are not what this checks: they would only add minutes of training
    const demo = spawnCli(['demo', '--seed', '7', '--json'], { ...cliEnv, TOUCHLINE_BACKTESTS: 'off' }, { timeoutMs: 300_000 });
    const committed = await waitFor('the new data version committed', async () => {
      if (demo.child.exitCode !== null && demo.child.exitCode !== 0) throw new StopWaiting(`touchline demo failed: ${demo.output().stderr}`);
      return (await dataVersion()) !== oldVersion ? Date.now() : undefined;
    }, { timeoutMs: 240_000, intervalMs: 100 });
    const seen = await Promise.all(
      ([[a, keyA], [b, keyB]] as const).map(([s, key]) =>
        waitFor(`new world on ${s.name}`, async () => {
          const now = await clubsOf(s, key);
          return now !== undefined && now !== before42 ? { at: Date.now(), clubs: now } : undefined;
        }, { timeoutMs: 30_000, intervalMs: 1_100 }),
      ),
    );
    // What the CLI does after the commit (training the new world's models) is not what this checks: stop it.
    if (demo.child.exitCode === null) demo.child.kill('SIGTERM');
    const finished = await demo.done;
    if (finished.code !== null && finished.signal === null) assert.equal(finished.code, 0, finished.stderr);
    assert.equal(seen[0].clubs, seen[1].clubs, 'both instances serve the same new world');
    console.log(`world change (seed 7, data version ${await dataVersion()}) served ${seen.map((s) => s.at - committed).join(', ')} ms after it was committed (A, B)`);
    for (const s of [a, b]) assert.equal(s.child.exitCode, null, `${s.name} kept running`);
  });
});
