import assert from 'node:assert/strict';
import { readFileSync, rmSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { demoDataDir } from '../helpers/app.js';
import { freePort, spawnCli, startServerProcess, waitFor, type ServerProcess } from '../helpers/server-process.js';
import { baseAndNext, FIXTURE, RAISED, serveZips, tables, zip } from '../helpers/update-fixture.js';
import { resolveSource, UpdateError } from '../../src/data/update/source.js';
import { signatureValid, startReceiver } from '../helpers/webhook-receiver.js';

// `touchline data update --from URL` as an operator runs it, without the network: a local HTTP server on
// 127.0.0.1 serves zips of the dataset's layout (the test fixture, appearances included), a real server
// answers from the embedded database, and the CLI goes through its admin socket.

let dataDir = '';
let server: ServerProcess | null = null;
let http: { url(path: string): string; close(): void } | null = null;
let receiver: Awaited<ReturnType<typeof startReceiver>> | null = null;
after(async () => {
  await server?.stop();
  http?.close();
  await receiver?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test('data update from a local URL: checked, swapped into the running server within 10 s, reported, bad input refused, rolled back; webhooks told', { timeout: 1_200_000 }, async () => {
  const { base, baseZip, nextZip } = await baseAndNext();
  const noGames = new Map(base);
  noGames.delete('games');
  const noColumn = new Map(base);
  noColumn.set('players', base.get('players')!.replace('date_of_birth', 'born'));
  const badRow = new Map(base);
  badRow.set('clubs', readFileSync(join(FIXTURE, 'clubs.csv'), 'utf8'));
  const served: Record<string, Buffer> = {
    '/v1.zip': baseZip,
    '/v2.zip': nextZip,
    '/no-games.zip': await zip(noGames),
    '/no-column.zip': await zip(noColumn),
    '/bad-row.zip': await zip(badRow),
    '/not-a-zip.zip': Buffer.from('<html>not a zip</html>'),
  };
  http = await serveZips(served, await freePort());
  const url = http.url;

  dataDir = await demoDataDir('touchline-update-');
  const serverEnv = { TOUCHLINE_DATA_DIR: dataDir, LOG_LEVEL: 'warn', WEBHOOKS_ALLOW_HTTP_LOOPBACK: '1' };
  server = await startServerProcess({ env: serverEnv, startTimeoutMs: 900_000 });
  const key = /Demo API key: (\S+)/.exec(server.output())?.[1];
  assert.ok(key);
  const get = async <T>(path: string) => {
    const res = await server!.request(path, { headers: { 'x-api-key': key } });
    return { status: res.status, body: res.json<T>() };
  };
  const health = async () => (await get<{ data_as_of: string }>('/v1/health')).body.data_as_of;
  assert.equal(await health(), '2026-06-30', 'the demo world keeps its own as-of date');
  const env = { TOUCHLINE_DATA_DIR: dataDir };
  const update = (from: string, ...more: string[]) => spawnCli(['data', 'update', '--from', from, '--json', ...more], env).done;

  // First update: the demo world is replaced by the fixture's (tables in one folder of the zip).
  const first = await update(url('/v1.zip'));
  assert.equal(first.code, 0, first.stderr);
  const r1 = JSON.parse(first.stdout) as { status: string; players_added: { name: string }[]; players_removed: unknown[]; counts: { after: Record<string, number> } };
  assert.equal(r1.status, 'updated');
  assert.ok(r1.players_added.some((p) => p.name === 'Adam Archer'));
  assert.ok(r1.players_removed.length > 0, 'the demo players are gone');
  assert.ok(r1.counts.after.appearances > 0, 'appearances imported');
  const archerId = await waitFor('the new world served', async () => {
    const found = await get<{ results: { service_id?: string; name: string }[] }>('/v1/search?q=Adam%20Archer&type=player');
    return found.body.results?.find((x) => x.name === 'Adam Archer')?.service_id;
  }, { timeoutMs: 10_000, intervalMs: 250 });
  const asOf1 = await health();
  assert.match(asOf1, /^20\d\d-\d\d-\d\d$/);
  assert.ok(asOf1 < '2026-06-30', `the as-of date follows the data (${asOf1})`);
  const latest = async () => (await get<{ market_values: { value_in_eur: number }[] }>(`/v1/market_value_history?player_id=${archerId}`)).body.market_values.at(-1)?.value_in_eur;
  const oldValue = await latest();
  assert.ok(oldValue && oldValue !== RAISED);
  const minutes = async () => (await get<{ seasons: { competitions: { minutes_played: number }[] }[] }>(`/v1/playing_time?player_id=${archerId}`)).body.seasons
    .flatMap((s) => s.competitions).reduce((n, c) => n + c.minutes_played, 0);
  const minutesBefore = await minutes();
  assert.ok(minutesBefore > 0, 'real minutes in /v1/playing_time');

  // A webhook for both events, and Archer on the account's shortlist (they outlive the restart below).
  receiver = await startReceiver();
  const hook = await server.request('/v1/webhooks', { method: 'POST', key, body: { url: receiver.url, events: ['data.updated', 'list.value_changed'] } });
  assert.equal(hook.status, 201, hook.text);
  const secret = hook.json<{ secret: string }>().secret;
  assert.equal((await server.request('/v1/shortlist', { method: 'POST', key, body: { player_id: archerId } })).status, 200);
  const events = (type: string) => receiver!.received.filter((r) => r.body.type === type);

  // Each bad input: one line, exit 1, the served value unchanged.
  const bad: Array<[string, RegExp]> = [
    [url('/missing.zip'), /answered 404/],
    [`http://127.0.0.1:${await freePort()}/x.zip`, /cannot reach .*ECONNREFUSED/],
    [url('/not-a-zip.zip'), /is not a zip file/],
    [url('/no-games.zip'), /table games is missing/],
    [url('/no-column.zip'), /table players lacks column date_of_birth/],
    [url('/bad-row.zip'), /clubs line 7 does not parse/],
  ];
  for (const [from, message] of bad) {
    const r = await update(from);
    assert.equal(r.code, 1, `${from}: ${r.stderr}`);
    assert.match(r.stderr.trim(), message);
    assert.equal(r.stderr.trim().split('\n').filter((l) => l.startsWith('touchline:')).length, 1, r.stderr);
    assert.match(r.stderr.trim().split('\n').at(-1)!, /^touchline: /);
    assert.equal(await latest(), oldValue, `${from} left the served data as it was`);
  }

  // A second update while one runs (its lock held by a live process: this one) is refused in one line.
  writeFileSync(join(dataDir, 'update.lock'), JSON.stringify({ pid: process.pid, socket: null }));
  const twice = await update(url('/v2.zip'));
  rmSync(join(dataDir, 'update.lock'));
  assert.equal(twice.code, 1, twice.stderr);
  assert.match(twice.stderr.trim(), new RegExp(`^touchline: a data update or rollback in .* is running in process ${process.pid}: wait for it to end`));
  assert.equal(await latest(), oldValue);

  // An update killed after its staging copy began to fill: the server that ran it (the embedded
  // database's holder) dies mid-update; restarted, it serves the old data, and the next update
  // drops the staging copy left behind and goes through.
  const killed = spawnCli(['data', 'update', '--from', url('/v2.zip'), '--json'], env);
  await waitFor('the staging copy being filled', async () => /storing the new world in the staging copy/.test(killed.output().stderr), { timeoutMs: 60_000, intervalMs: 20 });
  server.signal('SIGKILL');
  assert.doesNotMatch(killed.output().stderr, /swapping the new data in/, 'killed before the swap');
  await server.exited;
  assert.notEqual((await killed.done).code, 0, 'the update reports it did not finish');
  server = await startServerProcess({ env: serverEnv, startTimeoutMs: 120_000 });
  assert.equal(await latest(), oldValue, 'a restarted server serves the data from before the killed update');
  assert.equal(await health(), asOf1);

  // Second update: the raised value is answered within 10 s, and the report names it.
  const second = await update(url('/v2.zip'));
  assert.equal(second.code, 0, second.stderr);
  const started = Date.now();
  await waitFor('the raised value served', async () => (await latest()) === RAISED, { timeoutMs: 10_000, intervalMs: 250 });
  assert.ok(Date.now() - started < 10_000);
  // ... and the webhook is told within 10 s, signed: the update's summary, and Archer's value moved
  const told = await waitFor('data.updated delivered', async () => events('data.updated').find((e) => e.body.data.status === 'updated'), { timeoutMs: 10_000, intervalMs: 100 });
  assert.ok(told.at - started < 10_000, `data.updated ${told.at - started} ms after the update`);
  assert.ok(signatureValid(told.signature, told.raw, secret));
  assert.equal((told.body.data.data_as_of as { after: string }).after, '2024-05-01');
  const moved = await waitFor('list.value_changed delivered', async () => events('list.value_changed').find((e) => e.body.data.player_id === archerId), { timeoutMs: 10_000, intervalMs: 100 });
  assert.ok(signatureValid(moved.signature, moved.raw, secret));
  assert.deepEqual([(moved.body.data.before as { market_value_eur: number }).market_value_eur, (moved.body.data.after as { market_value_eur: number }).market_value_eur], [oldValue, RAISED]);
  const r2 = JSON.parse(readFileSync(join(dataDir, 'update-report.json'), 'utf8')) as { largest_value_changes: { name: string; club: string; old_value_eur: number; new_value_eur: number }[]; data_as_of: { after: string } };
  assert.deepEqual(r2.largest_value_changes[0], { player_id: archerId, name: 'Adam Archer', club: r2.largest_value_changes[0].club, old_value_eur: oldValue, new_value_eur: RAISED });
  assert.ok(r2.largest_value_changes[0].club);
  assert.equal(r2.data_as_of.after, '2024-05-01', 'the as-of date moved forward with the data');
  assert.equal(await health(), '2024-05-01');
  assert.equal(await minutes(), minutesBefore + 77);

  // Rollback: the old value again.
  const back = await spawnCli(['data', 'rollback', '--json'], env).done;
  assert.equal(back.code, 0, back.stderr);
  await waitFor('the old value served again', async () => (await latest()) === oldValue, { timeoutMs: 10_000, intervalMs: 250 });
  await waitFor('data.updated for the rollback', async () => events('data.updated').some((e) => e.body.data.status === 'rolled_back'), { timeoutMs: 10_000, intervalMs: 100 });
});

test('a disk that fills while the zip is unpacked fails in one line naming it (a write error injected at the seam)', async () => {
  const work = mkdtempSync(join(tmpdir(), 'touchline-disk-'));
  try {
    const file = join(work, 'src.zip');
    writeFileSync(file, await zip(tables()));
    const full = () => {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    };
    const quiet = { bytes: () => {}, info: () => {} };
    await assert.rejects(resolveSource(file, join(work, 'update'), quiet, full), (err: unknown) => err instanceof UpdateError && /the disk is full while writing .*\.csv/.test(err.message));
    assert.ok(existsSync(file));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
