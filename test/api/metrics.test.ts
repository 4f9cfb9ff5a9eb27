/**
 * GET /metrics on METRICS_PORT: the real server (startServer, as `touchline serve` runs it) on a copy
 * of the demo world's embedded database, its metrics scraped and parsed as Prometheus text.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import { startServer, type Server } from '../../src/main.js';
import { StartupError } from '../../src/startup-error.js';
import { demoDataDir } from '../helpers/app.js';
import { MODELS_DIR } from '../helpers/code-key.js';
import { http, waitFor } from '../helpers/server-process.js';

const KEY = 'tl_metrics_test_key_0123456789abcdef';
const LIMIT = 12;

interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** Prometheus text format: `# HELP`/`# TYPE` lines, then `name{label="value",...} number` per sample. */
function parse(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) types.set(type[1], type[2]);
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(m, `a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[k] = v;
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return { samples, types };
}

/** The sum of the samples named so whose labels include `labels`. */
function total(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((a, s) => a + s.value, 0);
}

let server: Server;
let dataDir: string;
let metricsUrl: string;
const scrape = async () => {
  const r = await http(metricsUrl, '/metrics');
  assert.equal(r.status, 200);
  assert.match(String(r.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  return parse(r.text);
};

before(async () => {
  dataDir = await demoDataDir('touchline-metrics-');
  const config = loadConfig({
    TOUCHLINE_DATA_DIR: dataDir,
    TOUCHLINE_MODELS_DIR: MODELS_DIR,
    TOUCHLINE_BOOTSTRAP_KEY: KEY,
    HOST: '127.0.0.1',
    PORT: '0',
    METRICS_PORT: '0',
    RATE_LIMIT: String(LIMIT),
    ENGINE_WORKERS: '1',
    LOG_LEVEL: 'silent',
  });
  server = await startServer(config, pino({ level: 'silent' }));
  assert.ok(server.metricsUrl, 'METRICS_PORT set: a metrics listener');
  metricsUrl = server.metricsUrl;
});

after(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test('no METRICS_PORT, no metrics listener; the API port has no /metrics', async () => {
  assert.equal(loadConfig({}).METRICS_PORT, undefined);
  assert.notEqual(new URL(metricsUrl).port, new URL(server.url).port);
  const onApi = await http(server.url, '/metrics');
  assert.equal(onApi.status, 404);
  assert.equal((await http(metricsUrl, '/v1/health')).status, 404);
  // the same port for both: refused before anything is loaded
  const port = new URL(server.url).port;
  await assert.rejects(
    startServer(loadConfig({ TOUCHLINE_DATA_DIR: dataDir, PORT: port, METRICS_PORT: port }), pino({ level: 'silent' })),
    (err) => err instanceof StartupError && err.message === `METRICS_PORT and PORT are both ${port}: the metrics need a port of their own (or unset METRICS_PORT)`,
  );
});

test('requests are counted by route pattern and status, with latencies; 404s and 429s; engine tasks; caches', async () => {
  const key = { headers: { 'x-api-key': KEY } };
  await waitFor('ready', async () => (await http(server.url, '/v1/ready')).status === 200, { timeoutMs: 120_000, intervalMs: 250 });
  const before = (await scrape()).samples;

  const s = server.runtime.world.current();
  const players = [...s.players.keys()].slice(0, 2);
  for (const id of players) assert.equal((await http(server.url, `/v1/player_info?player_id=${id}`, key)).status, 200);
  assert.equal((await http(server.url, '/v1/no/such/path/12345', key)).status, 404);
  const league = [...s.clubsOfLeague.keys()].sort()[0];
  // computed once, then answered from the answer cache
  for (let i = 0; i < 2; i++) assert.equal((await http(server.url, `/v1/league_forecast?competition_id=${league}`, key)).status, 200);
  let refused = 0;
  for (let i = 0; i < LIMIT + 2; i++) if ((await http(server.url, '/v1/player_positions', key)).status === 429) refused++;
  assert.ok(refused >= 2, 'the rate limit refused some');
  const after = (await scrape()).samples;
  const moved = (name: string, labels: Record<string, string>) => total(after, name, labels) - total(before, name, labels);

  assert.equal(moved('touchline_http_requests_total', { method: 'GET', route: '/v1/player_info', status: '200' }), players.length);
  assert.equal(moved('touchline_http_request_duration_seconds_count', { route: '/v1/player_info', status: '200' }), players.length);
  assert.equal(moved('touchline_http_request_duration_seconds_bucket', { route: '/v1/player_info', status: '200', le: '+Inf' }), players.length);
  assert.ok(moved('touchline_http_request_duration_seconds_sum', { route: '/v1/player_info' }) > 0);
  // the route's pattern, never the raw URL
  assert.equal(after.some((x) => x.labels.route?.includes('12345') || x.labels.route?.includes('player_id=')), false);
  assert.equal(moved('touchline_http_requests_total', { route: '(unmatched)', status: '404' }), 1);
  assert.equal(moved('touchline_http_429_total', { route: '/v1/player_positions' }), refused);
  assert.equal(moved('touchline_http_requests_total', { route: '/v1/player_positions', status: '429' }), refused);
  assert.equal(moved('touchline_engine_task_duration_seconds_count', { kind: 'forecast', outcome: 'done' }), 1);
  assert.equal(total(after, 'touchline_engine_workers'), 1);
  // the forecast ran on a worker, which read the package the pool made
  const packageBytes = total(after, 'touchline_engine_package_bytes', { part: 'total' });
  const inPlace = total(after, 'touchline_engine_package_bytes', { part: 'in_place' });
  assert.ok(inPlace > 0 && packageBytes > inPlace, `${inPlace} of ${packageBytes} bytes read in place`);
  // the worker says what it holds: a world's heap, and its clubs' kept simulations once warm
  const reported = await waitFor('the worker\'s memory report', async () => {
    const samples = (await scrape()).samples;
    return total(samples, 'touchline_engine_worker_memory_bytes', { worker: '0', part: 'baselines' }) > 0 && samples;
  }, { timeoutMs: 30_000, intervalMs: 250 });
  const part = (name: string) => total(reported, 'touchline_engine_worker_memory_bytes', { worker: '0', part: name });
  assert.ok(part('heap_used') > 10 * 2 ** 20 && part('heap_reserved') >= part('heap_used'), `heap ${part('heap_used')} of ${part('heap_reserved')} bytes`);
  assert.ok(part('external') >= part('baselines') + part('match_days') && part('match_days') > 0, `external ${part('external')} bytes`);
  assert.deepEqual(new Set(reported.filter((x) => x.name === 'touchline_engine_worker_memory_bytes').map((x) => x.labels.worker)), new Set(['0']));
  assert.equal(total(after, 'touchline_engine_queue_depth'), 0);
  assert.equal(total(after, 'touchline_engine_busy_workers'), 0);
  assert.equal(total(after, 'touchline_ready'), 1);
  assert.equal(moved('touchline_cache_misses_total', { cache: 'answers' }), 1, 'the forecast was computed once');
  assert.ok(moved('touchline_cache_hits_total', { cache: 'answers' }) >= 1, 'and answered from the cache the second time');
  // the key was looked up once at most, then answered from memory
  assert.ok(moved('touchline_cache_hits_total', { cache: 'keys' }) >= players.length);
  assert.ok(moved('touchline_cache_misses_total', { cache: 'keys' }) <= 1);
});

test('login-throttle refusals, and the data as-of date and model version', async () => {
  const before = (await scrape()).samples;
  let refused = 0;
  for (let i = 0; i < 12; i++) {
    const r = await http(server.url, '/v1/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'nobody@metrics.test', password: 'wrong password, surely' }) });
    if (r.status === 429) refused++;
  }
  assert.ok(refused >= 1, 'the throttle refused some');
  const { samples, types } = await scrape();
  assert.equal(total(samples, 'touchline_login_throttle_refusals_total') - total(before, 'touchline_login_throttle_refusals_total'), refused);
  assert.equal(total(samples, 'touchline_http_429_total', { route: '/v1/auth/login' }), refused);
  assert.equal(types.get('touchline_login_throttle_refusals_total'), 'counter');
  assert.equal(types.get('touchline_http_request_duration_seconds'), 'histogram');

  const snapshot = server.runtime.world.current();
  const info = samples.filter((x) => x.name === 'touchline_data_info');
  assert.deepEqual(info.map((x) => [x.labels, x.value]), [[{ as_of: snapshot.asOf, data_version: snapshot.dataVersion, model_version: server.runtime.models.current()!.version }, 1]]);
  assert.equal(total(samples, 'touchline_data_as_of_timestamp_seconds'), Date.parse(`${snapshot.asOf}T00:00:00Z`) / 1000);
  assert.ok(total(samples, 'process_cpu_seconds_total') > 0, 'the process metrics too');
});

test('the Grafana dashboard and docs/operations.md read only metrics the server offers, and name each of ours', async () => {
  const offered = new Set((await scrape()).samples.map((x) => x.name.replace(/_(bucket|count|sum)$/, '')));
  const dashboard = JSON.parse(readFileSync(new URL('../../docs/grafana-dashboard.json', import.meta.url), 'utf8')) as { panels: { targets: { expr: string }[] }[] };
  const charted = new Set(dashboard.panels.flatMap((p) => p.targets.flatMap((t) => [...t.expr.matchAll(/\b((?:touchline|nodejs|process)_[a-z0-9_]+)/g)].map((m) => m[1].replace(/_(bucket|count|sum)$/, '')))));
  assert.ok(charted.size >= 10);
  for (const name of charted) assert.ok(offered.has(name), `the dashboard reads ${name}, which the server does not offer`);
  const operations = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
  const documented = new Set([...operations.slice(operations.indexOf('## Metrics')).matchAll(/`(touchline_[a-z0-9_]+)`/g)].map((m) => m[1]));
  const ours = [...offered].filter((n) => n.startsWith('touchline_'));
  assert.deepEqual([...documented].sort(), ours.sort(), 'docs/operations.md lists every metric of ours, and no other');
  for (const name of ours) assert.ok(charted.has(name), `the dashboard charts ${name}`);
});

test('a server shutting down is not ready: its 503s are counted', async () => {
  const before = total((await scrape()).samples, 'touchline_http_503_total', { route: '/v1/ready' });
  // the draining flag alone, as a SIGTERM sets it first
  await server.app.drain(0, 0);
  assert.equal((await http(server.url, '/v1/ready')).status, 503);
  const { samples } = await scrape();
  assert.equal(total(samples, 'touchline_http_503_total', { route: '/v1/ready' }) - before, 1);
  assert.equal(total(samples, 'touchline_ready'), 0);
});
