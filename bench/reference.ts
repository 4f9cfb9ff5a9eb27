/**
 * Throughput of GET /v1/player_info with a valid key, beside a bare Fastify route in the same run.
 * Usage: npx tsx bench/reference.ts [--seconds 10] [--connections 20]
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { BENCH_KEY, startBareServer, startBenchServer } from './lib/serve.js';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: '20' } } });
const duration = Number(values.seconds);
const connections = Number(values.connections);

async function run(url: string, headers: Record<string, string> = {}) {
  // The load comes from a worker thread, so it does not take the event loop of the servers it measures.
  const result = await autocannon({ url, connections, duration, headers, workers: 1 });
  return { rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
}

const server = await startBenchServer();
const bare = await startBareServer();
try {
  const players = [...server.runtime.world.current().players.keys()];
  const playerId = players[Math.floor(players.length / 2)];
  await run(`${bare.url}/bare`); // warm-up of the machine, not reported
  const bareResult = await run(`${bare.url}/bare`);
  const api = await run(`${server.url}/v1/player_info?player_id=${playerId}`, { 'x-api-key': BENCH_KEY });
  console.log(`connections=${connections} duration=${duration}s`);
  console.log(`bare fastify route : ${bareResult.rps.toFixed(0)} req/s, p99 ${bareResult.p99} ms`);
  console.log(`/v1/player_info    : ${api.rps.toFixed(0)} req/s, p99 ${api.p99} ms, non-2xx ${api.non2xx}, errors ${api.errors}`);
  console.log(`ratio              : ${(api.rps / bareResult.rps).toFixed(2)} (target >= 0.5)`);
} finally {
  await bare.app.close();
  await server.close();
}
