import Fastify, { type FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from '../../src/app.js';
import { DEFAULT_AS_OF, embeddedDbDir, loadConfig, type Config } from '../../src/config.js';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/data/db.js';
import { generateDemoWorld } from '../../src/data/demo/index.js';
import { replaceWorld } from '../../src/data/world-store.js';
import { ensureBootstrapKey } from '../../src/access/bootstrap.js';
import { createRuntime, type Runtime } from '../../src/runtime.js';
import { ensureModels } from '../../src/models/train.js';
import { tuneHeapForServing } from '../../src/heap-tuning.js';

export const BENCH_KEY = 'tl_bench_key_0123456789abcdefghijkl';

export interface BenchServer {
  readonly url: string;
  readonly app: FastifyInstance;
  readonly config: Config;
  readonly runtime: Runtime;
  close(): Promise<void>;
}

/**
 * The real app on the demo world (in-memory embedded database unless DATABASE_URL is set), listening
 * on loopback; with `dataDir`, on the world imported into that folder's embedded database instead
 * (`touchline import`, e.g. the real data; its models are trained there when missing).
 */
export async function startBenchServer(env: Record<string, string> = {}, dataDir?: string): Promise<BenchServer> {
  // as `npm start` does (src/heap-tuning.ts); BENCH_PRETENURING=1 leaves V8's default, to compare
  if (process.env.BENCH_PRETENURING !== '1') tuneHeapForServing();
  const where = dataDir ? { TOUCHLINE_DATA_DIR: dataDir } : { TOUCHLINE_MODELS_DIR: '.cache/models' };
  const config = loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT: '100000000', ...where, ...process.env, ...env });
  const handle: DatabaseHandle = await openDatabase(dataDir ? { dataDir: embeddedDbDir(config) } : { url: config.DATABASE_URL });
  await migrateToLatest(handle.db);
  if (!dataDir) await replaceWorld(handle.db, generateDemoWorld({ seed: 42, asOf: config.TOUCHLINE_AS_OF ?? DEFAULT_AS_OF }), { source: 'demo', seed: '42' });
  await ensureModels(handle, config, (line) => console.error(line));
  await ensureBootstrapKey(handle.db, BENCH_KEY);
  const runtime = await createRuntime(config, handle, pino({ level: 'silent' }), { dataPollMs: 0 });
  const app = await buildApp(runtime.deps, { logger: pino({ level: 'silent' }) });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    app,
    config,
    runtime,
    close: async () => {
      await app.close();
      await runtime.close();
      await handle.close();
    },
  };
}

/** A bare Fastify route answering a small JSON object: the ceiling we compare against. */
export async function startBareServer(): Promise<{ url: string; app: FastifyInstance }> {
  const app = Fastify();
  app.get('/bare', async () => ({ status: 'ok', value: 42 }));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, app };
}
