/**
 * What the analysis pool costs in memory, measured as an operator sees it: `touchline serve` (compiled,
 * as `npm start` runs it) is started on a data folder once with ENGINE_WORKERS=0 (analyses on the main
 * thread, nothing warmed) and once with the workers asked for; each is left until GET /v1/ready answers
 * 200 and the process is idle (its workers have warmed their clubs), then its main thread is collected
 * (SIGUSR2 to a preload that calls gc(), so the start's garbage does not move the baseline) and its
 * resident memory read from /proc. The pool's cost is the difference; then what each worker says it
 * holds (touchline_engine_worker_memory_bytes, scraped from its metrics port).
 *
 * Usage: node --import tsx bench/pool-memory.ts --data-dir DIR [--workers 4] [--settle 30]
 *   (--settle: seconds left idle after that before the reading, in which V8's memory reducer gives back what warming left)
 *   (DIR: a data folder after `touchline import`; set TOUCHLINE_AS_OF as the import had it)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, http, sleep, startServerProcess, waitFor } from '../test/helpers/server-process.js';
import { cpuSeconds, memoryMb } from './lib/engine-process.js';

const { values } = parseArgs({ options: { 'data-dir': { type: 'string' }, workers: { type: 'string', default: '4' }, settle: { type: 'string', default: '30' } } });
if (!values['data-dir']) throw new Error('--data-dir DIR is required (a data folder after `touchline import`)');
const WORKERS = Number(values.workers);
if (!Number.isInteger(WORKERS) || WORKERS < 1 || WORKERS > 16) throw new Error('--workers must be a whole number from 1 to 16');

// a full collection of the main thread on SIGUSR2 (workers cannot take signals; their heaps are read as they are)
const preload = join(tmpdir(), 'touchline-bench-gc-on-signal.mjs');
writeFileSync(preload, "process.on('SIGUSR2', () => globalThis.gc());\n");

/** threads of a process, by name (node names its workers' threads) */
const threads = (pid: number) => readFileSync(`/proc/${pid}/status`, 'utf8').match(/Threads:\s+(\d+)/)?.[1];

/** Each worker's parts of touchline_engine_worker_memory_bytes, in MB, from a scrape. */
function workerParts(text: string): Map<string, Record<string, number>> {
  const out = new Map<string, Record<string, number>>();
  for (const m of text.matchAll(/^touchline_engine_worker_memory_bytes\{worker="(\d+)",part="(\w+)"\} (\S+)$/gm)) {
    const parts = out.get(m[1]) ?? {};
    parts[m[2]] = Number(m[3]) / 2 ** 20;
    out.set(m[1], parts);
  }
  return out;
}

async function measure(workers: number): Promise<{ rss: number; startSeconds: number }> {
  const t0 = performance.now();
  const metricsPort = await freePort();
  const server = await startServerProcess({
    name: `server with ${workers} workers`,
    startTimeoutMs: 600_000,
    env: {
      TOUCHLINE_DATA_DIR: values['data-dir'],
      TOUCHLINE_AS_OF: process.env.TOUCHLINE_AS_OF,
      TOUCHLINE_MODELS_DIR: undefined,
      ENGINE_WORKERS: String(workers),
      METRICS_PORT: String(metricsPort),
      LOG_LEVEL: 'warn',
      NODE_OPTIONS: `--expose-gc --import ${preload}`,
    },
  });
  try {
    await waitFor('ready', async () => (await server.request('/v1/ready')).status === 200, { timeoutMs: 600_000, intervalMs: 500 });
    const startSeconds = (performance.now() - t0) / 1000;
    // idle: less than 0.05 s of CPU in a second, three times in a row (the workers warm their clubs after ready's first turn)
    for (let idle = 0; idle < 3;) {
      const c = cpuSeconds(server.pid);
      await sleep(1_000);
      idle = cpuSeconds(server.pid) - c < 0.05 ? idle + 1 : 0;
    }
    const early = memoryMb(server.pid, 'VmRSS');
    await sleep(Number(values.settle) * 1000);
    server.signal('SIGUSR2');
    await sleep(2_000);
    const rss = memoryMb(server.pid, 'VmRSS');
    console.log(`ENGINE_WORKERS=${workers}: ready in ${startSeconds.toFixed(1)} s, ${threads(server.pid)} threads, resident ${early.toFixed(0)} MB once idle, ${rss.toFixed(0)} MB ${values.settle} s later with its main thread collected (peak ${memoryMb(server.pid, 'VmHWM').toFixed(0)} MB)`);
    const scraped = await http(`http://127.0.0.1:${metricsPort}`, '/metrics');
    for (const [w, p] of workerParts(scraped.text)) {
      console.log(`  worker ${w} says: heap ${p.heap_used.toFixed(0)} MB used of ${p.heap_reserved.toFixed(0)} MB reserved; outside the heap ${p.external.toFixed(0)} MB, ` +
        `of which its clubs' baselines ${p.baselines.toFixed(1)} MB and match days ${p.match_days.toFixed(1)} MB`);
    }
    return { rss, startSeconds };
  } finally {
    await server.stop(60_000);
  }
}

console.log(`pool memory bench: the world in ${values['data-dir']}, as of ${process.env.TOUCHLINE_AS_OF ?? '(the data folder\'s)'}`);
const alone = await measure(0);
const pooled = await measure(WORKERS);
const cost = pooled.rss - alone.rss;
console.log(`the pool of ${WORKERS} workers costs +${cost.toFixed(0)} MB over the main thread alone (${(cost / WORKERS).toFixed(0)} MB a worker, its clubs warm)`);
