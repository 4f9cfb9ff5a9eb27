/**
 * The worker side of bench/engine-memory.ts: the steps of engine/worker.ts's modelsOf and warming,
 * one at a time, with the V8 heap measured after a full collection between them, then the tasks a
 * worker serves (runTask, the worker's own function), then what the caches and each snapshot field
 * hold alone.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { memoTable } from '../../src/domain/memo.js';
import { POSITION_CODES } from '../../src/domain/positions.js';
import { createRng } from '../../src/domain/random.js';
import type { Snapshot } from '../../src/domain/snapshot.js';
import { snapshotOf } from '../../src/domain/snapshot-source.js';
import { unpackSource, type EnginePackage } from '../../src/engine/package.js';
import { ROIS_KEPT, runTask, warmClubOf, type EngineModels, type Task } from '../../src/engine/tasks.js';
import { releaseUnread, UNREAD_BY_TASKS } from '../../src/engine/worker.js';
import { featureIndex } from '../../src/valuation/features/index.js';
import { keptBaselines } from '../../src/valuation/impact/baseline-runs.js';
import { keptMatchDays } from '../../src/valuation/league/match-days.js';
import { positionPools, SCREENS_KEPT } from '../../src/valuation/recommend/index.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

export interface MemoryStep { step: string; used: number; total: number; buffers: number; extra: string }
export interface MemoryReport {
  steps: MemoryStep[];
  /** sha256 of every task's answer (JSON), and how many */
  answers: string;
  count: number;
  caches: { what: string; freed: number }[];
  fields: { field: string; freed: number }[];
}

function heap(): { used: number; total: number; buffers: number } {
  // twice: weak maps' entries (memo.ts) need a second pass
  gc();
  gc();
  const h = getHeapStatistics();
  // this thread's ArrayBuffers (typed arrays' backing stores live outside the V8 heap)
  return { used: h.used_heap_size / 2 ** 20, total: h.total_heap_size / 2 ** 20, buffers: process.memoryUsage().arrayBuffers / 2 ** 20 };
}

/** CPU seconds of this thread (utime + stime of /proc/thread-self; ticks of 1/100 s). */
function cpu(): number {
  const f = readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

/** In a function of its own: a local holding the old value through the measurement would keep it alive. */
function empty(snapshot: Snapshot, f: keyof Snapshot): void {
  const v = snapshot[f];
  (snapshot as unknown as Record<string, unknown>)[f] = v instanceof Map ? new Map() : Array.isArray(v) ? [] : v;
}

export default function measure({ pkg, clubs, tasks }: { pkg: EnginePackage; clubs: string[]; tasks: number }): MemoryReport {
  const out: MemoryReport = { steps: [], answers: '', count: 0, caches: [], fields: [] };
  const report = (step: string, extra = '') => out.steps.push({ step, ...heap(), extra });
  let c0 = cpu();
  const took = () => {
    const c = cpu();
    const s = `${(c - c0).toFixed(2)} s CPU`;
    c0 = c;
    return s;
  };

  report('worker started, modules loaded');
  {
    // the rows and the models, then the models alone
    took();
    let whole: ReturnType<typeof unpackSource> | null = unpackSource(pkg);
    const t = took();
    const bundleOnly = whole.bundle;
    report('deserialized: world rows + model bundle', t);
    whole = null;
    report('of which the model bundle alone', `(${Object.keys(bundleOnly).length} keys)`);
  }
  let packed: ReturnType<typeof unpackSource> | null = unpackSource(pkg);
  const bundle = packed.bundle;
  took();
  const snapshot: Snapshot = snapshotOf(packed.source);
  report('snapshotOf built, rows still held', took());
  packed = null;
  report('rows let go: snapshot + bundle');
  took();
  featureIndex(snapshot);
  report('featureIndex', took());
  if (bundle.impact) positionPools(bundle.impact, snapshot);
  report('positionPools', took());
  releaseUnread(snapshot);
  report('releaseUnread', UNREAD_BY_TASKS.join(', '));
  const models: EngineModels = { snapshot, bundle, rois: new Map() };
  took();
  for (const club of clubs) warmClubOf(models, club);
  report(`warmed its ${clubs.length} clubs`, took());

  // what a worker serves: ROI and impact on fresh pairs of its clubs, then recommendations, twice
  const players = [...snapshot.players.values()].filter((p) => p.analysis_available).map((p) => p.id).sort();
  const rng = createRng(20260701);
  const kept = () => `baselines ${(keptBaselines().bytes / 2 ** 20).toFixed(1)} MB, match days ${(keptMatchDays().bytes / 2 ** 20).toFixed(1)} MB, ${models.rois.size} ROI results kept`;
  // every answer hashed, so a change meant to save memory shows that it changed no answer
  const answers = createHash('sha256');
  const answer = (task: Task) => {
    const r = runTask(models, task);
    answers.update(JSON.stringify(r));
    out.count++;
    return r;
  };
  for (let round = 1; round <= 2; round++) {
    let refused = 0;
    took();
    for (let i = 0; i < tasks; i++) {
      const clubId = clubs[rng.int(0, clubs.length - 1)];
      const playerId = players[rng.int(0, players.length - 1)];
      const task: Task = i % 2 === 0 ? { kind: 'roi', playerId, clubId, feeEur: null, annualWageEur: null } : { kind: 'impact', playerId, clubId };
      if (!answer(task).ok) refused++;
    }
    report(`${round === 1 ? '' : 'again '}${tasks} ROI + impact, fresh pairs`, `${took()}, ${refused} refused; ${kept()}`);
    const recommendations = Math.ceil(tasks / 10);
    for (let i = 0; i < recommendations; i++) {
      answer({
        kind: 'recommend', clubId: clubs[rng.int(0, clubs.length - 1)], position: POSITION_CODES[rng.int(0, POSITION_CODES.length - 1)], maxFee: null, maxAge: null,
        competitions: null, limit: 10, coveredClubs: null, annualWageEur: null, minPlayingTimePercentage: 0, sort: 'net_value_created',
      });
    }
    report(`${round === 1 ? '' : 'again '}${recommendations} recommend, new club+position`, `${took()}; ${kept()}`);
  }
  out.answers = answers.digest('hex').slice(0, 16);

  // what the per-worker caches of recommendations hold: the exact ROI results and the clubs' screens
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

  // what each snapshot field still held holds that nothing else does (the feature index and the pools
  // hold some rows too): the heap freed by emptying it, in this order
  const fields: (keyof Snapshot)[] = ['appearances', 'transfersOfPlayer', 'careers', 'ratings', 'externalRatings', 'contracts', 'players', 'roles'];
  before = heap().used;
  for (const f of fields) {
    empty(snapshot, f);
    after = heap().used;
    out.fields.push({ field: f, freed: before - after });
    before = after;
  }
  return out;
}
