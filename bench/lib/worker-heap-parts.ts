/**
 * A worker thread that unpacks a package as an analysis worker does (engine/worker.ts, its clubs not
 * warmed) and then lets go of one part at a time, a full collection after each: the heap each part
 * held (bench/worker-heap-parts.ts). A part's figure is what it alone held once the parts before it
 * are gone, so a row another part also points to is counted with the last of them.
 */
import { collectFully } from '../../src/threads.js';
import { getHeapStatistics } from 'node:v8';
import { memoTable } from '../../src/domain/memo.js';
import { unpack, type EnginePackage } from '../../src/engine/package.js';
import { releaseUnread } from '../../src/engine/worker.js';
import { featureIndex } from '../../src/valuation/features/index.js';
import { positionPools } from '../../src/valuation/recommend/index.js';

/** [part, MB of heap it held] in the order they were let go; the first is the thread before any world */
export type HeapParts = [string, number][];

/** memo tables of the snapshot's data that a worker fills before its first task */
const MEMOS = ['player-facts', 'future.marketLevel', 'future.freshLogs', 'features.index'];

export default function heapParts(pkg: EnginePackage): HeapParts {
  const used = () => {
    collectFully();
    return getHeapStatistics().used_heap_size / 2 ** 20;
  };
  const out: HeapParts = [];
  const bare = used();
  out.push(['the thread, our code loaded, no world', bare]);
  let last = bare;
  const gone = (part: string) => {
    const now = used();
    out.push([part, last - now]);
    last = now;
  };
  const { snapshot, bundle } = unpack(pkg);
  featureIndex(snapshot);
  if (bundle.impact) positionPools(bundle.impact, snapshot);
  releaseUnread(snapshot);
  const world = (last = used());
  out.push(['the world in all, once unpacked and indexed', world - bare]);
  const models = bundle as unknown as Record<string, unknown>;
  const rows = snapshot as unknown as Record<string, unknown>;
  for (const name of MEMOS) {
    memoTable(snapshot.dataIdentity, name).clear();
    gone(`kept ${name}`);
  }
  for (const k of Object.keys(models)) {
    models[k] = null;
    gone(`model ${k}`);
  }
  for (const k of Object.keys(rows)) {
    Object.defineProperty(rows, k, { value: null });
    gone(`snapshot.${k}`);
  }
  out.push(['left once every part is gone', last - bare]);
  return out;
}
