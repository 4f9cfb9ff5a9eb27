/**
 * The analysis engine: a pool of worker threads (piscina) that run the season simulations and the
 * recommendation screening, so the main thread only routes, checks access and presents.
 *
 * - Sized to the machine: ENGINE_WORKERS, default the cores available, at most 4.
 * - Shared world: each task carries the package of the snapshot and models in force (package.ts),
 *   a SharedArrayBuffer passed by reference; a worker unpacks a package once.
 * - Back-pressure: at most ENGINE_QUEUE tasks wait; past that `run` throws EngineBusyError at once
 *   (the routes answer 503 with Retry-After), never an unbounded queue.
 * - Graceful shutdown: `close` lets running and queued tasks finish, then stops the workers.
 * - ENGINE_WORKERS=0 runs tasks on the calling thread (tests compare the two): same function, same answers.
 */
import { availableParallelism } from 'node:os';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Piscina } from 'piscina';
import { workerModule } from '../threads.js';
import { hashString } from '../domain/hash.js';
import type { Snapshot } from '../domain/snapshot.js';
import type { SnapshotSource } from '../domain/snapshot-source.js';
import type { ModelBundle } from '../valuation/bundle.js';
import { featureColumnsOf, featureIndex } from '../valuation/features/index.js';
import { inPlaceBytes, pack, workerBundle, workerRows, type EnginePackage } from './package.js';
import { engineModels, runTask, type EngineModels, type Task, type TaskResult } from './tasks.js';
import type { WorkerMessage } from './worker.js';
import { WorkerReports, type WorkerData, type WorkerMemory } from './worker-reports.js';

export const DEFAULT_MAX_WORKERS = 4;
/**
 * Analysis threads run at a lower priority (nice +10, Linux per thread): on a busy machine the main
 * thread, which routes, checks keys and answers health checks, takes a core first and the
 * simulations use what is left, so a health check does not wait behind a simulation's time slice.
 */
export const WORKER_NICE = 10;
/** V8's young generation per worker thread, MB (see the constructor) */
export const WORKER_YOUNG_MB = 8;

export class EngineBusyError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('analysis queue is full');
    this.name = 'EngineBusyError';
  }
}

export interface EngineOptions {
  /** worker threads; 0 runs tasks in the calling thread */
  workers?: number;
  /** tasks that may wait for a worker */
  maxQueue: number;
  /** start the workers at once (default); false starts each on the first task that needs it */
  eager?: boolean;
}

/** Told when a task ends (metrics): its kind, its time in seconds, queue wait included, and whether it ran or was refused as busy. */
export type TaskListener = (kind: Task['kind'], seconds: number, outcome: 'done' | 'failed' | 'busy') => void;

/** What a task is computed on: the snapshot in force, the rows it was built from, the models in force. */
export interface EngineWorld {
  snapshot: Snapshot;
  source: SnapshotSource;
  bundle: ModelBundle;
}

/** The package of a world: its rows as the workers read them, its models, its feature index (each step in a turn of its own). */
export async function packWorld(world: EngineWorld): Promise<EnginePackage> {
  const features = featureColumnsOf(featureIndex(world.snapshot));
  await nextTurn();
  const rows = workerRows(world.snapshot, world.source);
  await nextTurn();
  return pack(rows, await workerBundle(world.bundle), features);
}

export function defaultWorkers(): number {
  return Math.max(1, Math.min(DEFAULT_MAX_WORKERS, availableParallelism()));
}

const worker = workerModule(import.meta.url, 'worker');

/** What a task is about: tasks about one club (or league) go to one worker, which keeps its simulations' baselines. */
function affinityKey(task: Task): string {
  switch (task.kind) {
    case 'warm': return '';
    case 'forecast': return task.league;
    case 'match': return task.homeClubId;
    default: return task.clubId;
  }
}

/** tasks more than the least busy worker before a club's task goes elsewhere */
const SPILL = 4;

export class AnalysisEngine {
  readonly workers: number;
  readonly maxQueue: number;
  /**
   * One single-thread pool per worker, so a task can be sent to the worker that holds what it
   * needs: the what-if baselines and kept match days of a club (valuation/impact/baseline-runs.ts,
   * league/match-days.ts) are per thread, and a club's analyses on one worker build them once and
   * keep them once. A busy worker's club goes elsewhere when another worker has SPILL fewer tasks.
   */
  private readonly pools: Piscina<WorkerMessage, TaskResult>[];
  private readonly inFlight: number[];
  private packed: { source: SnapshotSource; bundle: ModelBundle; pkg: Promise<EnginePackage>; ready: EnginePackage | null } | null = null;
  private inThread: { snapshot: Snapshot; bundle: ModelBundle; models: EngineModels } | null = null;
  private closing: Promise<void> | null = null;
  private readonly listeners = new Set<TaskListener>();
  private readonly memory: WorkerReports;

  constructor(opts: EngineOptions) {
    this.workers = opts.workers ?? defaultWorkers();
    this.maxQueue = opts.maxQueue;
    const memory = (this.memory = new WorkerReports(this.workers));
    this.pools = Array.from({ length: this.workers }, (_, w) => new Piscina<WorkerMessage, TaskResult>({
      filename: worker.url.href,
      workerData: { memoryChannel: memory.channelName, worker: w } satisfies WorkerData,
      execArgv: worker.execArgv,
      minThreads: opts.eager === false ? 0 : 1,
      maxThreads: 1,
      maxQueue: opts.maxQueue,
      idleTimeout: Number.POSITIVE_INFINITY,
      niceIncrement: WORKER_NICE,
      // the worker's event loop turns between tasks: it warms its clubs there (worker.ts)
      atomics: 'disabled',
      // a worker holds a world: it must not be recycled between tasks
      concurrentTasksPerWorker: 1,
      // V8's young generation defaults to 48 MB a thread, all of it resident once used; 8 MB did not
      // slow the simulations (bench/engine.ts; docs/engine.md)
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
    }));
    this.inFlight = this.pools.map(() => 0);
  }

  /** Tasks waiting for a worker now. */
  get queued(): number {
    return this.pools.reduce((a, p) => a + p.queueSize, 0);
  }

  /** Workers with a task now (ENGINE_WORKERS=0 runs each task whole on the calling thread: never seen busy). */
  get busyWorkers(): number {
    return this.inFlight.reduce((a, n) => a + (n > 0 ? 1 : 0), 0);
  }

  /** Bytes of the package in force (the world and models the workers share), and of the typed arrays in it they read in place; 0 before the first. */
  get packageBytes(): { total: number; inPlace: number } {
    const pkg = this.packed?.ready;
    if (!pkg) return { total: 0, inPlace: 0 };
    return { total: pkg.bytes.byteLength, inPlace: inPlaceBytes(pkg) };
  }

  /** What each worker last said it holds (worker-reports.ts); null for a worker that has not reported yet. */
  get workerMemory(): readonly (WorkerMemory | null)[] {
    return this.memory.reports;
  }

  /** Calls `listener` after each task; returns the function that stops it. */
  onTask(listener: TaskListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The package of this world; made once per source and models (serialised on this thread, in slices: package.ts). */
  private packageOf(world: EngineWorld): Promise<EnginePackage> {
    return this.packedFor(world).pkg;
  }

  private packedFor(world: EngineWorld): NonNullable<AnalysisEngine['packed']> {
    if (this.packed?.source !== world.source || this.packed.bundle !== world.bundle) {
      const entry: NonNullable<AnalysisEngine['packed']> = { source: world.source, bundle: world.bundle, pkg: packWorld(world), ready: null };
      void entry.pkg.then((pkg) => { entry.ready = pkg; }, () => undefined);
      this.packed = entry;
    }
    return this.packed;
  }

  /**
   * The worker for a task: its club's, unless that one has SPILL more tasks than the least busy (a
   * simulation on a worker without the club's baselines costs about what four with them cost).
   */
  private pick(task: Task): number {
    const preferred = hashString(affinityKey(task)) % this.pools.length;
    let least = preferred;
    for (let w = 0; w < this.pools.length; w++) if (this.inFlight[w] < this.inFlight[least]) least = w;
    return this.inFlight[preferred] >= this.inFlight[least] + SPILL ? least : preferred;
  }

  /** Runs a task on the world given; EngineBusyError when the queue is full. */
  async run(world: EngineWorld, task: Task): Promise<TaskResult> {
    if (this.listeners.size === 0) return this.runUntimed(world, task);
    const started = performance.now();
    let outcome: 'done' | 'failed' | 'busy' = 'failed';
    try {
      const result = await this.runUntimed(world, task);
      outcome = 'done';
      return result;
    } catch (err) {
      if (err instanceof EngineBusyError) outcome = 'busy';
      throw err;
    } finally {
      const seconds = (performance.now() - started) / 1000;
      for (const listener of this.listeners) listener(task.kind, seconds, outcome);
    }
  }

  private async runUntimed(world: EngineWorld, task: Task): Promise<TaskResult> {
    if (this.closing) throw new EngineBusyError(1);
    if (this.pools.length === 0) {
      if (this.inThread?.snapshot !== world.snapshot || this.inThread.bundle !== world.bundle) {
        this.inThread = { snapshot: world.snapshot, bundle: world.bundle, models: engineModels(world.snapshot, world.bundle) };
      }
      return runTask(this.inThread.models, task);
    }
    if (this.queued >= this.maxQueue) throw this.busy();
    const w = this.pick(task);
    this.inFlight[w]++;
    try {
      // handed to piscina at once when the package is ready, so a close() right after still lets it finish
      const ready = this.packedFor(world).ready;
      return await (ready ? this.pools[w].run({ pkg: ready, task }) : this.packageOf(world).then((pkg) => this.pools[w].run({ pkg, task })));
    } catch (err) {
      if (err instanceof Error && err.message === 'Task queue is at limit') throw this.busy();
      throw err;
    } finally {
      this.inFlight[w]--;
    }
  }

  /**
   * Packs this world and has every worker unpack it and build its clubs' simulation baselines, so
   * neither the first request after a start nor the first after a world swap pays for them (the
   * packing itself runs here, on the calling thread); resolves once every worker says its clubs are
   * warm (readiness waits for it).
   */
  async warm(world: EngineWorld): Promise<void> {
    if (this.pools.length === 0 || this.closing) return;
    const pkg = await this.packageOf(world);
    // each worker also builds what the analyses of its clubs share (the clubs pick() sends it)
    const clubs: string[][] = this.pools.map(() => []);
    for (const league of [...world.snapshot.analysisClubsOfLeague.values()]) {
      for (const club of league) clubs[hashString(club) % this.pools.length].push(club);
    }
    await Promise.all(this.pools.map((p, w) => p.run({ pkg, task: { kind: 'warm', clubs: clubs[w].sort() } })));
    // the clubs are warmed between tasks, after the warm task has answered: each worker says when it is done
    await this.memory.clubsWarm(pkg.key);
  }

  private busy(): EngineBusyError {
    // the queue drains at about one task per worker per simulation time; a second is the honest floor
    return new EngineBusyError(1);
  }

  /** Lets running and queued tasks finish, then stops the workers. */
  close(): Promise<void> {
    // a package being made is finished first: tasks waiting for it are handed out before the pools close
    const packing = this.packed?.pkg.catch(() => undefined) ?? Promise.resolve();
    this.closing ??= packing.then(() => Promise.all(this.pools.map((p) => p.close()))).then(() => this.memory.close());
    return this.closing;
  }
}
