/**
 * The entry of an analysis worker thread (piscina). It holds one package's snapshot and models,
 * unpacked when a task names a package it does not hold (the first task, then after a world swap),
 * and answers tasks with runTask, the same function the main thread would run.
 *
 * A 'warm' task names the clubs this worker serves; their simulation baselines and match days are
 * then built one club per turn of the worker's event loop, so a request arriving meanwhile waits for
 * at most one club (about 10 ms), never for the whole list (seconds on a busy machine). The pool runs
 * with piscina's atomics off, so the event loop turns between tasks.
 */
import { setFlagsFromString } from 'node:v8';
import { workerData } from 'node:worker_threads';
import { collectFully } from '../threads.js';
import type { Snapshot } from '../domain/snapshot.js';
import { featureIndex } from '../valuation/features/index.js';
import { positionPools } from '../valuation/recommend/index.js';
import { unpack, type EnginePackage } from './package.js';
import { engineModels, runTask, warmClubOf, type EngineModels, type Task, type TaskResult } from './tasks.js';
import { startReporting, type WorkerData } from './worker-reports.js';

export interface WorkerMessage {
  pkg: EnginePackage;
  task: Task;
}

let held: { key: string; models: EngineModels } | null = null;

/** reports what this worker holds to its engine (metrics); a worker started without an engine's workerData (benches) reports nothing */
const reportMemory: (warmed?: string) => void = (workerData as Partial<WorkerData> | null)?.memoryChannel ? startReporting(workerData as WorkerData) : () => undefined;

/**
 * Snapshot fields no task of a worker reads once the feature index is built: the rows only the
 * index's build reads (matches, club seasons, market values: tasks read values through the index),
 * the models' fits (transfers as a list, later external ratings) or other endpoints (registry ids,
 * attributes) read (docs/engine.md). transfersOfPlayer, appearances, contracts, careers and the rest stay.
 */
export const UNREAD_BY_TASKS = [
  'matches', 'clubSeasons', 'values', 'transfers', 'laterExternalRatings', 'playerByRegistryA', 'playerByRegistryB', 'attributes',
] as const satisfies readonly (keyof Snapshot)[];

/**
 * Lets the rows of UNREAD_BY_TASKS go: each field then throws when read, so a task that comes to
 * need one fails loudly (the engine tests compare every kind of task with the main thread's answer)
 * rather than answering from an empty table. Call it once the indexes that read them are built.
 */
export function releaseUnread(snapshot: Snapshot): void {
  for (const field of UNREAD_BY_TASKS) {
    Object.defineProperty(snapshot, field, {
      get() { throw new Error(`snapshot.${field} is not held in the analysis workers (engine/worker.ts)`); },
      enumerable: false,
    });
  }
}

function modelsOf(pkg: EnginePackage): EngineModels {
  if (held?.key === pkg.key) return held.models;
  held = null; // let the previous world go before the next is built
  const { snapshot, bundle } = unpack(pkg);
  // what ModelState warms on the main thread, paid once here rather than by the first request that needs it
  featureIndex(snapshot);
  if (bundle.impact) positionPools(bundle.impact, snapshot);
  releaseUnread(snapshot);
  held = { key: pkg.key, models: engineModels(snapshot, bundle) };
  reportMemory();
  return held.models;
}

/**
 * A full, compacting collection, once a world is held and its clubs are warm: unpacking and warming
 * leave about 30 MB of garbage a worker on the real data, which an idle worker otherwise keeps (V8's
 * memory reducer does not run in it), and with it the heap it reserved (docs/engine.md); once per
 * world. It compacts the old space (V8's flag for it, set for this one collection; flags are the
 * process's, so a collection of another thread meanwhile compacts too): without it a worker on the
 * real data kept about 10 MB more heap reserved in half-empty pages (bench/pool-memory.ts).
 */
function collectGarbage(): void {
  setFlagsFromString('--compact-on-every-full-gc');
  try {
    collectFully();
  } finally {
    setFlagsFromString('--no-compact-on-every-full-gc');
  }
}

/** Warms the clubs one per turn while the package is the one held (a newer world stops it). */
function warmInTurns(key: string, clubs: readonly string[]): void {
  let next = 0;
  const step = () => {
    if (held?.key !== key) return;
    if (next >= clubs.length) {
      collectGarbage();
      return reportMemory(key);
    }
    warmClubOf(held.models, clubs[next++]);
    setImmediate(step);
  };
  setImmediate(step);
}

export default function work(msg: WorkerMessage): TaskResult {
  const models = modelsOf(msg.pkg);
  if (msg.task.kind === 'warm') warmInTurns(msg.pkg.key, msg.task.clubs ?? []);
  return runTask(models, msg.task);
}
