/**
 * A worker thread that loads a package as an analysis worker does (engine/worker.ts, a 'warm' task
 * naming no club) and reports its V8 heap: what one worker holds of the world, apart from the typed
 * arrays it reads in place. A piscina task, as the engine's workers are (bench/engine-pool.ts).
 */
import { collectFully } from '../../src/threads.js';
import { getHeapStatistics } from 'node:v8';
import type { EnginePackage } from '../../src/engine/package.js';
import work from '../../src/engine/worker.js';

export interface WorkerHeap {
  /** used heap, MB, right after the package is unpacked and indexed (before collecting its garbage) */
  unpacked: number;
  /** used and reserved heap, MB, after a full collection */
  used: number;
  reserved: number;
}

export default function workerHeap(pkg: EnginePackage): WorkerHeap {
  const mb = (bytes: number) => bytes / 2 ** 20;
  work({ pkg, task: { kind: 'warm' } });
  const unpacked = mb(getHeapStatistics().used_heap_size);
  collectFully();
  const after = getHeapStatistics();
  return { unpacked, used: mb(after.used_heap_size), reserved: mb(after.total_heap_size) };
}
