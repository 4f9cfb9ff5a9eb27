import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runCli, spawnCli, startServerProcess, type ServerProcess } from '../helpers/server-process.js';

const dataDir = mkdtempSync(join(tmpdir(), 'touchline-serve-'));
let server: ServerProcess | null = null;
after(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test('serve on an empty embedded database: demo world, a working printed key, CLI through the running server, clean SIGTERM', { timeout: 480_000 }, async () => {
  server = await startServerProcess({ env: { TOUCHLINE_DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, startTimeoutMs: 180_000 });
  const key = /Demo API key: (\S+)/.exec(server.output())?.[1];
  assert.ok(key, 'the start prints a demo key');
  const comps = await server.request('/v1/competitions', { headers: { 'x-api-key': key } });
  assert.equal(comps.status, 200);
  assert.ok(comps.json<{ competitions: string[] }>().competitions.length >= 6);
  const demoLogin = /^Demo login: (\S+) \/ (\S+)$/m.exec(server.output());
  assert.ok(demoLogin, 'the start prints a demo login');
  const signedIn = await server.request('/v1/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: demoLogin[1], password: demoLogin[2] }),
  });
  assert.equal(signedIn.status, 200, 'the printed demo login signs in');

  // While the server holds the embedded database, commands run inside it.
  const env = { TOUCHLINE_DATA_DIR: dataDir };
  await runCli(['plans', 'create', '--name', 'everything', '--all', '--json'], env);
  await runCli(['accounts', 'create', '--email', 'analyst@club.example', '--plan', 'everything', '--json'], env);
  const created = (await runCli(['keys', 'create', '--email', 'analyst@club.example', '--json'], env)).json<{ key_id: string; api_key: string }>();
  assert.deepEqual(Object.keys(created).sort(), ['api_key', 'key_id']);
  const deadline = Date.now() + 5_000;
  let status = 0;
  while (Date.now() < deadline && status !== 200) {
    status = (await server.request('/v1/player_positions', { headers: { 'x-api-key': created.api_key } })).status;
    if (status !== 200) await new Promise((r) => setTimeout(r, 200));
  }
  assert.equal(status, 200, 'a key made by the CLI works on the running server');
  // Each change is in force on the server by the time the command has returned: the request made at
  // once, with no pause, gets the new answer.
  const ask = async () => {
    const r = await server!.request('/v1/player_positions', { headers: { 'x-api-key': created.api_key } });
    return { status: r.status, body: r.status === 200 ? null : r.json() };
  };
  const ok = { status: 200, body: null };
  assert.deepEqual(await ask(), ok);
  const steps: Array<[string[], unknown]> = [
    [['accounts', 'set-status', '--email', 'analyst@club.example', '--status', 'inactive'], { status: 403, body: { error: 'Account access denied: account is inactive' } }],
    [['accounts', 'set-status', '--email', 'analyst@club.example', '--status', 'registered'], { status: 403, body: { error: 'Account access denied: account is not activated' } }],
    [['accounts', 'set-status', '--email', 'analyst@club.example', '--status', 'active'], ok],
    [['accounts', 'set-plan', '--email', 'analyst@club.example', '--no-plan'], { status: 403, body: { error: 'Account access denied: no plan access' } }],
    [['accounts', 'set-plan', '--email', 'analyst@club.example', '--plan', 'everything'], ok],
  ];
  for (const [args, expected] of steps) {
    await runCli([...args, '--json'], env);
    assert.deepEqual(await ask(), expected, `after touchline ${args.join(' ')}`);
  }
  await runCli(['keys', 'revoke', '--key-id', created.key_id, '--json'], env);
  assert.deepEqual(await ask(), { status: 401, body: { error: 'API key is revoked' } }, 'after touchline keys revoke');

  const bad = await spawnCli(['keys', 'revoke', '--key-id', 'key_nope'], env).done;
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /key/i);

  const exit = await server.stop();
  assert.equal(exit.code, 0);
  assert.equal(exit.forced, false);
  assert.equal(existsSync(join(dataDir, 'touchline.lock')), false, 'the lock is released');
  server = null;
});
