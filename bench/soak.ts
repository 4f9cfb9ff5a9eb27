/**
 * Soak: a fixed request rate (autocannon overallRate, default 500 req/s) held for --minutes against the
 * real server (`touchline serve` in a child process, so its resident memory is its own), printing per
 * minute the achieved rate, p50/p99/max latency, non-2xx and errors, and the server's RSS; then a
 * verdict against the targets: p99 < 50 ms every minute, no errors or non-2xx, no memory growth.
 *
 * Usage: npx tsx bench/soak.ts [--minutes 10] [--rate 500] [--connections 20] [--window-seconds 60]
 *                              [--pg URL] [--redis URL] [--update]
 *   Without --pg the server runs on a fresh embedded database in a temporary folder (the first start
 *   loads the demo world, ~30 s, not measured). With --pg a scratch database is created next to the one
 *   named and dropped at the end. --window-seconds shortens the reporting window for a quick try.
 *
 * The request mix (seeded): 55% player_info, 15% get_players_at_club, 10% expected_transfer_value with
 * a varying contract end date (mostly computed, not cached), 5% get_future_transfer_value, 15% small
 * reference calls (competitions, clubs in a competition, role descriptions).
 *
 * --update: the server first takes the test fixture's dataset through `touchline data update` (not
 * measured), then, under load, an update to the fixture's next version starts in the first third of
 * the run and a rollback in the second; the ids stay the same, so any answer but 2xx is a failure,
 * except 503s (each with Retry-After) while the workers load the new world, which are counted apart.
 */
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createRng } from '../src/domain/random.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchDatabase, freePort, spawnCli, startServerProcess } from '../test/helpers/server-process.js';
import { baseAndNext, serveZips } from '../test/helpers/update-fixture.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    rate: { type: 'string', default: '500' },
    connections: { type: 'string', default: '20' },
    'window-seconds': { type: 'string', default: '60' },
    pg: { type: 'string', default: '' },
    redis: { type: 'string', default: '' },
    update: { type: 'boolean', default: false },
  },
});
const windows = Number(values.minutes);
const rate = Number(values.rate);
const connections = Number(values.connections);
const windowSeconds = Number(values['window-seconds']);
if (!Number.isInteger(windows) || windows < 1 || windows > 120) throw new Error('--minutes must be a whole number from 1 to 120');
if (!(rate > 0 && rate <= 20_000) || !(connections > 0 && connections <= 1_000) || !(windowSeconds >= 5 && windowSeconds <= 600)) {
  throw new Error('--rate in (0, 20000], --connections in (0, 1000], --window-seconds in [5, 600]');
}

const KEY = 'tl_soak_bench_key_0123456789abcdefghij';
const TARGET_P99_MS = 50;
/** Growth allowed between the end of the first window (warm) and the end of the last, as a share of the first. */
const MEMORY_TOLERANCE = 0.1;

/** Resident set size of a process in MiB (Linux /proc, else ps). */
function rssMiB(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (m) return Number(m[1]) / 1024;
  } catch {
    // Not Linux: ask ps.
  }
  return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) / 1024;
}

const scratch = values.pg ? await createScratchDatabase(values.pg, `soak_${process.pid}`) : null;
const dataDir = mkdtempSync(join(tmpdir(), 'touchline-soak-'));
const zips = values.update ? await baseAndNext() : null;
const zipServer = zips ? await serveZips({ '/base.zip': zips.baseZip, '/next.zip': zips.nextZip }, await freePort()) : null;
const cliEnv = { TOUCHLINE_DATA_DIR: dataDir, DATABASE_URL: scratch?.url, LOG_LEVEL: 'warn' };
/** Runs `touchline data ... --json` against the server's data: its report's status and its time; rejects on a failure. */
async function dataCommand(args: string[]): Promise<string> {
  const t0 = performance.now();
  const r = await spawnCli(['data', ...args, '--json'], cliEnv, { timeoutMs: 600_000 }).done;
  if (r.code !== 0) throw new Error(`touchline data ${args.join(' ')}: exit ${r.code}: ${r.stderr}`);
  return `${r.json<{ status: string }>().status} in ${((performance.now() - t0) / 1000).toFixed(1)} s`;
}
console.error(`starting the server (${scratch ? 'PostgreSQL' : 'embedded database'}${values.redis ? ', Redis limiter' : ''}) …`);
const server = await startServerProcess({
  name: 'soak server',
  startTimeoutMs: 180_000,
  env: {
    DATABASE_URL: scratch?.url,
    REDIS_URL: values.redis || undefined,
    RATE_LIMIT: '1000000000',
    TOUCHLINE_BOOTSTRAP_KEY: KEY,
    TOUCHLINE_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  },
});
if (zipServer) {
  console.error('replacing the demo world with the fixture\'s dataset (touchline data update; not measured) …');
  await dataCommand(['update', '--from', zipServer.url('/base.zip')]);
  // the server serves it within its 2 s version check, and is ready once its workers hold it
  for (let i = 0; i < 120 && (await server.request('/v1/ready')).status !== 200; i++) await new Promise((r) => setTimeout(r, 500));
}

interface Window {
  rps: number;
  p50: number;
  p99: number;
  max: number;
  requests: number;
  non2xx: number;
  errors: number;
  statuses: string;
  unavailable: number;
  rssEnd: number;
  rssMax: number;
}

try {
  // The request universe, read through the API itself.
  const get = async <T>(path: string): Promise<T> => {
    const r = await server.request(path, { key: KEY });
    if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.text}`);
    return r.json<T>();
  };
  const competitions = (await get<{ competitions: string[] }>('/v1/competitions')).competitions;
  const clubs: string[] = [];
  for (const c of competitions) clubs.push(...(await get<{ clubs: Array<{ service_id: string }> }>(`/v1/get_clubs_in_competition?competition_id=${c}`)).clubs.map((x) => x.service_id));
  const players: string[] = [];
  const analysable: string[] = [];
  for (const club of clubs) {
    players.push(...(await get<{ players: Array<{ service_id: string }> }>(`/v1/get_players_at_club?club_id=${club}`)).players.map((p) => p.service_id));
    analysable.push(...(await get<{ players: Array<{ service_id: string }> }>(`/v1/get_players_at_club?club_id=${club}&analysis_available_only=true`)).players.map((p) => p.service_id));
  }
  if (analysable.length === 0) throw new Error('no player with analysis data');
  const roles = (await get<{ roles: Array<{ role: string }> }>('/v1/role_description')).roles.map((r) => r.role);

  const rng = createRng(500);
  const any = <T>(xs: T[]) => xs[rng.int(0, xs.length - 1)];
  const nextRequest = (): { method: 'GET' | 'POST'; path: string; body?: string } => {
    const u = rng.uniform();
    if (u < 0.55) return { method: 'GET', path: `/v1/player_info?player_id=${any(players)}` };
    if (u < 0.7) return { method: 'GET', path: `/v1/get_players_at_club?club_id=${any(clubs)}` };
    if (u < 0.8) {
      const day = new Date(Date.UTC(2026, 6, 1) + rng.int(0, 1_825) * 86_400_000).toISOString().slice(0, 10);
      return { method: 'GET', path: `/v1/expected_transfer_value?player_id=${any(analysable)}&contract_end_date=${day}` };
    }
    if (u < 0.85) return { method: 'POST', path: '/v1/get_future_transfer_value', body: JSON.stringify({ player_id: any(analysable), club_id: any(clubs) }) };
    if (u < 0.9) return { method: 'GET', path: '/v1/competitions' };
    if (u < 0.95) return { method: 'GET', path: `/v1/get_clubs_in_competition?competition_id=${any(competitions)}` };
    return { method: 'GET', path: `/v1/role_description?role=${any(roles)}` };
  };

  console.log(
    `soak: ${rate} req/s for ${windows} x ${windowSeconds} s, ${connections} connections, loopback; server pid ${server.pid} ` +
      `(${scratch ? 'PostgreSQL' : 'embedded'}${values.redis ? ' + Redis' : ''}), RSS measured on that process; ` +
      `${players.length} players, ${analysable.length} analysable, ${clubs.length} clubs`,
  );
  console.log(`RSS before load: ${rssMiB(server.pid).toFixed(0)} MiB`);
  const results: Window[] = [];
  const changes: Promise<string>[] = [];
  const changeAt = zipServer ? [Math.max(1, Math.floor(windows / 3)), Math.max(2, Math.floor((2 * windows) / 3))] : [];
  for (let w = 1; w <= windows; w++) {
    if (zipServer && w === changeAt[0]) changes.push(dataCommand(['update', '--from', zipServer.url('/next.zip')]).then((s) => `update: ${s} (started in window ${w})`));
    if (zipServer && w === changeAt[1]) changes.push(changes[0]!.then(() => dataCommand(['rollback'])).then((s) => `rollback: ${s} (started in window ${w} or later)`));
    let rssMax = 0;
    const sampler = setInterval(() => (rssMax = Math.max(rssMax, rssMiB(server.pid))), 2_000);
    const r = await autocannon({
      url: server.url,
      connections,
      overallRate: rate,
      duration: windowSeconds,
      // Fresh headers per request: autocannon writes Content-Length into the headers object it is given,
      // which would otherwise stick to the GETs after a POST.
      requests: [
        {
          setupRequest: (req) => {
            const next = nextRequest();
            return { ...req, ...next, headers: next.body ? { 'x-api-key': KEY, 'content-type': 'application/json' } : { 'x-api-key': KEY } };
          },
        },
      ],
    });
    clearInterval(sampler);
    server.assertRunning();
    const rssEnd = rssMiB(server.pid);
    const unavailable = (r.statusCodeStats as Record<string, { count: number }> | undefined)?.['503']?.count ?? 0;
    const win: Window = {
      rps: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      max: r.latency.max,
      requests: r.requests.total,
      non2xx: r.non2xx - unavailable,
      unavailable,
      errors: r.errors + r.timeouts,
      statuses: Object.entries(r.statusCodeStats ?? {}).map(([code, v]) => `${code}:${(v as { count: number }).count}`).join(' '),
      rssEnd,
      rssMax: Math.max(rssMax, rssEnd),
    };
    results.push(win);
    console.log(
      `window ${String(w).padStart(2)}: ${win.rps.toFixed(0)} req/s (${win.requests} requests)  p50 ${win.p50} ms  p99 ${win.p99} ms  max ${win.max} ms  ` +
        `non-2xx ${win.non2xx}  503 ${win.unavailable}  errors ${win.errors} [${win.statuses}]  RSS ${win.rssEnd.toFixed(0)} MiB (max ${win.rssMax.toFixed(0)})`,
    );
  }

  for (const done of await Promise.all(changes)) console.log(`data change under load: ${done}`);
  const worstP99 = Math.max(...results.map((r) => r.p99));
  const failures = results.reduce((n, r) => n + r.non2xx + r.errors, 0);
  const first = results[0].rssEnd;
  const last = results[results.length - 1].rssEnd;
  const growth = (last - first) / first;
  const p99ok = worstP99 < TARGET_P99_MS;
  const memOk = results.length < 2 ? null : growth <= MEMORY_TOLERANCE;
  console.log('\nverdict');
  console.log(`  p99 < ${TARGET_P99_MS} ms every window : ${p99ok ? 'PASS' : 'FAIL'} (worst ${worstP99} ms)`);
  console.log(`  no errors, no non-2xx but 503 : ${failures === 0 ? 'PASS' : 'FAIL'} (${failures}; 503s with Retry-After while workers load a world: ${results.reduce((n, r) => n + r.unavailable, 0)})`);
  console.log(
    `  no memory growth             : ${memOk === null ? 'n/a (one window)' : memOk ? 'PASS' : 'FAIL'} ` +
      `(RSS ${first.toFixed(0)} -> ${last.toFixed(0)} MiB from the end of window 1 to the end of window ${results.length}, ${(growth * 100).toFixed(1)}%, tolerance ${MEMORY_TOLERANCE * 100}%)`,
  );
  if (windows * windowSeconds < 600) console.log(`  (a shorter run than the 10-minute target: ${windows} x ${windowSeconds} s)`);
  process.exitCode = p99ok && failures === 0 && memOk !== false ? 0 : 1;
} finally {
  const exit = await server.stop(20_000);
  if (exit.code !== 0) console.error(`server exit: code ${exit.code}, signal ${exit.signal}${exit.forced ? ' (killed)' : ''}`);
  await scratch?.drop();
  zipServer?.close();
  rmSync(dataDir, { recursive: true, force: true });
}
