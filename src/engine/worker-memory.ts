/**
 * What each analysis worker holds, as the workers tell it: a worker posts its V8 heap and the bytes
 * of its kept simulation state on a BroadcastChannel of its engine's (named in the worker's
 * workerData) once it holds a world, once it has warmed its clubs, and every REPORT_MS while it
 * lives; the engine keeps the latest report of each (metrics: touchline_engine_worker_memory_bytes).
 * A report costs a few microseconds and never waits for a task, so a scrape does not queue behind
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

/** In a worker: reports now and every REPORT_MS; returns the function that reports at once (call it after a change). */
export function startReporting(data: WorkerData): () => void {
  const channel = new BroadcastChannel(data.memoryChannel);
  channel.unref();
  const report = () => channel.postMessage({ worker: data.worker, memory: memoryNow() } satisfies Report);
  setInterval(report, REPORT_MS).unref();
  report();
  return report;
}

/** In the engine: the latest report of each worker (null until it has sent one). */
export class WorkerMemoryBoard {
  readonly channelName = `touchline-engine-memory-${process.pid}-${Math.random().toString(36).slice(2)}`;
  private readonly latest: (WorkerMemory | null)[];
  private readonly channel: BroadcastChannel;

  constructor(workers: number) {
    this.latest = Array.from({ length: workers }, () => null);
    this.channel = new BroadcastChannel(this.channelName);
    this.channel.unref();
    this.channel.onmessage = (event) => {
      const { worker, memory } = (event as { data: Report }).data;
      if (worker >= 0 && worker < this.latest.length) this.latest[worker] = memory;
    };
  }

  get reports(): readonly (WorkerMemory | null)[] {
    return this.latest;
  }

  close(): void {
    this.channel.close();
  }
}
