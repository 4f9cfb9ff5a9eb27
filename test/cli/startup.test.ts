import assert from 'node:assert/strict';
import { chmodSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { demoDataDir } from '../helpers/app.js';
import { buildServer, freePort, http, runCli, SHARED_MODELS_DIR, sleep, spawnCli, type CliProcess } from '../helpers/server-process.js';

/**
 * A server started as documented (`touchline serve --port N --host H`) on a data folder left
 * world-readable, compiled as `npm start` runs it (scripts/build-server.js, plain node, its analysis
 * workers too); then what a second start, a weak password and `--version` do beside it.
 */
const pkg = JSON.parse((await import('node:fs')).readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
let dataDir = '';
let port = 0;
let server: CliProcess | null = null;
const scratch: string[] = [];

/** Every path under `dir` whose mode lets group or others in, with its mode. */
function loosePaths(dir: string): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    const st = statSync(p);
    if ((st.mode & 0o077) !== 0) out.push(`${(st.mode & 0o777).toString(8)} ${p}`);
    if (st.isDirectory()) for (const name of readdirSync(p)) walk(join(p, name));
  };
  walk(dir);
  return out;
}

function loosen(dir: string): void {
  chmodSync(dir, 0o777);
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) loosen(p);
    else chmodSync(p, 0o666);
  }
}

before(async () => {
  dataDir = await demoDataDir('touchline-startup-');
  // As an older version or a permissive umask left it.
  loosen(dataDir);
  assert.ok(loosePaths(dataDir).length > 100);
  port = await freePort();
  buildServer();
  // One analysis worker at least (0 would run analyses on the main thread): the compiled worker must load.
  const env = { TOUCHLINE_DATA_DIR: dataDir, TOUCHLINE_MODELS_DIR: SHARED_MODELS_DIR, LOG_LEVEL: 'warn', ENGINE_WORKERS: '1' };
  server = spawnCli(['serve', '--port', String(port), '--host', '127.0.0.1'], env, { compiled: true });
  const deadline = Date.now() + 120_000;
  for (;;) {
    const ok = await http(`http://127.0.0.1:${port}`, '/v1/health', { timeoutMs: 2_000 }).then((r) => r.status === 200, () => false);
    if (ok) break;
    if (Date.now() > deadline || server.child.exitCode !== null) throw new Error(`the server did not start: ${server.output().stderr.slice(-2000)}`);
    await sleep(250);
  }
});
after(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.done;
  }
  for (const d of [dataDir, ...scratch]) rmSync(d, { recursive: true, force: true });
});

const oneLine = (stderr: string) => stderr.trim().split('\n');

test('serve --port N --host H listens there; --version prints the version', async () => {
  assert.equal((await http(`http://127.0.0.1:${port}`, '/v1/health')).status, 200);
  const v = await runCli(['--version'], {});
  assert.equal(v.stdout.trim(), pkg.version);
});

test('the compiled server answers an authenticated analysis request, computed in its compiled worker', async () => {
  const url = `http://127.0.0.1:${port}`;
  const key = /Demo API key: (\S+)/.exec(server!.output().stdout)?.[1];
  assert.ok(key, 'the start prints the demo key');
  const headers = { 'x-api-key': key };
  const [player] = (await http(url, '/v1/players?analysis_available_only=true&limit=1', { headers })).json<{ players: Array<{ service_id: string; club_id: string; competition: string }> }>().players;
  const clubs = (await http(url, `/v1/get_clubs_in_competition?competition_id=${player.competition}`, { headers })).json<{ clubs: Array<{ service_id: string }> }>().clubs;
  const buyer = clubs.find((c) => c.service_id !== player.club_id)!;
  const roi = await http(url, '/v1/get_roi_analysis', {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ player_id: player.service_id, club_id: buyer.service_id }),
    timeoutMs: 60_000,
  });
  assert.equal(roi.status, 200, roi.text);
  assert.equal(typeof roi.json<{ return_on_investment: unknown }>().return_on_investment, 'number');
});

test('the data folder and every file in it are the owner\'s alone, also for a folder that was readable before', () => {
  assert.deepEqual(loosePaths(dataDir), []);
  assert.equal(statSync(dataDir).mode & 0o777, 0o700);
  assert.equal(statSync(join(dataDir, 'pg', 'PG_VERSION')).mode & 0o777, 0o600);
});

test('a second start on the busy data folder fails in one line, exit 1, within 15 s', async () => {
  const other = await freePort();
  const r = await spawnCli(['serve', '--port', String(other), '--host', '127.0.0.1'], { TOUCHLINE_DATA_DIR: dataDir, TOUCHLINE_MODELS_DIR: SHARED_MODELS_DIR }).done;
  assert.equal(r.code, 1);
  assert.ok(r.ms < 15_000, `${r.ms} ms`);
  const lines = oneLine(r.stderr);
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0], /^touchline: the embedded database in .+ is in use by process \d+: stop that server first, or give this one another data folder with TOUCHLINE_DATA_DIR$/);
  assert.equal((await http(`http://127.0.0.1:${port}`, '/v1/health')).status, 200, 'the first server is untouched');
});

test('a second start on the busy port fails in one line, exit 1, within 15 s, before loading anything', async () => {
  const fresh = mkdtempSync(join(tmpdir(), 'touchline-startup-port-'));
  scratch.push(fresh);
  const r = await spawnCli(['serve', '--port', String(port), '--host', '127.0.0.1'], { TOUCHLINE_DATA_DIR: fresh, TOUCHLINE_MODELS_DIR: join(fresh, 'models') }).done;
  assert.equal(r.code, 1);
  assert.ok(r.ms < 15_000, `${r.ms} ms`);
  const lines = oneLine(r.stderr);
  assert.equal(lines.length, 1, r.stderr);
  assert.equal(lines[0], `touchline: port ${port} on 127.0.0.1 is already in use (another touchline server?): stop that process, or choose another port with --port N or PORT=N`);
  assert.equal(existsSync(join(fresh, 'pg')), false, 'no database was made, no demo world generated');
  assert.equal(existsSync(join(fresh, 'touchline.lock')), false, 'the lock is released');
});

test('a weak password is refused by name, in one line without a stack, and nothing is stored', async () => {
  const env = { TOUCHLINE_DATA_DIR: dataDir };
  for (const [password, rule] of [
    ['a', 'Password must have at least 12 characters'],
    ['QWERTY123456', 'Password is among the 10,000 most common passwords'],
    ['password1234', 'Password is among the 10,000 most common passwords'],
    ['Scout.Ana-2026!', "Password must not contain the email's local part"],
  ]) {
    const r = await spawnCli(['accounts', 'create', '--email', 'scout.ana@club.example', '--password', password], env).done;
    assert.equal(r.code, 1, password);
    assert.deepEqual(oneLine(r.stderr), [`touchline: ${rule}`], password);
  }
  const accounts = (await runCli(['accounts', 'list', '--json'], env)).json<Array<{ email: string }>>();
  assert.ok(!accounts.some((a) => a.email === 'scout.ana@club.example'), 'nothing stored');
  await runCli(['accounts', 'create', '--email', 'scout.ana@club.example', '--password', 'long enough and unusual'], env);
  const set = await spawnCli(['accounts', 'set-password', '--email', 'scout.ana@club.example', '--password', 'password'], env).done;
  assert.deepEqual([set.code, oneLine(set.stderr)], [1, ['touchline: Password must have at least 12 characters']]);
});

test('bad option values are one line too', async () => {
  const r = await spawnCli(['serve', '--port', 'eighty'], {}).done;
  assert.deepEqual([r.code, oneLine(r.stderr)], [1, ['touchline: --port must be a whole number from 0 to 65535, got eighty']]);
});
