/**
 * The server side of bench/engine.ts, in a process of its own so the load generator does not share
 * its event loop: the real app on the demo world (bench/lib/serve.ts) and, in this same process, a
 * bare Fastify route answering the very JSON body /v1/player_info gives for the player asked.
 * Prints one line `READY {...}` (urls, ids to ask about) on stdout, then serves until SIGTERM.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { BENCH_KEY, startBenchServer } from './serve.js';

const server = await startBenchServer();
const snapshot = server.runtime.world.current();
const players = [...snapshot.players.values()];
const ids = players.map((p) => p.id).sort();
const analysable = players.filter((p) => p.analysis_available).map((p) => p.id).sort();
const leagues = [...snapshot.analysisClubsOfLeague.keys()].filter((l) => (snapshot.analysisClubsOfLeague.get(l)?.length ?? 0) >= 2).sort();
const clubs = leagues.flatMap((l) => [...snapshot.analysisClubsOfLeague.get(l)!].sort());

// The bare route's bodies: what player_info answers, parsed, so Fastify serialises the same object.
const bodies = new Map<string, unknown>();
for (const id of ids) {
  const res = await server.app.inject({ method: 'GET', url: `/v1/player_info?player_id=${id}`, headers: { 'x-api-key': BENCH_KEY } });
  if (res.statusCode === 200) bodies.set(id, res.json());
}
const bodiesFile = join(mkdtempSync(join(tmpdir(), 'touchline-bench-')), 'bodies.json');
writeFileSync(bodiesFile, JSON.stringify(Object.fromEntries(bodies)));
const bare = Fastify();
bare.get('/bare', async (req) => bodies.get((req.query as { player_id?: string }).player_id ?? '') ?? { error: 'Player not found' });
const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

// The main thread's own memory: its V8 heap (world, indexes, models; garbage not yet collected included) and
// what lies outside it (the embedded database's WebAssembly memory, buffers).
const { heapUsed, external } = process.memoryUsage();
const mainThread = { heapUsedMb: Math.round(heapUsed / 2 ** 20), externalMb: Math.round(external / 2 ** 20) };
process.stdout.write(`READY ${JSON.stringify({ url: server.url, bareUrl, pid: process.pid, key: BENCH_KEY, players: ids, analysable, clubs, bodiesFile, mainThread })}\n`);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void Promise.all([bare.close(), server.close()]).then(() => process.exit(0), (err) => {
    console.error(err);
    process.exit(1);
  });
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
