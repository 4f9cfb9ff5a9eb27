/**
 * What the worker pool costs, on the demo world: packing the world and models into the shared
 * buffer (main thread, in slices, once per world; with the longest pause of the event loop it
 * caused), warming the workers (unpack, build the snapshot and indexes, build their clubs'
 * simulation baselines), the round trip of a task that does almost nothing (a refusal: unknown
 * club), and the memory the workers add.
 *
 * Usage: node --import tsx bench/engine-pool.ts [--tasks 500]
 */
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { pack } from '../src/engine/package.js';
import { AnalysisEngine } from '../src/engine/pool.js';
import { startBenchServer } from './lib/serve.js';

const { values } = parseArgs({ options: { tasks: { type: 'string', default: '500' } } });
const TASKS = Number(values.tasks);
const rssMb = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;

const server = await startBenchServer({ ENGINE_WORKERS: '0' });
const world = { snapshot: server.runtime.world.current(), source: server.runtime.world.source(), bundle: server.runtime.models.current()! };
const money = { code: 'EUR', rates: server.runtime.world.rates() };

const loop = monitorEventLoopDelay({ resolution: 1 });
loop.enable();
let t0 = performance.now();
const pkg = await pack(world.source, world.bundle);
loop.disable();
console.log(`pack (v8.serialize of the world rows and the model bundle, ${pkg.parts.length} slices, into a SharedArrayBuffer): ` +
  `${(performance.now() - t0).toFixed(0)} ms, ${(pkg.bytes.byteLength / 2 ** 20).toFixed(1)} MB; longest event-loop pause while packing ${(loop.max / 1e6).toFixed(1)} ms`);

const before = rssMb();
const engine = new AnalysisEngine({ workers: 2, maxQueue: 1_000 });
const refusal = { kind: 'impact' as const, money, playerId: 'P00000000000000000000000000', clubId: 'C00000000000000000000000000' };
t0 = performance.now();
await engine.warm(world);
console.log(`warming 2 new workers (start, unpack, build the snapshot and indexes; their clubs' simulation baselines follow between tasks): ${(performance.now() - t0).toFixed(0)} ms`);
console.log(`resident memory: ${before.toFixed(0)} MB before the pool, ${rssMb().toFixed(0)} MB with 2 warmed workers holding the world (+${(rssMb() - before).toFixed(0)} MB)`);

t0 = performance.now();
for (let i = 0; i < TASKS; i++) await engine.run(world, refusal);
const serial = (performance.now() - t0) / TASKS;
t0 = performance.now();
await Promise.all(Array.from({ length: TASKS }, () => engine.run(world, refusal)));
const parallel = (performance.now() - t0) / TASKS;
console.log(`round trip of a near-empty task: ${serial.toFixed(3)} ms one at a time, ${parallel.toFixed(3)} ms each with ${TASKS} in flight (n=${TASKS})`);
await engine.close();
await server.close();
