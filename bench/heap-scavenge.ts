/**
 * Does a large heap alone make the request path dearer? The same bare Fastify route served by a
 * process holding nothing else and by one holding millions of live row-like objects
 * (bench/lib/ballast-server.ts, as our serving process holds its world), each under V8's
 * --trace-gc: after a warm-up, 4 windows of 2 s with 20 connections; prints per process the young
 * collections (scavenges) in the windows, their mean pause, and the server's CPU per request.
 * Where taskset exists the server runs on CPU 0 and this process on CPU 1.
 *
 * Usage: node --import tsx bench/heap-scavenge.ts [--ballast THOUSANDS]   (default 3000)
 */
import { spawn, spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const { values } = parseArgs({ options: { ballast: { type: 'string', default: '3000' } } });
const pinned = spawnSync('taskset', ['-p', '-c', '1', String(process.pid)], { stdio: 'ignore' }).status === 0;

async function measure(ballast: string): Promise<string> {
  const args = ['--trace-gc', '--import', 'tsx', 'bench/lib/ballast-server.ts'];
  const env = { ...process.env, BALLAST: ballast };
  const child = pinned ? spawn('taskset', ['-c', '0', process.execPath, ...args], { stdio: ['ignore', 'pipe', 'inherit'], env }) : spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env });
  let out = '';
  const url = await new Promise<string>((resolve) => child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    const m = /READY (\S+)/.exec(out);
    if (m) resolve(m[1]);
  }));
  const cpu = async () => {
    const c = (await (await fetch(`${url}/cpu`)).json()) as { user: number; system: number };
    return c.user + c.system;
  };
  await autocannon({ url: `${url}/bare`, connections: 20, duration: 3 });
  const from = out.length;
  const c0 = await cpu();
  let requests = 0;
  for (let i = 0; i < 4; i++) requests += (await autocannon({ url: `${url}/bare`, connections: 20, duration: 2 })).requests.total;
  const us = (await cpu()) - c0;
  child.kill();
  const pauses = [...out.slice(from).matchAll(/Scavenge[^,]*, ([0-9.]+) \/ [0-9.]+ ms/g)].map((m) => Number(m[1]));
  const total = pauses.reduce((a, b) => a + b, 0);
  const heap = /-> ([0-9.]+) \(/.exec(out.slice(from))?.[1] ?? '?';
  return `ballast ${ballast.padStart(5)} thousand objects (heap ${heap} MB): ${pauses.length} scavenges, mean pause ${(total / Math.max(1, pauses.length)).toFixed(2)} ms, ` +
    `${((total * 1000) / requests).toFixed(2)} µs of scavenge per request; server CPU ${(us / requests).toFixed(1)} µs per request`;
}

console.log(`bare Fastify route, 8 s of load after a 3 s warm-up; server ${pinned ? 'on CPU 0, load on CPU 1' : 'not pinned (no taskset)'}`);
for (let round = 0; round < 2; round++) {
  for (const b of ['0', values.ballast]) console.log(await measure(b));
}
