/**
 * @touchline/client: `npm pack` makes a tarball that a fresh project installs, and its README example
 * runs against a server as written; 429 and 503 are asked again after Retry-After, other refusals
 * throw a TouchlineError.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createTouchlineClient, TouchlineError } from '../../clients/typescript/src/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const CLIENT = new URL('../../clients/typescript/', import.meta.url).pathname;

let t: TestApp;
let url = '';
before(async () => {
  t = await startTestApp();
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
after(() => t?.close());

/** The README's first ```js block. */
function readmeExample(): string {
  const readme = readFileSync(join(CLIENT, 'README.md'), 'utf8');
  const m = /```js\n([\s\S]*?)```/.exec(readme);
  assert.ok(m, 'the README has a js example');
  return m[1];
}

test('the packed client installs in a fresh project and its README example runs as written', async () => {
  const work = mkdtempSync(join(tmpdir(), 'touchline-client-'));
  try {
    execFileSync('npm', ['pack', '--pack-destination', work, '--silent'], { cwd: CLIENT, stdio: ['ignore', 'pipe', 'pipe'] });
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
    assert.ok(tarball, 'npm pack wrote a tarball');
    const project = join(work, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'uses-touchline', private: true, type: 'module' }));
    const install = spawnSync('npm', ['install', join(work, tarball), '--prefer-offline', '--no-audit', '--no-fund', '--silent'], { cwd: project, encoding: 'utf8' });
    assert.equal(install.status, 0, install.stderr);
    writeFileSync(join(project, 'example.mjs'), readmeExample());
    // the example runs in a process of its own, so this thread stays free to serve it
    const run = await new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      const child = spawn(process.execPath, ['example.mjs'], { cwd: project, env: { ...process.env, TOUCHLINE_URL: url, TOUCHLINE_KEY: t.key } });
      let out = '', err = '';
      child.stdout!.on('data', (c: Buffer) => (out += c));
      child.stderr!.on('data', (c: Buffer) => (err += c));
      child.on('exit', (code) => resolve({ code, out, err }));
    });
    assert.equal(run.code, 0, run.err);
    const lines = run.out.trim().split('\n');
    assert.match(lines[0], /^.+ \(.+\): fee \d+ EUR, in three years \d+ EUR \((Elite Prospect|Excellent Opportunity|Steady Grower|Stable Value|Decline|Major decline)\)$/);
    assert.equal(lines[1], '404: Player not found');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

/** A fetch that answers from a list, recording what it was asked. */
function scripted(answers: Array<() => Response>) {
  const asked: Request[] = [];
  const fetch = async (req: Request) => {
    asked.push(req);
    return answers[Math.min(asked.length - 1, answers.length - 1)]();
  };
  return { fetch, asked };
}

test('429 and 503 are asked again after Retry-After, at most `retries` times; the key travels', async () => {
  const busy = () => new Response('{"error":"Too many analyses are waiting; try again shortly"}', { status: 503, headers: { 'retry-after': '0', 'content-type': 'application/json' } });
  const ok = () => new Response('{"status":"ok"}', { status: 200, headers: { 'content-type': 'application/json' } });
  const s = scripted([busy, busy, ok]);
  const client = createTouchlineClient({ baseUrl: 'http://touchline.test', apiKey: 'tl_abc', fetch: s.fetch });
  const { data } = await client.GET('/v1/health');
  assert.deepEqual(data, { status: 'ok' });
  assert.equal(s.asked.length, 3);
  assert.ok(s.asked.every((r) => r.headers.get('x-api-key') === 'tl_abc'));

  const always = scripted([() => new Response('{"error":"Rate limit exceeded","retry_after_seconds":0}', { status: 429, headers: { 'retry-after': '0' } })]);
  const limited = createTouchlineClient({ baseUrl: 'http://touchline.test', fetch: always.fetch, retries: 2 });
  await assert.rejects(limited.GET('/v1/competitions'), (err: unknown) => err instanceof TouchlineError && err.status === 429 && err.message === 'Rate limit exceeded' && err.retryAfterSeconds === 0);
  assert.equal(always.asked.length, 3, 'the first ask and two more');
});

test('a refusal is a TouchlineError with the API\'s message; throwOnError false returns it as data', async () => {
  const client = createTouchlineClient({ baseUrl: url, apiKey: t.key });
  await assert.rejects(client.GET('/v1/player_info', { params: { query: { player_id: 'nope' } } }), (err: unknown) => err instanceof TouchlineError && err.status === 400 && err.message === 'Invalid player_id');
  const quiet = createTouchlineClient({ baseUrl: url, apiKey: 'tl_wrong', throwOnError: false });
  const res = await quiet.GET('/v1/competitions');
  assert.equal(res.response.status, 401);
  assert.deepEqual(res.error, { error: 'Invalid API key' });
});
