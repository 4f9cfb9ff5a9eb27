/**
 * Where a GET /v1/player_info request spends the server's time, beside the bare Fastify route with
 * the same body: the bench server (bench/lib/engine-server.ts, compiled as `npm start` runs the app)
 * runs in a child process under `--cpu-prof`, autocannon loads each route for 6 s (20 connections),
 * and the profile's samples of each window are summed by category (socket write, node core, GC,
 * Fastify, src/http, src/access, zod, ...), by inclusive time of our own and Fastify's frames, and by
 * self time per frame, in microseconds per request.
 * docs/engine.md quotes it.
 *
 * Usage: node --import tsx bench/request-profile.ts
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { compiledServer } from './lib/engine-process.js';

interface CallFrame { functionName: string; url: string; lineNumber: number }
interface ProfileNode { id: number; callFrame: CallFrame; children?: number[] }
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number }

const SECONDS = 6;
const dir = mkdtempSync(join(tmpdir(), 'touchline-request-profile-'));
const script = await compiledServer();
const child = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval', '100', script], {
  stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ENGINE_WORKERS: '0' },
});
let out = '';
const ready = await new Promise<{ url: string; bareUrl: string; key: string; players: string[] }>((resolve) => {
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    const m = /READY (.*)\n/.exec(out);
    if (m) resolve(JSON.parse(m[1]) as never);
  });
});
const id = ready.players[5];
const rate: Record<string, number> = {};
// ours first, then bare; the windows are found from the profile's end
for (const which of ['ours', 'bare'] as const) {
  const url = which === 'bare' ? `${ready.bareUrl}/bare?player_id=${id}` : `${ready.url}/v1/player_info?player_id=${id}`;
  const r = await autocannon({ url, connections: 20, duration: SECONDS, headers: { 'x-api-key': ready.key } });
  rate[which] = r.requests.average;
  await new Promise((resolve) => setTimeout(resolve, 1000));
}
child.kill('SIGTERM');
await new Promise((resolve) => child.on('exit', resolve));

// the main thread's profile is the largest file
const file = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).map((f) => ({ f, n: readFileSync(join(dir, f)).length })).sort((a, b) => b.n - a.n)[0].f;
const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile;
rmSync(dir, { recursive: true, force: true });
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const times: number[] = [];
let t = profile.startTime;
for (const d of profile.timeDeltas) times.push((t += d));
const end = times[times.length - 1];
// each window leaves half a second at both edges out; 1 s pauses separate them
const span = (SECONDS - 0.5) * 1e6;
const windows = { ours: [end - 2 * (SECONDS + 1) * 1e6 + 0.5e6, end - 2 * (SECONDS + 1) * 1e6 + 0.5e6 + span], bare: [end - (SECONDS + 1) * 1e6 + 0.5e6, end - (SECONDS + 1) * 1e6 + 0.5e6 + span] };

const frameName = (cf: CallFrame) => `${cf.functionName || '(anonymous)'} ${cf.url.replace(/^.*\/(src|build|node_modules)\//, '$1/')}:${cf.lineNumber + 1}`;

function category(c: CallFrame): string {
  if (c.functionName === '(garbage collector)') return 'gc';
  if (c.functionName === '(idle)') return 'idle';
  if (c.functionName === 'writev' || c.functionName === 'writevGeneric') return 'socket write';
  // compiled, our code runs from build/ (src/ through tsx)
  if (/\/(src|build)\/http\//.test(c.url)) return 'src/http';
  if (/\/(src|build)\/access\//.test(c.url)) return 'src/access';
  if (/\/(src|build)\//.test(c.url) && !c.url.includes('node_modules')) return 'src (other)';
  if (c.url.includes('node_modules/fastify/')) return 'fastify';
  if (c.url.includes('node_modules/find-my-way')) return 'router';
  if (c.url.includes('node_modules/zod')) return 'zod';
  if (c.url.includes('node_modules/')) return 'other packages';
  if (c.url.includes('crypto')) return 'crypto';
  if (c.url.startsWith('node:')) return 'node core';
  return 'other';
}
const us = (samples: number, total: number, w: 'ours' | 'bare') => ((samples / total) * (span / 1e6) * 1e6 / (rate[w] * (span / 1e6))).toFixed(2);
for (const w of ['ours', 'bare'] as const) {
  const [a, b] = windows[w];
  const cats = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((s, i) => {
    if (times[i] < a || times[i] > b) return;
    total++;
    const leaf = byId.get(s)!.callFrame;
    const k = category(leaf);
    self.set(frameName(leaf), (self.get(frameName(leaf)) ?? 0) + 1);
    cats.set(k, (cats.get(k) ?? 0) + 1);
    const seen = new Set<string>();
    for (let n: number | undefined = s; n !== undefined; n = parent.get(n)) {
      const cf = byId.get(n)!.callFrame;
      if (!/\/(src|build)\//.test(cf.url) && !cf.url.includes('fastify/lib')) continue;
      const name = frameName(cf);
      if (!seen.has(name)) {
        seen.add(name);
        inclusive.set(name, (inclusive.get(name) ?? 0) + 1);
      }
    }
  });
  console.log(`\n${w === 'ours' ? 'GET /v1/player_info' : 'bare Fastify route, same body'}: ${rate[w].toFixed(0)} req/s; server time per request by category, µs`);
  for (const [k, n] of [...cats].sort((x, y) => y[1] - x[1])) console.log(`${us(n, total, w).padStart(8)}  ${k}`);
  console.log('inclusive, our and Fastify\'s frames (top 15), µs');
  for (const [k, n] of [...inclusive].sort((x, y) => y[1] - x[1]).slice(0, 15)) console.log(`${us(n, total, w).padStart(8)}  ${k}`);
  console.log('self time per frame (top 25), µs');
  for (const [k, n] of [...self].sort((x, y) => y[1] - x[1]).slice(0, 25)) console.log(`${us(n, total, w).padStart(8)}  ${k}`);
}
