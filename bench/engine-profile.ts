/**
 * Where one analysis on a fresh (player, club) pair spends its CPU, on the demo world with the
 * models the server serves: the parts of get_roi_analysis timed one by one (expected fee, sportive
 * impact = 3 simulated seasons, future value), first with the clubs cold, then after warmClub has
 * built every club's simulation baselines and match days (what a worker does when it loads a world),
 * then a CPU profile (node's inspector) of whole ROI answers on the warmed clubs, summarised by
 * function self time. docs/engine.md quotes its output.
 *
 * Usage: node --import tsx bench/engine-profile.ts [--pairs 120]
 */
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import { futureValue } from '../src/valuation/answers.js';
import { roi, sportiveImpactOf } from '../src/valuation/analysis.js';
import { warmClub } from '../src/valuation/impact/index.js';
import { predictFee } from '../src/valuation/fee/index.js';
import { createRng } from '../src/domain/random.js';
import { startBenchServer } from './lib/serve.js';

const { values } = parseArgs({ options: { pairs: { type: 'string', default: '120' } } });
const PAIRS = Number(values.pairs);

const server = await startBenchServer({ ENGINE_WORKERS: '0' });
const snapshot = server.runtime.world.current();
const bundle = server.runtime.models.current()!;
const players = [...snapshot.players.values()].filter((p) => p.analysis_available).map((p) => p.id).sort();
const clubs = [...snapshot.analysisClubsOfLeague.values()].flat().sort();
const rng = createRng(5);
const seen = new Set<string>();
const fresh = (): { playerId: string; clubId: string } => {
  for (;;) {
    const q = { playerId: players[rng.int(0, players.length - 1)], clubId: clubs[rng.int(0, clubs.length - 1)] };
    if (!seen.has(`${q.playerId}|${q.clubId}`)) {
      seen.add(`${q.playerId}|${q.clubId}`);
      return q;
    }
  }
};

const cpuMs = (fn: () => unknown) => {
  const c0 = process.cpuUsage();
  fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// warm-up: JIT and the per-snapshot indexes, not reported
const roiOf = (q: { playerId: string; clubId: string }) => roi(bundle, snapshot, { ...q, feeEur: null, annualWageEur: null });
for (let i = 0; i < 20; i++) roiOf(fresh());

const measure = (label: string) => {
  const parts = { fee: [] as number[], impact: [] as number[], future: [] as number[], roi: [] as number[] };
  for (let i = 0; i < PAIRS; i++) {
    const q = fresh();
    parts.fee.push(cpuMs(() => predictFee(bundle.fee, snapshot, { playerId: q.playerId, targetClubId: q.clubId })));
    parts.impact.push(cpuMs(() => sportiveImpactOf(bundle, snapshot, q)));
    parts.future.push(cpuMs(() => futureValue(bundle, snapshot, { ...q, baselineValueEur: null })));
    parts.roi.push(cpuMs(() => roiOf(fresh())));
  }
  console.log(`CPU per call on fresh pairs, ${label} (n=${PAIRS}, median ms): ` +
    Object.entries(parts).map(([k, v]) => `${k} ${median(v).toFixed(2)}`).join(', '));
};
measure('clubs cold');
const warmMs = cpuMs(() => {
  for (const club of clubs) {
    try {
      warmClub(bundle.impact!, snapshot, club);
    } catch {
      // a club without a league: nothing to keep
    }
  }
});
console.log(`warmClub on all ${clubs.length} clubs (baselines and match days of the 3 seasons): ${warmMs.toFixed(0)} ms CPU`);
measure('clubs warmed');

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });
await session.post('Profiler.start');
for (let i = 0; i < PAIRS; i++) roiOf(fresh());
const { profile } = await session.post('Profiler.stop');
session.disconnect();

// self time per function: samples whose top frame is that function
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<string, number>();
const counts = new Map<number, number>();
for (const s of profile.samples ?? []) counts.set(s, (counts.get(s) ?? 0) + 1);
let total = 0;
for (const [id, n] of counts) {
  const f = byId.get(id)!.callFrame;
  const where = f.url ? `${f.url.replace(/^.*\/(src|node_modules)\//, '$1/')}:${f.lineNumber + 1}` : '';
  const name = `${f.functionName || '(anonymous)'} ${where}`.trim();
  self.set(name, (self.get(name) ?? 0) + n);
  total += n;
}
console.log(`\nCPU profile of ${PAIRS} ROI answers: self time by function (top 15 of ${self.size})`);
for (const [name, n] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 15)) {
  console.log(`${((100 * n) / total).toFixed(1).padStart(5)}%  ${name}`);
}
await server.close();
