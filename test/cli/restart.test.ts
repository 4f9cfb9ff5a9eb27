/**
 * A restart that waits: `touchline serve` finding the embedded data folder held by a server that is
 * shutting down waits up to 15 s for it, saying so in one line, and fails with the usual message
 * when the folder is still held then. The old server is kept shutting down by a request whose body
 * has not all arrived (its drain waits for requests in flight), for as long as the test chooses.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { demoDataDir } from '../helpers/app.js';
import { freePort, SHARED_MODELS_DIR, sleep, spawnCli, startServerProcess, waitFor, type ServerProcess } from '../helpers/server-process.js';

const WAITING_LINE = /is held by process (\d+), which is shutting down: waiting up to 15 s for it/;
const WAITING = new RegExp(WAITING_LINE, 'g');
const BODY = JSON.stringify({ email: 'slow@restart.test', password: 'a password sent slowly' });

let dataDir: string;
const servers: ServerProcess[] = [];
const env = () => ({ TOUCHLINE_DATA_DIR: dataDir, TOUCHLINE_MODELS_DIR: SHARED_MODELS_DIR, LOG_LEVEL: 'warn', ENGINE_WORKERS: '1' });

before(async () => {
  dataDir = await demoDataDir('touchline-restart-');
});

after(async () => {
  for (const s of servers) await s.stop(40_000);
  rmSync(dataDir, { recursive: true, force: true });
});

/** A login request on `server` whose body stops after its first byte: in flight until `finish()`. */
async function stalledRequest(server: ServerProcess): Promise<{ socket: Socket; finish(): void }> {
  const socket = connect(server.port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.on('error', () => {});
  socket.write(`POST /v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(BODY)}\r\n\r\n${BODY[0]}`);
  // the server has read the head and counts the request in flight
  await sleep(500);
  return { socket, finish: () => socket.end(BODY.slice(1)) };
}

/** SIGTERM, then wait until the lock file says the server is shutting down. */
async function beginStopping(server: ServerProcess): Promise<void> {
  server.signal('SIGTERM');
  await waitFor('the lock marked as stopping', async () => {
    try {
      return (JSON.parse(readFileSync(join(dataDir, 'touchline.lock'), 'utf8')) as { stopping?: boolean }).stopping === true;
    } catch {
      return false;
    }
  }, { timeoutMs: 5_000, intervalMs: 50 });
}

test('a start waits for a server that is shutting down, then serves from the same data folder', { timeout: 300_000 }, async () => {
  const old = await startServerProcess({ env: env(), name: 'old server', startTimeoutMs: 120_000 });
  servers.push(old);
  const slow = await stalledRequest(old);
  await beginStopping(old);
  const started = Date.now();
  const starting = startServerProcess({ env: { ...env(), PORT: String(await freePort()) }, name: 'new server', startTimeoutMs: 120_000 });
  // the old one is still shutting down a moment later: the new one waits (its shutdown must then end
  // within the rest of the 15 s, which a loaded machine stretches)
  await sleep(1_500);
  old.assertRunning();
  slow.finish();
  const exit = await old.waitExit(20_000);
  assert.deepEqual({ code: exit.code, forced: exit.forced }, { code: 0, forced: false });
  const fresh = await starting;
  servers.push(fresh);
  const lines = [...fresh.output().matchAll(WAITING)];
  assert.equal(lines.length, 1, `one line says it waits:\n${fresh.output()}`);
  assert.equal(Number(lines[0][1]), old.pid);
  assert.ok(Date.now() - started >= 1_500);
  assert.equal((await fresh.request('/v1/health')).status, 200);
});

test('a server still shutting down after 15 s: the start fails with the usual message; a server not shutting down: at once', { timeout: 300_000 }, async () => {
  const holder = servers[servers.length - 1];
  holder.assertRunning();
  const port = String(await freePort());

  // not shutting down: no wait
  const refused = await spawnCli(['serve', '--port', port, '--host', '127.0.0.1'], env()).done;
  assert.notEqual(refused.code, 0);
  assert.match(refused.stderr, new RegExp(`in use by process ${holder.pid}: stop that server first`));
  assert.doesNotMatch(refused.stdout + refused.stderr, WAITING_LINE);
  assert.ok(refused.ms < 10_000, `refused at once, not after ${refused.ms} ms`);

  const slow = await stalledRequest(holder);
  await beginStopping(holder);
  const late = await spawnCli(['serve', '--port', port, '--host', '127.0.0.1'], env(), { timeoutMs: 60_000 }).done;
  assert.notEqual(late.code, 0);
  assert.match(late.stderr, new RegExp(`the embedded database in .* is in use by process ${holder.pid}: stop that server first, or give this one another data folder with TOUCHLINE_DATA_DIR`));
  assert.equal([...(late.stdout + late.stderr).matchAll(WAITING)].length, 1, 'it said it waits');
  assert.ok(late.ms >= 15_000 && late.ms < 40_000, `gave up after 15 s, not ${late.ms} ms`);
  slow.finish();
  const exit = await holder.waitExit(40_000);
  assert.equal(exit.forced, false);
});
