/**
 * What each analysis worker holds, as the workers tell it: a worker posts its V8 heap, the bytes of
 * its kept simulation state and the package whose clubs it has warmed on a BroadcastChannel of its
 * engine's (named in the worker's workerData) once it holds a world, once it has warmed its clubs,
 * and every REPORT_MS while it lives; the engine keeps the latest report of each (metrics:
 * touchline_engine_worker_memory_bytes) and waits on them for its clubs to be warm (readiness). A
 * report costs a few microseconds and never waits for a task, so a scrape does not queue behind
 * simulations.
 */
import { BroadcastChannel } from 'node:worker_threads';
import { getHeapStatistics } from 'node:v8';
import { keptBaselines } from '../valuation/impact/baseline-runs.js';
import { keptMatchDays } from '../valuation/league/match-days.js';

export interface WorkerMemory {
  /** V8 heap in use (the world's rows and maps, the models, the indexes), bytes */
  heapUsed: number;
  /** V8 heap reserved, bytes (resident once touched) */
  heapReserved: number;
  /** memory outside the heap the worker's objects hold (typed arrays' buffers; the shared package is not counted), bytes */
  external: number;
  /** kept season-simulation baselines of its clubs (impact/baseline-runs.ts), bytes */
  baselines: number;
  /** kept match days of its clubs' squads (league/match-days.ts), bytes */
  matchDays: number;
}

/** What a worker is told at its start (piscina's workerData). */
export interface WorkerData {
  /** the engine's channel for memory reports */
  memoryChannel: string;
  /** this worker's index in the engine */
  worker: number;
}

/** between two periodic reports of a worker, ms */
export const REPORT_MS = 10_000;

interface Report {
  worker: number;
  memory: WorkerMemory;
  /** the package whose clubs this worker has warmed, all of them; null before the first */
  warm: string | null;
}

export function memoryNow(): WorkerMemory {
  const heap = getHeapStatistics();
  return {
    heapUsed: heap.used_heap_size,
    heapReserved: heap.total_heap_size,
    external: heap.external_memory,
    baselines: keptBaselines().bytes,
    matchDays: keptMatchDays().bytes,
  };
}

/**
 * In a worker: reports now and every REPORT_MS; returns the function that reports at once (call it
 * after a change), given the package whose clubs are all warm once they are.
 */
export function startReporting(data: WorkerData): (warmed?: string) => void {
  const channel = new BroadcastChannel(data.memoryChannel);
  channel.unref();
  let warm: string | null = null;
  const report = (warmed?: string) => {
    if (warmed !== undefined) warm = warmed;
    channel.postMessage({ worker: data.worker, memory: memoryNow(), warm } satisfies Report);
  };
  setInterval(report, REPORT_MS).unref();
  report();
  return report;
}

/** In the engine: the latest report of each worker (null until it has sent one), and who waits for their clubs to be warm. */
export class WorkerReports {
  readonly channelName = `touchline-engine-memory-${process.pid}-${Math.random().toString(36).slice(2)}`;
  private readonly latest: (Report | null)[];
  private readonly channel: BroadcastChannel;
  private waiting: { key: string; resolve: () => void }[] = [];

  constructor(workers: number) {
    this.latest = Array.from({ length: workers }, () => null);
    this.channel = new BroadcastChannel(this.channelName);
    this.channel.unref();
    this.channel.onmessage = (event) => {
      const report = (event as { data: Report }).data;
      if (report.worker < 0 || report.worker >= this.latest.length) return;
      this.latest[report.worker] = report;
      const still = [];
      for (const w of this.waiting) {
        if (this.allWarm(w.key)) w.resolve();
        else still.push(w);
      }
      this.waiting = still;
      if (still.length === 0) this.channel.unref();
    };
  }

  get reports(): readonly (WorkerMemory | null)[] {
    return this.latest.map((r) => r?.memory ?? null);
  }

  private allWarm(key: string): boolean {
    return this.latest.every((r) => r?.warm === key);
  }

  /** Resolves once every worker has said it has warmed its clubs for package `key` (at once when they have; at close, whatever they said). */
  clubsWarm(key: string): Promise<void> {
    if (this.allWarm(key)) return Promise.resolve();
    // held while someone waits: the workers warm between tasks, idle to piscina, and nothing else may keep a process alive meanwhile (a test awaiting readiness)
    this.channel.ref();
    return new Promise((resolve) => this.waiting.push({ key, resolve }));
  }

  close(): void {
    this.channel.close();
    for (const w of this.waiting) w.resolve();
    this.waiting = [];
  }
}
