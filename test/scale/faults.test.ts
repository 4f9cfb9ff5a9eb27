/**
 * Faults against a real server process on PostgreSQL and Redis: the database restarted under load,
 * Redis stopped and started, an import killed halfway, SIGTERM with requests in flight.
 * Needs TOUCHLINE_TEST_DATABASE_URL on loopback (`.ci/run` sets it) and redis-server: it stops and
 * starts the local PostgreSQL cluster, always bringing it back, and a Redis of its own on a free port,
 * so the test files that run beside this suite (npm test) keep the shared Redis.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../../src/data/db.js';
import { WORLD_TABLE_ORDER } from '../../src/domain/world.js';
import {
  createScratchDatabase,
  freePort,
  queryOnce,
  runCli,
  sleep,
  spawnCli,
  startServerProcess,
  waitFor,
  type HttpAnswer,
  type ServerProcess,
} from '../helpers/server-process.js';

const PG = process.env.TOUCHLINE_TEST_DATABASE_URL;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
const onLoopback = (u: string | undefined) => !!u && LOOPBACK.has(new URL(u).hostname);
const skip =
  !PG
    ? 'set TOUCHLINE_TEST_DATABASE_URL to run the fault tests (.ci/run does)'
    : !onLoopback(PG)
      ? 'the fault tests restart PostgreSQL, so they run only against a server on loopback'
      : spawnSync('redis-server', ['--version']).status !== 0
        ? 'the fault tests start a Redis of their own: redis-server is not installed'
        : false;

const BOOTSTRAP_KEY = 'tl_scale_faults_key_0123456789abcdefgh';
const LIMIT = 20;
const PASSWORD = 'correct horse battery staple';
const UNEXPECTED = { error: 'Unexpected server error. Please try again later.' };

// ---------------------------------------------------------------- service control (this machine's layout)

function sh(cmd: string, args: string[], timeoutMs = 60_000): { status: number | null; out: string } {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: timeoutMs });
  return { status: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` };
}

const pgVersion = () => readdirSync('/etc/postgresql')[0];
const pgctl = (action: 'stop' | 'start') => sh('pg_ctlcluster', ['--skip-systemctl-redirect', pgVersion(), 'main', action]);
const pgReady = () => sh('pg_isready', ['-q', '-h', '127.0.0.1', '-p', new URL(PG!).port || '5432'], 5_000).status === 0;

/** This file's own Redis: a port and a folder chosen in before(). */
const redis = { port: '', dir: '' };
const redisUrl = () => `redis://127.0.0.1:${redis.port}`;
const redisUp = () => sh('redis-cli', ['-p', redis.port, 'ping'], 5_000).out.includes('PONG');
const redisStop = () => sh('redis-cli', ['-p', redis.port, 'shutdown', 'nosave'], 10_000);
async function redisStart(): Promise<void> {
  if (redisUp()) return;
  // As .ci/run starts the shared one, in a folder of its own.
  const started = sh('redis-server', ['--daemonize', 'yes', '--bind', '127.0.0.1', '--port', redis.port, '--save', '', '--appendonly', 'no', '--dir', redis.dir, '--logfile', join(redis.dir, 'redis.log')]);
  await waitFor('the fault tests\' Redis answering', async () => redisUp() || undefined, { timeoutMs: 10_000, intervalMs: 100 }).catch((err: unknown) => {
    throw new Error(`${String(err)}; redis-server said: ${started.out}`);
  });
}

// ---------------------------------------------------------------- answers

/** An answer a client can rely on: a JSON object, and for a 5xx one of the two documented bodies, never a stack trace. */
function assertCleanAnswer(r: HttpAnswer, where: string): void {
  assert.ok([200, 401, 500, 503].includes(r.status), `${where}: unexpected status ${r.status}: ${r.text}`);
  const body = r.json<Record<string, unknown>>();
  assert.equal(typeof body, 'object', `${where}: ${r.text}`);
  assert.doesNotMatch(r.text, /\s+at\s+\S+\s*\(|node_modules|\.ts:\d+|ECONNREFUSED|terminating connection/i, `${where}: internals leaked: ${r.text}`);
  const rateLimit = body.rate_limit;
  if (r.status === 500) assert.deepEqual(body, UNEXPECTED, where);
  if (r.status === 503) assert.deepEqual({ ...body, version: 'v' }, { status: 'degraded', version: 'v', database: 'unavailable', rate_limit: rateLimit }, where);
}

const randomKey = () => `tl_${randomBytes(32).toString('base64url')}`;

describe('faults: a server process on PostgreSQL and Redis', { skip }, () => {
  let db: Awaited<ReturnType<typeof createScratchDatabase>>;
  let server: ServerProcess;
  let cliEnv: Record<string, string>;
  const run = `${process.pid}`;

  before(async () => {
    redis.port = String(await freePort());
    redis.dir = mkdtempSync(join(tmpdir(), 'touchline-faults-redis-'));
    await redisStart();
    db = await createScratchDatabase(PG!, `scale_f${run}`);
    cliEnv = { DATABASE_URL: db.url };
    server = await startServerProcess({
      name: 'fault server',
      startTimeoutMs: 150_000,
      env: { DATABASE_URL: db.url, REDIS_URL: redisUrl(), RATE_LIMIT: String(LIMIT), TOUCHLINE_BOOTSTRAP_KEY: BOOTSTRAP_KEY, LOG_LEVEL: 'warn' },
    });
    await runCli(['accounts', 'create', '--email', `faults-${run}@scale.test`, '--password', PASSWORD, '--plan', 'all-coverage', '--json'], cliEnv);
  });

  after(async () => {
    // Whatever happened above, the shared PostgreSQL is left running; this file's Redis goes.
    if (!pgReady()) pgctl('start');
    await server?.stop();
    if (redis.port) redisStop();
    if (redis.dir) rmSync(redis.dir, { recursive: true, force: true });
    await db?.drop();
  });

  const newKey = async () =>
    (await runCli(['keys', 'create', '--email', `faults-${run}@scale.test`, '--json'], cliEnv)).json<{ key_id: string; api_key: string }>();

  test('PostgreSQL restarted under load: clean 500/503 answers during the outage, recovery without a restart', { timeout: 120_000 }, async () => {
    const { api_key: key } = await newKey();
    assert.equal((await server.request('/v1/competitions', { key })).status, 200);

    const answers: Array<{ sent: number; at: number; path: string; r: HttpAnswer }> = [];
    const failures: string[] = [];
    let stop = false;
    const deadline = Date.now() + 60_000;
    // Four clients, each sending one request after the other: health (a database ping), an unknown key
    // (a key look-up), a failed login (a write), all bounded in count and time.
    const calls: Array<[string, () => Promise<HttpAnswer>]> = [
      ['/v1/health', () => server.request('/v1/health')],
      ['/v1/competitions (new key)', () => server.request('/v1/competitions', { key: randomKey() })],
      // Each from its own loopback address, so login throttling (30 failures an address) never answers instead.
      ['/v1/auth/login', () => server.request('/v1/auth/login', { body: { email: `nobody-${randomBytes(4).toString('hex')}@scale.test`, password: 'x' }, localAddress: `127.${randomBytes(3).join('.')}` })],
    ];
    const client = async (offset: number) => {
      for (let i = offset; !stop && i < offset + 1_500 && Date.now() < deadline; i++) {
        const [path, call] = calls[i % calls.length];
        const sent = Date.now();
        try {
          const r = await call();
          answers.push({ sent, at: Date.now(), path, r });
        } catch (err) {
          failures.push(`${path}: ${String(err)}`);
        }
        await sleep(20);
      }
    };
    const load = Promise.all([0, 1, 2, 3].map(client));
    let stoppedAt = 0;
    let startedAt = 0;
    try {
      await sleep(500);
      const down = pgctl('stop');
      assert.equal(down.status, 0, `pg_ctlcluster stop: ${down.out}`);
      stoppedAt = Date.now();
      await sleep(2_000);
    } finally {
      const up = pgctl('start');
      startedAt = Date.now();
      assert.equal(up.status, 0, `pg_ctlcluster start: ${up.out}`);
    }
    const recovered = await waitFor('health 200 after the restart', async () => {
      server.assertRunning();
      const r = await server.request('/v1/health');
      return r.status === 200 ? Date.now() : undefined;
    }, { timeoutMs: 30_000, intervalMs: 200 });
    await sleep(1_000);
    stop = true;
    await load;
    server.assertRunning();

    assert.deepEqual(failures, [], 'every request got a complete answer (no hang, no reset)');
    for (const a of answers) assertCleanAnswer(a.r, a.path);
    const during = answers.filter((a) => a.sent > stoppedAt && a.at < startedAt);
    assert.ok(during.length > 0, 'requests were answered during the outage');
    assert.ok(during.every((a) => a.r.status >= 500), `during the outage every answer is a 500/503: ${during.map((a) => a.r.status).join(',')}`);
    assert.ok(during.some((a) => a.r.status === 503 && a.path === '/v1/health'), 'health says 503 while the database is down');
    const slowest = Math.max(...answers.map((a) => a.r.ms));
    console.log(`${answers.length} answers, ${during.length} during the ${startedAt - stoppedAt} ms outage (statuses ${[...new Set(during.map((a) => a.r.status))].join('/')}), slowest ${slowest.toFixed(0)} ms; healthy ${recovered - startedAt} ms after the start`);

    // Same process, no restart: the pool reconnects and every path works again.
    assert.equal(server.child.exitCode, null, 'the server kept running');
    const health = await server.request('/v1/health');
    assert.deepEqual(health.json(), { status: 'ok', version: health.json<{ version: string }>().version, database: 'ok', rate_limit: 'ok', data_as_of: health.json<{ data_as_of: string }>().data_as_of });
    const again = await server.request('/v1/competitions', { key });
    assert.equal(again.status, 200, again.text);
    assert.equal((await server.request('/v1/competitions', { key: randomKey() })).status, 401);
    const fresh = await newKey();
    assert.equal((await server.request('/v1/competitions', { key: fresh.api_key })).status, 200);
    assert.doesNotMatch(server.output(), /uncaught|unhandled/i);
  });

  test('Redis stopped and started: the limiter counts in memory meanwhile and returns to Redis', { timeout: 60_000 }, async () => {
    const { api_key: key } = await newKey();
    const health = async () => (await server.request('/v1/health')).json<{ rate_limit: string }>().rate_limit;
    assert.equal(await health(), 'ok');
    const statuses: number[] = [];
    try {
      const down = redisStop();
      assert.ok(!redisUp(), `Redis still answers after shutdown: ${down.out}`);
      await waitFor('rate_limit degraded', async () => (await health()) === 'degraded', { timeoutMs: 10_000, intervalMs: 100 });
      const h = await server.request('/v1/health');
      assert.equal(h.status, 200, 'health stays 200 with Redis down');
      for (let i = 0; i < LIMIT + 5; i++) statuses.push((await server.request('/v1/player_positions', { key })).status);
    } finally {
      await redisStart();
    }
    // Still limited while Redis was away: exactly LIMIT accepted, the rest 429.
    assert.deepEqual(statuses, [...Array(LIMIT).fill(200), ...Array(5).fill(429)]);
    assert.ok(redisUp(), 'Redis is back');
    await waitFor('rate_limit ok again', async () => (await health()) === 'ok', { timeoutMs: 15_000, intervalMs: 200 });
    // Back on Redis: its count for this key starts empty (the memory count stays behind), so one is used.
    const r = await server.request('/v1/player_positions', { key });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers['ratelimit-remaining'], String(LIMIT - 1));
  });

  test('an import killed with SIGKILL halfway leaves the previous world whole', { timeout: 150_000 }, async () => {
    const counts = async () => {
      const [row] = await queryOnce<{ players: number; clubs: number; matches: number; version: string; ratings: string | null }>(
        db.url,
        `select (select count(*)::int from players) as players, (select count(*)::int from clubs) as clubs,
                (select count(*)::int from matches) as matches,
                (select value from meta where key = 'data_version') as version,
                (select value from meta where key = 'ratings_version') as ratings`,
      );
      return row;
    };
    const beforeKill = await counts();
    const clubsBefore = await server.request('/v1/get_clubs_in_competition?competition_id=PREMIER_DIVISION', { key: BOOTSTRAP_KEY });
    assert.equal(clubsBefore.status, 200);

    const importer = spawnCli(['demo', '--seed', '9'], cliEnv, { timeoutMs: 120_000 });
    // Kill it once its transaction writes a table past the middle of the load order (players are in by then).
    const half = WORLD_TABLE_ORDER.indexOf('contracts');
    const writing = await waitFor('the import writing its second half', async () => {
      if (importer.child.exitCode !== null) throw new Error(`the import finished before it could be killed: ${importer.output().stderr}`);
      const rows = await queryOnce<{ pid: number; query: string }>(
        db.url,
        `select pid, query from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and query ilike 'insert into%'`,
      );
      const hit = rows.map((r) => ({ pid: r.pid, table: /insert into "?(\w+)"?/i.exec(r.query)?.[1] ?? '' })).find((r) => WORLD_TABLE_ORDER.indexOf(r.table as never) >= half);
      return hit;
    }, { timeoutMs: 100_000, intervalMs: 50 });
    importer.child.kill('SIGKILL');
    const killed = await importer.done;
    assert.equal(killed.signal, 'SIGKILL');
    console.log(`import killed while inserting into ${writing.table}`);

    // PostgreSQL rolls the transaction back once it sees the client gone.
    await waitFor('the killed import backend to end', async () => {
      const rows = await queryOnce(db.url, `select 1 from pg_stat_activity where pid = $1`, [writing.pid]);
      return rows.length === 0;
    }, { timeoutMs: 60_000, intervalMs: 200 });
    assert.deepEqual(await counts(), beforeKill, 'the previous world and its versions are whole');
    const clubsAfter = await server.request('/v1/get_clubs_in_competition?competition_id=PREMIER_DIVISION', { key: BOOTSTRAP_KEY });
    assert.equal(clubsAfter.text, clubsBefore.text, 'the server still serves the previous world');
    assert.equal((await server.request('/v1/health')).status, 200);
  });

  test('SIGTERM under load: requests in flight get complete answers and the process exits 0', { timeout: 60_000 }, async () => {
    const { api_key: key } = await newKey();
    const clubs = (await server.request('/v1/get_clubs_in_competition?competition_id=PREMIER_DIVISION', { key: BOOTSTRAP_KEY })).json<{ clubs: Array<{ service_id: string }> }>().clubs;
    const squad = (await server.request(`/v1/get_players_at_club?club_id=${clubs[0].service_id}&analysis_available_only=true`, { key: BOOTSTRAP_KEY })).json<{
      players: Array<{ service_id: string }>;
    }>().players;
    assert.ok(squad.length >= 8, 'a squad with analysis data');

    // Slow-ish work that leaves the event loop free to read every request at once: logins (argon2 off the
    // main thread, then a key written to the database), plus a few fee and 3-year simulations.
    const inFlight: Array<Promise<{ r: HttpAnswer; at: number }>> = [];
    const timed = (p: Promise<HttpAnswer>) => p.then((r) => ({ r, at: performance.now() }));
    // Each from its own loopback address: an attempt counts against (email, address) until its password
    // is checked, so more than 10 at once from one address would be throttled (EXTENSIONS.md, login throttling).
    for (let i = 0; i < 24; i++) {
      inFlight.push(timed(server.request('/v1/auth/login', { body: { email: `faults-${run}@scale.test`, password: PASSWORD }, timeoutMs: 20_000, localAddress: `127.0.9.${i + 2}` })));
    }
    for (const p of squad.slice(0, 2)) {
      inFlight.push(timed(server.request('/v1/get_future_transfer_value', { key, body: { player_id: p.service_id, club_id: clubs[1].service_id }, timeoutMs: 20_000 })));
      inFlight.push(timed(server.request(`/v1/expected_transfer_value?player_id=${p.service_id}&contract_end_date=2029-06-30`, { key, timeoutMs: 20_000 })));
    }
    // Signal once the server is demonstrably working on the batch.
    await Promise.race(inFlight);
    const settled = Promise.allSettled(inFlight);
    const signalledAt = performance.now();
    server.signal('SIGTERM');
    const results = await settled;
    const exit = await server.waitExit(20_000);

    const problems = results.flatMap((x, i) => (x.status === 'rejected' ? [`#${i}: ${String(x.reason)}`] : x.value.r.status !== 200 ? [`#${i}: ${x.value.r.status} ${x.value.r.text}`] : []));
    assert.deepEqual(problems, [], 'every started request got its complete answer');
    const answered = results.flatMap((x) => (x.status === 'fulfilled' ? [x.value] : []));
    for (const { r } of answered) r.json();
    const afterSignal = answered.filter((x) => x.at > signalledAt).length;
    console.log(`SIGTERM with ${inFlight.length} requests started: ${afterSignal} answered after the signal, all 200; exit code ${exit.code}`);
    assert.ok(afterSignal >= inFlight.length / 2, `most answers came after the signal (${afterSignal})`);
    assert.deepEqual({ code: exit.code, signal: exit.signal, forced: exit.forced }, { code: 0, signal: null, forced: false }, server.output().slice(-2000));
    await assert.rejects(server.request('/v1/health', { timeoutMs: 2_000 }), 'nothing listens after the exit');
  });
});

// The mechanism behind a crash seen under the restart test above, made deterministic: PostgreSQL ends a
// connection (restart, failover, pg_terminate_backend) while the app has it checked out, here in the
// middle of a transaction. pg then emits 'error' on that client; with no listener the process dies.
describe('a database connection ended by the server', { skip: PG ? false : 'set TOUCHLINE_TEST_DATABASE_URL to run it' }, () => {
  test('fails the work that held it and leaves the process and the pool working', { timeout: 30_000 }, async () => {
    const handle = await openDatabase({ url: PG! });
    const killer = new pg.Client({ connectionString: PG!, connectionTimeoutMillis: 5_000 });
    await killer.connect();
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      const outcome = await handle.db
        .transaction()
        .execute(async (trx) => {
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
          await killer.query('select pg_terminate_backend($1)', [rows[0].pid]);
          // The server's goodbye arrives while this transaction still holds the connection.
          await sleep(300);
          await sql`select 1`.execute(trx);
        })
        .then(
          () => 'committed',
          (err: unknown) => `rejected: ${err instanceof Error ? err.message : String(err)}`,
        );
      await sleep(100);
      assert.deepEqual(uncaught.map(String), [], 'no uncaught error (in a server: a crash)');
      assert.match(outcome, /^rejected: /, 'the transaction fails');
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(handle.db);
      assert.equal(rows[0].one, 1, 'the pool replaced the broken connection');
    } finally {
      process.off('uncaughtException', onUncaught);
      await killer.end();
      await handle.close();
    }
  });
});
