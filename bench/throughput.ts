/**
 * Throughput on loopback of a reference endpoint (GET /v1/player_info) and an analysis endpoint
 * (GET /v1/expected_transfer_value), each beside a bare Fastify route measured in the same run, on the
 * embedded database and, when a PostgreSQL server is named, on PostgreSQL (with Redis for the limiter
 * when one is named, as several instances would run).
 *
 * Usage: npx tsx bench/throughput.ts [--seconds 10] [--connections 20] [--pg URL] [--redis URL] [--skip-embedded]
 *   --pg defaults to DATABASE_URL, --redis to REDIS_URL. The PostgreSQL run uses a scratch database
 *   created next to the one named (<name>_bench_<pid>) and dropped at the end: the one named is not touched.
 *
 * The bare route and the endpoints are measured in turns (bare, reference, analysis, three times, a third
 * of the time each) and each figure sums its turns: this machine's speed drifts by tens of percent over
 * a minute, and turns spread the drift over all three instead of charging it to one. p50 is the median
 * of the turns, p99 the worst turn's.
 *
 * Every request picks a player (and, for the fee, a contract end date) from a seeded stream, so the
 * answer cache does not answer most analysis requests. Server and load generator share this process:
 * the bare route pays the same cost and gets the same requests (path and
 * query string of the reference endpoint, same key header), so the ratio compares like with like.
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { BENCH_KEY, startBareServer, startBenchServer, type BenchServer } from './lib/serve.js';
import { createRng } from '../src/domain/random.js';
import { combine, figuresOf, type Figures } from './lib/load.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '20' },
    pg: { type: 'string', default: process.env.DATABASE_URL ?? '' },
    redis: { type: 'string', default: process.env.REDIS_URL ?? '' },
    'skip-embedded': { type: 'boolean', default: false },
  },
});
const duration = Number(values.seconds);
const connections = Number(values.connections);
if (!(duration > 0 && duration <= 600) || !(connections > 0 && connections <= 1000)) throw new Error('--seconds must be in (0, 600], --connections in (0, 1000]');

type Pick = () => string;

async function measure(url: string, path: Pick | string, headers: Record<string, string>, seconds: number): Promise<Figures> {
  // A fixed list of paths drawn up front (each connection cycles through it), so the load can come
  // from a worker thread and not take the event loop of the servers it measures.
  const paths = typeof path === 'string' ? [path] : Array.from({ length: 2_000 }, path);
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    headers,
    workers: 1,
    requests: paths.map((p) => ({ method: 'GET' as const, path: p })),
  });
  return figuresOf(result);
}

const ROUNDS = 3;

const line = (label: string, f: Figures, bare?: Figures) =>
  `${label.padEnd(34)} ${f.rps.toFixed(0).padStart(6)} req/s  p50 ${String(f.p50).padStart(3)} ms  p99 ${String(f.p99).padStart(3)} ms  ` +
  `non-2xx ${f.non2xx}  errors ${f.errors}${bare ? `  ratio ${(f.rps / bare.rps).toFixed(2)}` : ''}`;

/** bare, player_info, expected_transfer_value against one started server. */
async function suite(name: string, server: BenchServer, bareUrl: string): Promise<Record<string, Figures>> {
  const snapshot = server.runtime.world.current();
  const players = [...snapshot.players.values()];
  const analysable = players.filter((p) => p.analysis_available).map((p) => p.id);
  const all = players.map((p) => p.id);
  if (analysable.length === 0) throw new Error('no player with analysis data in the bench world');
  const rng = createRng(20260630);
  const info: Pick = () => `/v1/player_info?player_id=${all[rng.int(0, all.length - 1)]}`;
  // ~1,800 contract dates x the analysable players: the cache (5,000 answers) holds a small share.
  const fee: Pick = () => {
    const day = new Date(Date.UTC(2026, 6, 1) + rng.int(0, 1_825) * 86_400_000).toISOString().slice(0, 10);
    return `/v1/expected_transfer_value?player_id=${analysable[rng.int(0, analysable.length - 1)]}&contract_end_date=${day}`;
  };
  const auth = { 'x-api-key': BENCH_KEY };
  // The bare route gets the same requests (query string, key header), so the load generator does the same
  // work for both and the ratio measures what the server adds.
  const bareInfo: Pick = () => info().replace('/v1/player_info', '/bare');
  await measure(server.url, info, auth, duration / ROUNDS); // warm-up: JIT, pools, caches of reference data; not reported
  const turns: Record<'bare' | 'ref' | 'analysis', Figures[]> = { bare: [], ref: [], analysis: [] };
  for (let round = 0; round < ROUNDS; round++) {
    turns.bare.push(await measure(bareUrl, bareInfo, auth, duration / ROUNDS));
    turns.ref.push(await measure(server.url, info, auth, duration / ROUNDS));
    turns.analysis.push(await measure(server.url, fee, auth, duration / ROUNDS));
  }
  const bare = combine(turns.bare);
  const ref = combine(turns.ref);
  const analysis = combine(turns.analysis);
  console.log(`\n${name}  (${players.length} players, ${analysable.length} with analysis data)`);
  console.log(line('bare fastify route', bare));
  console.log(line('GET /v1/player_info', ref, bare));
  console.log(line('GET /v1/expected_transfer_value', analysis, bare));
  return { bare, ref, analysis };
}

async function scratchDatabase(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const u = new URL(serverUrl);
  const name = `${u.pathname.replace(/^\//, '') || 'touchline'}_bench_${process.pid}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  const admin = new URL(serverUrl);
  admin.pathname = '/postgres';
  const run = async (q: string) => {
    const c = new pg.Client({ connectionString: admin.toString() });
    await c.connect();
    try {
      await c.query(q);
    } finally {
      await c.end();
    }
  };
  await run(`drop database if exists ${name} with (force)`);
  await run(`create database ${name}`);
  u.pathname = `/${name}`;
  return { url: u.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}

console.log(`throughput: ${connections} connections, ${duration} s per measurement, loopback, Node ${process.version}`);
const bare = await startBareServer();
const verdicts: string[] = [];
try {
  if (!values['skip-embedded']) {
    const embedded = await startBenchServer({ DATABASE_URL: '', REDIS_URL: '' });
    try {
      const r = await suite('embedded database (PGlite), in-memory limiter', embedded, bare.url);
      verdicts.push(`embedded reference ratio ${(r.ref.rps / r.bare.rps).toFixed(2)} (target >= 0.5)`);
    } finally {
      await embedded.close();
    }
  }

  if (values.pg) {
    const scratch = await scratchDatabase(values.pg);
    try {
      console.error('loading the demo world into the scratch PostgreSQL database …');
      const server = await startBenchServer({ DATABASE_URL: scratch.url, REDIS_URL: values.redis });
      try {
        const r = await suite(`PostgreSQL${values.redis ? ' + Redis limiter' : ', in-memory limiter'}`, server, bare.url);
        verdicts.push(`PostgreSQL reference ratio ${(r.ref.rps / r.bare.rps).toFixed(2)} (target >= 0.5)`);
      } finally {
        await server.close();
      }
    } finally {
      await scratch.drop();
    }
  } else {
    console.log('\n(PostgreSQL run skipped: give --pg URL or DATABASE_URL)');
  }
  console.log(`\n${verdicts.join('\n')}`);
} finally {
  await bare.app.close();
}
