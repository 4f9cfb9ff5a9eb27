/**
 * The worker side of bench/engine-memory.ts: the steps of engine/worker.ts's modelsOf and warming,
 * one at a time, with the V8 heap measured after a full collection between them, then the tasks a
 * worker serves (runTask, the worker's own function), then what each snapshot field holds alone.
 */
import { createHash } from 'node:crypto';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { POSITION_CODES } from '../../src/domain/positions.js';
import { createRng } from '../../src/domain/random.js';
import type { Snapshot } from '../../src/domain/snapshot.js';
import { snapshotOf } from '../../src/domain/snapshot-source.js';
import { unpackSource, type EnginePackage } from '../../src/engine/package.js';
import { ROIS_KEPT, runTask, warmClubOf, type EngineModels, type Task } from '../../src/engine/tasks.js';
import { keptBaselines } from '../../src/valuation/impact/baseline-runs.js';
import { keptMatchDays } from '../../src/valuation/league/match-days.js';
import { releaseUnread, UNREAD_BY_TASKS } from '../../src/engine/worker.js';
import { featureIndex } from '../../src/valuation/features/index.js';
import { positionPools, SCREENS_KEPT } from '../../src/valuation/recommend/index.js';
import { memoTable } from '../../src/domain/memo.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

export interface MemoryStep { step: string; used: number; total: number; buffers: number; extra: string }
export interface MemoryReport { steps: MemoryStep[]; fields: { field: string; freed: number }[]; answers: string; count: number; caches: { what: string; freed: number }[] }

function heap(): { used: number; total: number; buffers: number } {
  // twice: weak maps' entries (memo.ts) need a second pass
  gc();
  gc();
  const h = getHeapStatistics();
  // this thread's ArrayBuffers (typed arrays' backing stores live outside the V8 heap)
  return { used: h.used_heap_size / 2 ** 20, total: h.total_heap_size / 2 ** 20, buffers: process.memoryUsage().arrayBuffers / 2 ** 20 };
}

export default function measure({ pkg, clubs, tasks }: { pkg: EnginePackage; clubs: string[]; tasks: number }): MemoryReport {
const out: MemoryReport = { steps: [], fields: [], answers: '', count: 0, caches: [] };
const report = (step: string, extra = '') => out.steps.push({ step, ...heap(), extra });

report('worker started, modules loaded');
{
  // the raw rows alone: the whole package, then with the rows let go
  let packed: ReturnType<typeof unpackSource> | null = unpackSource(pkg);
  report('deserialized: world rows + model bundle');
  const bundleOnly = packed.bundle;
  packed = null;
  report('of which the model bundle alone', `(${Object.keys(bundleOnly).length} keys)`);
}
let packed: ReturnType<typeof unpackSource> | null = unpackSource(pkg);
const bundle = packed.bundle;
const snapshot: Snapshot = snapshotOf(packed.source);
report('snapshotOf built, rows still held');
packed = null;
report('rows let go: snapshot + bundle');
let t0 = performance.now();
featureIndex(snapshot);
report('featureIndex', `${(performance.now() - t0).toFixed(0)} ms`);
t0 = performance.now();
if (bundle.impact) positionPools(bundle.impact, snapshot);
report('positionPools', `${(performance.now() - t0).toFixed(0)} ms`);
releaseUnread(snapshot);
report('releaseUnread', UNREAD_BY_TASKS.join(', '));
const models: EngineModels = { snapshot, bundle, rois: new Map() };
t0 = performance.now();
for (const club of clubs) warmClubOf(models, club);
report(`warmed its ${clubs.length} clubs`, `${(performance.now() - t0).toFixed(0)} ms`);

// what a worker serves: ROI and impact on fresh pairs of its clubs, then recommendations, twice
const players = [...snapshot.players.values()].filter((p) => p.analysis_available).map((p) => p.id).sort();
const rng = createRng(20260701);
const kept = () => `baselines ${(keptBaselines().bytes / 2 ** 20).toFixed(1)} MB, match days ${(keptMatchDays().bytes / 2 ** 20).toFixed(1)} MB, ${models.rois.size} ROI results kept`;
// every answer hashed, so a change that should only save memory shows it changed no answer
const answers = createHash('sha256');
const answer = (task: Task) => {
  const r = runTask(models, task);
  answers.update(JSON.stringify(r));
  out.count++;
  return r;
};
for (let round = 1; round <= 2; round++) {
  let refused = 0;
  t0 = performance.now();
  for (let i = 0; i < tasks; i++) {
    const clubId = clubs[rng.int(0, clubs.length - 1)];
    const playerId = players[rng.int(0, players.length - 1)];
    const task: Task = i % 2 === 0 ? { kind: 'roi', playerId, clubId, feeEur: null, annualWageEur: null } : { kind: 'impact', playerId, clubId };
    if (!answer(task).ok) refused++;
  }
  report(`${round === 1 ? '' : 'again '}${tasks} ROI + impact, fresh pairs`, `${((performance.now() - t0) / 1000).toFixed(1)} s, ${refused} refused; ${kept()}`);
  t0 = performance.now();
  for (let i = 0; i < tasks / 10; i++) {
    const task: Task = {
      kind: 'recommend', clubId: clubs[rng.int(0, clubs.length - 1)], position: POSITION_CODES[rng.int(0, POSITION_CODES.length - 1)], maxFee: null, maxAge: null,
      competitions: null, limit: 10, coveredClubs: null, annualWageEur: null, minPlayingTimePercentage: 0, sort: 'net_value_created',
    };
    if (!answer(task).ok) refused++;
  }
  report(`${round === 1 ? '' : 'again '}${tasks / 10} recommend, new club+position`, `${((performance.now() - t0) / 1000).toFixed(1)} s; ${kept()}`);
}

out.answers = answers.digest('hex').slice(0, 16);

// what the per-worker caches of recommendations hold: the exact ROI results and the clubs' screens
{
  let before = heap().used;
  const n = models.rois.size;
  models.rois.clear();
  let after = heap().used;
  out.caches.push({ what: `${n} kept ROI results (tasks.ts, at most ${ROIS_KEPT})`, freed: before - after });
  before = after;
  const screens = memoTable<unknown>(snapshot, 'recommend.screened');
  const m = screens.size;
  screens.clear();
  after = heap().used;
  out.caches.push({ what: `${m} kept screens (recommend, at most ${SCREENS_KEPT})`, freed: before - after });
}

/** In a function of its own: a local holding the old value in the loop would keep it alive through the measurement. */
function empty(snapshot: Snapshot, f: keyof Snapshot): void {
  const v = snapshot[f];
  (snapshot as unknown as Record<string, unknown>)[f] = v instanceof Map ? new Map() : Array.isArray(v) ? [] : v;
}

// what each snapshot field holds that nothing else does (the features and pools above hold some rows too):
// the heap freed by emptying it, in this order
const fields: (keyof Snapshot)[] = [
  'appearances', 'values', 'transfers', 'transfersOfPlayer', 'matches', 'careers', 'ratings', 'externalRatings', 'laterExternalRatings',
  'contracts', 'players', 'playerByRegistryA', 'playerByRegistryB', 'clubSeasons', 'attributes', 'roles',
];
let before = heap().used;
for (const f of fields.filter((x) => !(UNREAD_BY_TASKS as readonly string[]).includes(x))) {
  empty(snapshot, f);
  const after = heap().used;
  out.fields.push({ field: f, freed: before - after });
  before = after;
}
return out;
}
