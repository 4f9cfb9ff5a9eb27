/**
 * Why a serving process turns V8's allocation-site pretenuring off (src/heap-tuning.ts): the bench
 * server of bench/engine.ts (compiled, as `npm start`), once with V8's default and once with the
 * setting, each in turn: 5 s of get_roi_analysis on fresh pairs (8 clients: requests held open by
 * analyses), then 8 s of GET /v1/player_info (20 clients). For that window it prints V8's young
 * collections (`--trace-gc-nvp`: how many, mean pause, bytes promoted to the old generation),
 * player_info's rate and the server's CPU per request.
 *
 * Usage: node --import tsx bench/request-gc.ts [--rounds 2]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { compiledServer, cpuSeconds, startServer } from './lib/engine-process.js';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '2' } } });
const ROUNDS = Number(values.rounds);
const script = await compiledServer();
console.log(`request GC bench: demo world, compiled server, Node ${process.version}, load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);

async function run(pretenuring: boolean): Promise<void> {
  let counting = false;
  const young = { n: 0, pauseMs: 0, promoted: 0 };
  const { ready, stop } = await startServer(['--trace-gc-nvp', script], {
    env: { BENCH_PRETENURING: pretenuring ? '1' : '0' },
    onLine: (line) => {
      if (!counting || !/ gc=s /.test(line)) return;
      young.n++;
      young.pauseMs += Number(/ pause=([\d.]+)/.exec(line)?.[1] ?? 0);
      young.promoted += Number(/ promoted=(\d+)/.exec(line)?.[1] ?? 0);
    },
  });
  try {
    let i = 0;
    const pairs = ready.analysable.flatMap((p, k) => ({ player_id: p, club_id: ready.clubs[(k * 31) % ready.clubs.length] }));
    await autocannon({
      url: ready.url, connections: 8, duration: 5, headers: { 'x-api-key': ready.key, 'content-type': 'application/json' },
      requests: [{ method: 'POST', path: '/v1/get_roi_analysis', setupRequest: (req) => ({ ...req, body: JSON.stringify(pairs[i++ % pairs.length]) }) }],
    });
    const requests = Array.from({ length: 2_000 }, (_, k) => ({ method: 'GET' as const, path: `/v1/player_info?player_id=${ready.players[(k * 7919) % ready.players.length]}` }));
    counting = true;
    const c0 = cpuSeconds(ready.pid);
    const r = await autocannon({ url: ready.url, connections: 20, duration: 8, headers: { 'x-api-key': ready.key }, requests });
    const cpuUs = (1e6 * (cpuSeconds(ready.pid) - c0)) / r.requests.total;
    counting = false;
    const rps = r.requests.total / 8;
    console.log(`${(pretenuring ? 'V8 default (pretenuring on)' : 'pretenuring off (npm start)').padEnd(28)} player_info ${rps.toFixed(0).padStart(6)} req/s, server CPU ${cpuUs.toFixed(1)} µs/request | ` +
      `young collections ${young.n}, mean pause ${(young.pauseMs / Math.max(1, young.n)).toFixed(2)} ms, ${(young.pauseMs / 8 / 10).toFixed(1)}% of the time, ` +
      `promoted ${(young.promoted / 2 ** 20).toFixed(1)} MB (${((young.promoted / r.requests.total)).toFixed(0)} B/request)`);
  } finally {
    await stop();
  }
}

for (let round = 0; round < ROUNDS; round++) {
  await run(true);
  await run(false);
}
console.log(`load average at the end ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
