/**
 * What the request path's parts cost in a small process of their own (issue 30, "the request path at
 * >= 0.80 of bare Fastify"): bench/lib/layers-server.ts serves the same body from one Fastify
 * instance per layer, each adding to the one before what every Touchline request pays for (our
 * server options, a hook pair, zod validation of the query, the 7 headers the contract and our
 * security rules ask for, the routes); autocannon loads each in turn (20 connections, 2 s, 6 rounds,
 * the first a warm-up) and the server's CPU per request and rate are printed, medians of the rounds,
 * with each layer's rate against the bare route's. Where taskset exists, the server runs on CPU 0 and
 * this process on CPU 1, so the two do not share a core.
 *
 * Usage: node --import tsx bench/request-layers.ts
 */
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { LAYERS } from './lib/layers.js';

const pinned = spawnSync('taskset', ['-p', '-c', '1', String(process.pid)], { stdio: 'ignore' }).status === 0;
const args = ['--import', 'tsx', 'bench/lib/layers-server.ts'];
const child = pinned ? spawn('taskset', ['-c', '0', process.execPath, ...args], { stdio: ['ignore', 'pipe', 'inherit'] }) : spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
const urls = await new Promise<Record<string, string>>((resolve) => {
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.startsWith('READY ')) resolve(JSON.parse(line.slice(6)) as Record<string, string>);
  });
});
const cpuMicros = async () => {
  const c = (await (await fetch(`${urls.bare}/cpu`)).json()) as { user: number; system: number };
  return c.user + c.system;
};
const ROUNDS = 6;
const figures = new Map<string, { us: number[]; rps: number[] }>();
for (let round = 0; round < ROUNDS; round++) {
  for (const [name] of LAYERS) {
    const c0 = await cpuMicros();
    const r = await autocannon({ url: `${urls[name]}/layer?player_id=P0123456789ABCDEFGHJKMNPQRS`, connections: 20, duration: 2 });
    const c1 = await cpuMicros();
    if (r.non2xx || r.errors) throw new Error(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    if (round === 0) continue;
    const f = figures.get(name) ?? { us: [], rps: [] };
    f.us.push((c1 - c0) / r.requests.total);
    f.rps.push(r.requests.average);
    figures.set(name, f);
  }
}
child.kill();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`request path layers, each added to the one before; server ${pinned ? 'on CPU 0, load on CPU 1' : 'not pinned (no taskset)'}; medians of ${ROUNDS - 1} rounds of 2 s`);
const bare = median(figures.get('bare')!.rps);
for (const [name, label] of LAYERS) {
  const f = figures.get(name)!;
  console.log(`${label.padEnd(62)} ${median(f.us).toFixed(1).padStart(5)} µs CPU/request ${median(f.rps).toFixed(0).padStart(7)} req/s  ${(median(f.rps) / bare).toFixed(2)} of bare`);
}
