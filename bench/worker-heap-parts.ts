/**
 * What one analysis worker's heap holds, part by part: a worker thread unpacks the package of the
 * world in `--data-dir` (or the demo world) as the engine's workers do, then lets go of each part in
 * turn (the kept memo tables, each model, each field of the snapshot), a full collection after each,
 * and prints the heap each freed. Parts under 0.05 MB are left out. The clubs are not warmed: their
 * baselines and match days are outside the heap, and bench/pool-memory.ts reports them.
 *
 * Usage: node --import tsx bench/worker-heap-parts.ts [--data-dir DIR]
 *   (DIR: a data folder after `touchline import`; set TOUCHLINE_AS_OF as the import had it)
 */
import { parseArgs } from 'node:util';
import { Piscina } from 'piscina';
import type { EnginePackage } from '../src/engine/package.js';
import { packWorld, WORKER_YOUNG_MB } from '../src/engine/pool.js';
import { workerModule } from '../src/threads.js';
import type { HeapParts } from './lib/worker-heap-parts.js';
import { startBenchServer } from './lib/serve.js';

const { values } = parseArgs({ options: { 'data-dir': { type: 'string' } } });
const server = await startBenchServer({ ENGINE_WORKERS: '0' }, values['data-dir']);
try {
  const world = { snapshot: server.runtime.world.current(), source: server.runtime.world.source(), bundle: server.runtime.models.current()! };
  const pkg = await packWorld(world);
  const worker = workerModule(import.meta.url, 'lib/worker-heap-parts');
  const pool = new Piscina<EnginePackage, HeapParts>({
    filename: worker.url.href, execArgv: worker.execArgv, maxThreads: 1, resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
  });
  const parts = await pool.run(pkg);
  await pool.close();
  console.log(`one worker's heap, part by part (${values['data-dir'] ? `the world in ${values['data-dir']}` : 'demo world'}; MB after a full collection):`);
  for (const [part, mb] of parts) if (Math.abs(mb) >= 0.05) console.log(`${mb.toFixed(1).padStart(7)}  ${part}`);
} finally {
  await server.close();
}
