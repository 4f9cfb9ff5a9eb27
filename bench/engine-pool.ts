/**
 * What the worker pool costs, on the demo world (or a world imported into `--data-dir`, e.g. the real data): packing the world and models into the shared
 * buffer (main thread, in slices, once per world; with the longest pause of the event loop it
 * caused), warming the workers (unpack, build the snapshot and indexes; then their clubs' simulation
 * baselines, between tasks), the memory the pool adds once the workers are really warm (the process
 * idle again) and once they have served analyses, and the round trip of a task that does almost
 * nothing (a refusal: unknown club).
 *
 * Usage: node --import tsx bench/engine-pool.ts [--tasks 500] [--served 200] [--workers 2] [--data-dir DIR]
 *   (DIR: a data folder after `touchline import`; set TOUCHLINE_AS_OF as the import had it)
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Piscina } from 'piscina';
import { POSITION_CODES } from '../src/domain/positions.js';
import { createRng } from '../src/domain/random.js';
import { inPlaceBytes, type EnginePackage } from '../src/engine/package.js';
import { AnalysisEngine, packWorld, WORKER_YOUNG_MB } from '../src/engine/pool.js';
import { collectFully, workerModule } from '../src/threads.js';
import type { WorkerHeap } from './lib/worker-heap.js';
import type { Task } from '../src/engine/tasks.js';
import { startBenchServer } from './lib/serve.js';

const { values } = parseArgs({
  options: { tasks: { type: 'string', default: '500' }, served: { type: 'string', default: '200' }, workers: { type: 'string', default: '2' }, 'data-dir': { type: 'string' } },
});
const TASKS = Number(values.tasks);
const SERVED = Number(values.served);
const WORKERS = Number(values.workers);
const status = () => readFileSync('/proc/self/status', 'utf8');
const mb = (field: 'VmRSS' | 'VmHWM') => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status())![1]) / 1024;
/** resident memory after a full collection of the main thread: its garbage (the start's) would move the baseline by 100-300 MB */
const rss = () => {
  collectFully();
  return mb('VmRSS');
};
/** CPU seconds of the whole process (every thread): utime + stime, ticks of 1/100 s */
const cpu = () => {
  const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');

console.log(`engine pool bench: ${values['data-dir'] ? `the world in ${values['data-dir']}` : 'demo world'}, ${WORKERS} workers, load average ${load()}`);
const server = await startBenchServer({ ENGINE_WORKERS: '0' }, values['data-dir']);
const world = { snapshot: server.runtime.world.current(), source: server.runtime.world.source(), bundle: server.runtime.models.current()! };

const loop = monitorEventLoopDelay({ resolution: 1 });
loop.enable();
let t0 = performance.now();
const packed = await packWorld(world);
loop.disable();
console.log(`pack (v8.serialize of the world rows and the model bundle, ${packed.parts.length} slices, into a SharedArrayBuffer): ` +
  `${(performance.now() - t0).toFixed(0)} ms, ${(packed.bytes.byteLength / 2 ** 20).toFixed(1)} MB; longest event-loop pause while packing ${(loop.max / 1e6).toFixed(1)} ms`);
const sharedMb = inPlaceBytes(packed) / 2 ** 20;
console.log(`  of which ${packed.arrays.length} typed arrays, ${sharedMb.toFixed(1)} MB, every worker reads in place; the rest each worker unpacks into its own heap`);
{
  const heapWorker = workerModule(import.meta.url, 'lib/worker-heap');
  const pool = new Piscina<EnginePackage, WorkerHeap>({
    filename: heapWorker.url.href, execArgv: heapWorker.execArgv, maxThreads: 1, resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
  });
  const heap = await pool.run(packed);
  await pool.close();
  console.log(`one worker's heap, its clubs not yet warm: ${heap.unpacked.toFixed(0)} MB used once unpacked and indexed, ${heap.used.toFixed(0)} MB after a full collection (${heap.reserved.toFixed(0)} MB reserved)`);
}

// the engine packs its own (this bench's package is in the baseline: the pool's is counted once)
const before = rss();
const engine = new AnalysisEngine({ workers: WORKERS, maxQueue: 1_000 });
t0 = performance.now();
await engine.warm(world);
console.log(`warming ${WORKERS} new workers, until they hold the world (start, unpack, build the snapshot and indexes): ${(performance.now() - t0).toFixed(0)} ms`);
const unpacked = mb('VmRSS');
// their clubs' baselines follow between tasks, in the workers; warm when the process is idle again
// (less than 0.05 s of CPU in a second, twice in a row)
let idle = 0;
while (idle < 2) {
  const c = cpu();
  await new Promise((r) => setTimeout(r, 1_000));
  idle = cpu() - c < 0.05 ? idle + 1 : 0;
}
console.log(`... and until they have built their clubs' simulation baselines (the process idle again): ${(performance.now() - t0).toFixed(0)} ms`);
const warmed = rss();
console.log(`resident memory: ${before.toFixed(0)} MB before the pool, ${unpacked.toFixed(0)} MB once ${WORKERS} workers hold the world (+${(unpacked - before).toFixed(0)} MB), ` +
  `${warmed.toFixed(0)} MB once they have warmed their clubs too (+${(warmed - before).toFixed(0)} MB, ${((warmed - before) / WORKERS).toFixed(0)} MB a worker)`);

// what they serve: ROI and impact on fresh pairs, and a recommendation every tenth task
const snapshot = world.snapshot;
const players = [...snapshot.players.values()].filter((p) => p.analysis_available).map((p) => p.id).sort();
const clubs = [...snapshot.analysisClubsOfLeague.values()].flat().sort();
const rng = createRng(20260702);
const served: Task[] = Array.from({ length: SERVED }, (_, i): Task => {
  const clubId = clubs[rng.int(0, clubs.length - 1)];
  const playerId = players[rng.int(0, players.length - 1)];
  if (i % 10 === 9) {
    return {
      kind: 'recommend', clubId, position: POSITION_CODES[rng.int(0, POSITION_CODES.length - 1)], maxFee: null, maxAge: null, competitions: null,
      limit: 10, coveredClubs: null, annualWageEur: null, minPlayingTimePercentage: 0, sort: 'net_value_created',
    };
  }
  return i % 2 === 0 ? { kind: 'roi', playerId, clubId, feeEur: null, annualWageEur: null } : { kind: 'impact', playerId, clubId };
});
t0 = performance.now();
for (let i = 0; i < served.length; i += 8) await Promise.all(served.slice(i, i + 8).map((task) => engine.run(world, task)));
const after = rss();
console.log(`after serving ${SERVED} analyses (ROI and impact on fresh pairs, every tenth a recommendation; 8 at a time, ${((performance.now() - t0) / 1000).toFixed(1)} s): ` +
  `resident ${after.toFixed(0)} MB (+${(after - before).toFixed(0)} MB over the pool's start), peak ${mb('VmHWM').toFixed(0)} MB`);

const refusal = { kind: 'impact' as const, playerId: 'P00000000000000000000000000', clubId: 'C00000000000000000000000000' };
t0 = performance.now();
for (let i = 0; i < TASKS; i++) await engine.run(world, refusal);
const serial = (performance.now() - t0) / TASKS;
t0 = performance.now();
await Promise.all(Array.from({ length: TASKS }, () => engine.run(world, refusal)));
const parallel = (performance.now() - t0) / TASKS;
console.log(`round trip of a near-empty task: ${serial.toFixed(3)} ms one at a time, ${parallel.toFixed(3)} ms each with ${TASKS} in flight (n=${TASKS})`);
console.log(`load average at the end ${load()}`);
await engine.close();
await server.close();
