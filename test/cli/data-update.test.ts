import assert from 'node:assert/strict';
import { readFileSync, readdirSync, rmSync, existsSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import yazl from 'yazl';
import { demoDataDir } from '../helpers/app.js';
import { freePort, REPO_ROOT, spawnCli, startServerProcess, waitFor, type ServerProcess } from '../helpers/server-process.js';
import { resolveSource, UpdateError } from '../../src/data/update/source.js';

// `touchline data update --from URL` as an operator runs it, without the network: a local HTTP server on
// 127.0.0.1 serves zips of the dataset's layout (the test fixture, appearances included), a real server
// answers from the embedded database, and the CLI goes through its admin socket.

const FIXTURE = join(REPO_ROOT, 'test/fixtures/transfermarkt');
/** The fixture's rows that do not parse (it tests the importer's rejects): an update fails on them, so the base zip leaves them out. */
const UNPARSABLE: Record<string, number[]> = { clubs: [7, 9], players: [13, 14], transfers: [18, 19], player_valuations: [26, 27], games: [11], appearances: [11] };

function tables(): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of readdirSync(FIXTURE).filter((n) => n.endsWith('.csv'))) {
    const table = f.replace(/\.csv$/, '');
    const drop = new Set(UNPARSABLE[table] ?? []);
    out.set(table, readFileSync(join(FIXTURE, f), 'utf8').split('\n').filter((_, i) => !drop.has(i + 1)).join('\n'));
  }
  return out;
}

const POSITIONS = [['Goalkeeper', 'Goalkeeper'], ['Centre-Back', 'Defender'], ['Left-Back', 'Defender'], ['Central Midfield', 'Midfield'], ['Right Winger', 'Attack'], ['Centre-Forward', 'Attack']];
const CLUBS = [1001, 1002, 1003, 1004];

/**
 * The models need more than the fixture's handful of players to train on (the fee model 50 paid
 * transfers, the future model 200 player-seasons): 160 more players of the same layout, each with a
 * value every half year from 2016 and one paid move, made deterministically.
 */
function withSquads(files: Map<string, string>): Map<string, string> {
  const out = new Map(files);
  const players: string[] = [];
  const values: string[] = [];
  const transfers: string[] = [];
  for (let i = 0; i < 160; i++) {
    const id = 5000 + i;
    const [sub, pos] = POSITIONS[i % POSITIONS.length];
    const from = CLUBS[i % 4];
    const to = CLUBS[(i + 1 + (i % 3)) % 4];
    const born = `${1992 + (i % 9)}-0${1 + (i % 9)}-1${i % 10}`;
    const scale = 1 + (i % 17);
    players.push(`${id},Gen${i},Player${i},Gen${i} Player${i},2023,${to},gen-${i},England,Leeds,England,${born},${sub},${pos},right,${170 + (i % 25)},2027-06-30 00:00:00,,,https://example.org/p/${id},GB1,Club,${scale * 1_000_000},${scale * 1_200_000}`);
    for (let y = 2016; y <= 2023; y++) {
      for (const md of ['01-15', '07-15']) {
        const growth = 1 + ((y - 2016) * ((i % 5) - 1)) / 10;
        values.push(`${id},${y}-${md},${Math.max(50_000, Math.round(scale * 500_000 * growth))},${y < 2020 ? from : to},GB1`);
      }
    }
    transfers.push(`${id},2019-0${7 + (i % 2)}-0${1 + (i % 9)},19/20,${from},${to},From,To,${scale * 450_000 + (i % 7) * 100_000},${scale * 500_000},Gen${i} Player${i}`);
  }
  const add = (t: string, rows: string[]) => out.set(t, `${out.get(t)!.trimEnd()}\n${rows.join('\n')}\n`);
  add('players', players);
  add('player_valuations', values);
  add('transfers', transfers);
  return out;
}

function zip(files: Map<string, string>, folder = ''): Promise<Buffer> {
  const z = new yazl.ZipFile();
  for (const [t, text] of files) z.addBuffer(Buffer.from(text), `${folder}${t}.csv`);
  z.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    z.outputStream.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve(Buffer.concat(chunks))).on('error', reject);
  });
}

let dataDir = '';
let server: ServerProcess | null = null;
let http: Server | null = null;
after(async () => {
  await server?.stop();
  http?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const RAISED = 95_000_000;

test('data update from a local URL: checked, swapped into the running server within 10 s, reported, bad input refused, rolled back', { timeout: 1_200_000 }, async () => {
  const base = withSquads(tables());
  // The update that follows: Adam Archer's value raised, an appearance added.
  const next = new Map(base);
  next.set('player_valuations', `${base.get('player_valuations')!.trimEnd()}\n10,2024-05-01,${RAISED},1001,GB1\n`);
  next.set('appearances', `${base.get('appearances')!.trimEnd()}\n3_10,3,10,1001,1001,2023-08-26,Adam Archer,GB1,0,0,2,1,77\n`);
  const noGames = new Map(base);
  noGames.delete('games');
  const noColumn = new Map(base);
  noColumn.set('players', base.get('players')!.replace('date_of_birth', 'born'));
  const badRow = new Map(base);
  badRow.set('clubs', readFileSync(join(FIXTURE, 'clubs.csv'), 'utf8'));
  const served: Record<string, Buffer> = {
    '/v1.zip': await zip(base, 'transfermarkt-datasets/'),
    '/v2.zip': await zip(next),
    '/no-games.zip': await zip(noGames),
    '/no-column.zip': await zip(noColumn),
    '/bad-row.zip': await zip(badRow),
    '/not-a-zip.zip': Buffer.from('<html>not a zip</html>'),
  };
  http = createServer((req, res) => {
    const body = served[req.url ?? ''];
    if (!body) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': 'application/zip', 'content-length': body.length }).end(body);
  });
  const port = await freePort();
  await new Promise<void>((r) => http!.listen(port, '127.0.0.1', () => r()));
  const url = (p: string) => `http://127.0.0.1:${port}${p}`;

  dataDir = await demoDataDir('touchline-update-');
  server = await startServerProcess({ env: { TOUCHLINE_DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, startTimeoutMs: 900_000 });
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

  // Second update: the raised value is answered within 10 s, and the report names it.
  const second = await update(url('/v2.zip'));
  assert.equal(second.code, 0, second.stderr);
  const started = Date.now();
  await waitFor('the raised value served', async () => (await latest()) === RAISED, { timeoutMs: 10_000, intervalMs: 250 });
  assert.ok(Date.now() - started < 10_000);
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
});

test('a disk that fills while the zip is unpacked fails in one line naming it (a write error injected at the seam)', async () => {
  const work = mkdtempSync(join(tmpdir(), 'touchline-disk-'));
  try {
    const file = join(work, 'src.zip');
    const { writeFileSync } = await import('node:fs');
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
