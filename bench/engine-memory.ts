/**
 * What one analysis worker holds, by step, on the demo world (issue 30's memory): its V8 heap after a
 * full collection once it has deserialised the package (the world rows and the model bundle), built
 * the snapshot, let the rows go, built the feature index and recommend's pools, warmed its clubs (the
 * half of the clubs engine.warm gives worker 0 of 2) and served ROI, impact and recommend tasks (with
 * the thread's CPU time per step, and a hash of every answer: a change meant to save memory must not
 * move it); then what the recommendation caches and each snapshot field still held hold alone. One
 * worker thread (bench/lib/engine-memory-worker.ts) runs the very functions of engine/worker.ts, with
 * the pool's young generation unless told; a pool of 2 holds about twice this, plus the shared
 * package once.
 *
 * Usage: node --import tsx bench/engine-memory.ts [--tasks 200] [--young MB|v8]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { Piscina } from 'piscina';
import { pack } from '../src/engine/package.js';
import { hashKey, WORKER_YOUNG_MB } from '../src/engine/pool.js';
import type measure from './lib/engine-memory-worker.js';
import type { MemoryReport } from './lib/engine-memory-worker.js';
import { startBenchServer } from './lib/serve.js';

const { values } = parseArgs({ options: { tasks: { type: 'string', default: '200' }, young: { type: 'string' } } });
const TASKS = Number(values.tasks);
/** piscina's resourceLimits.maxYoungGenerationSizeMb for the worker: the pool's by default, 'v8' for V8's own */
const YOUNG = values.young === 'v8' ? undefined : values.young === undefined ? WORKER_YOUNG_MB : Number(values.young);
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');

const server = await startBenchServer({ ENGINE_WORKERS: '0' });
const snapshot = server.runtime.world.current();
const pkg = await pack(server.runtime.world.source(), server.runtime.models.current()!);
const clubs = [...snapshot.analysisClubsOfLeague.values()].flat().filter((c) => hashKey(c) % 2 === 0).sort();
await server.close();
console.log(`engine memory bench: demo world, package ${(pkg.bytes.byteLength / 2 ** 20).toFixed(1)} MB, young generation ${YOUNG === undefined ? 'V8 default' : `${YOUNG} MB`}, load average ${load()}`);
console.log('one worker after a full GC, MB: V8 heap used / committed + its ArrayBuffers (change of used)');

// a pool of one thread, as engine/pool.ts runs them (piscina loads the .ts file under tsx)
const pool = new Piscina<Parameters<typeof measure>[0], MemoryReport>({
  filename: new URL('./lib/engine-memory-worker.ts', import.meta.url).href,
  maxThreads: 1,
  resourceLimits: YOUNG === undefined ? {} : { maxYoungGenerationSizeMb: YOUNG },
});
const result = await pool.run({ pkg, clubs, tasks: TASKS });
let last = 0;
for (const m of result.steps) {
  console.log(`  ${m.step.padEnd(40)} ${m.used.toFixed(1).padStart(6)} / ${m.total.toFixed(1).padStart(6)} + ${m.buffers.toFixed(1).padStart(5)}  (${m.used - last >= 0 ? '+' : ''}${(m.used - last).toFixed(1)})  ${m.extra}`);
  last = m.used;
}
console.log(`sha256 of the ${result.count} answers (JSON): ${result.answers}`);
for (const c of result.caches) console.log(`heap freed by emptying the ${c.what}: ${c.freed.toFixed(1)} MB`);
console.log('heap each snapshot field holds alone (freed by emptying it, in this order, MB):');
for (const f of result.fields) console.log(`  ${f.field.padEnd(24)} ${f.freed.toFixed(1).padStart(6)}`);
await pool.close();
console.log(`load average at the end ${load()}`);
