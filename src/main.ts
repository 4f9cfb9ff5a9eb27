import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './app.js';
import type { Server as NetServer } from 'node:net';
import { adminSocketPath, embeddedDbDir, loadConfig, type Config } from './config.js';
import { serveAdminChannel } from './admin/channel.js';
import { serverOperationRunner } from './operations.js';
import { acquireLock } from './data/embedded-lock.js';
import { openDatabase, migrateToLatest, type DatabaseHandle } from './data/db.js';
import { generateDemoWorld } from './data/demo/index.js';
import { isWorldEmpty, readMeta, replaceWorld } from './data/world-store.js';
import { createDemoLogin, ensureBootstrapKey } from './access/bootstrap.js';
import { createLogger } from './logger.js';
import { createRuntime, loadServedWorld, type Runtime } from './runtime.js';

export interface Server {
  readonly app: FastifyInstance;
  readonly runtime: Runtime;
  readonly handle: DatabaseHandle;
  readonly url: string;
  close(): Promise<void>;
}

/** Loads the demo world into an empty database, so a fresh clone serves something real at once. */
async function ensureWorld(handle: DatabaseHandle, config: Config, logger: Logger): Promise<void> {
  if (!(await isWorldEmpty(handle.db))) return;
  const started = Date.now();
  logger.info({ seed: config.TOUCHLINE_DEMO_SEED }, 'empty database: generating the demo world');
  const world = generateDemoWorld({ seed: config.TOUCHLINE_DEMO_SEED, asOf: config.TOUCHLINE_AS_OF });
  await replaceWorld(handle.db, world, { source: 'demo', seed: String(config.TOUCHLINE_DEMO_SEED), as_of: config.TOUCHLINE_AS_OF });
  logger.info({ ms: Date.now() - started, players: world.players.length, clubs: world.clubs.length }, 'demo world loaded');
}

/** config -> database -> app -> listen. */
export async function startServer(config: Config = loadConfig(), logger: Logger = createLogger(config.LOG_LEVEL)): Promise<Server> {
  const embedded = !config.DATABASE_URL;
  const release = embedded ? acquireLock(config.TOUCHLINE_DATA_DIR, adminSocketPath(config)) : () => {};
  let handle: DatabaseHandle;
  try {
    handle = await openDatabase({ url: config.DATABASE_URL, dataDir: embedded ? embeddedDbDir(config) : undefined });
  } catch (err) {
    release();
    throw err;
  }
  let admin: NetServer | null = null;
  try {
    await migrateToLatest(handle.db);
    await ensureWorld(handle, config, logger);
    if (config.TOUCHLINE_BOOTSTRAP_KEY) await ensureBootstrapKey(handle.db, config.TOUCHLINE_BOOTSTRAP_KEY);
    const runtime = await createRuntime(config, handle, logger, { world: await loadServedWorld(config, handle, logger) });
    if (embedded) {
      // Operator commands run here while this process holds the embedded database.
      admin = await serveAdminChannel(
        adminSocketPath(config),
        serverOperationRunner({ handle, config, logger, after: () => runtime.world.refresh() }),
      );
    }
    const app = await buildApp(runtime.deps, { logger });
    // The demo login exists before the first healthy answer, so whoever waits for health finds it printed at once.
    const demo = (await readMeta(handle.db)).source === 'demo' ? await createDemoLogin(handle.db) : null;
    const url = await app.listen({ port: config.PORT, host: config.HOST });
    if (demo) {
      const key = demo.api_key;
      process.stdout.write(
        `\nTouchline is serving the demo world at ${url}\n` +
          `Demo API key: ${key}\n` +
          `Demo login: ${demo.email} / ${demo.password}\n` +
          `Try: curl -H 'x-api-key: ${key}' ${url.replace('0.0.0.0', '127.0.0.1')}/v1/competitions\n` +
          `Docs: ${url.replace('0.0.0.0', '127.0.0.1')}/docs\n\n`,
      );
    }
    let closing: Promise<void> | null = null;
    const close = () =>
      (closing ??= (async () => {
        await new Promise<void>((resolve) => (admin ? admin.close(() => resolve()) : resolve()));
        await app.close();
        await runtime.close();
        await handle.close();
        release();
      })());
    return { app, runtime, handle, url, close };
  } catch (err) {
    admin?.close();
    await handle.close();
    release();
    throw err;
  }
}

/** Runs until SIGTERM/SIGINT, then lets in-flight requests finish and closes the database. */
export async function serveForever(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL);
  const server = await startServer(config, logger);
  const stop = (signal: string) => {
    logger.info({ signal }, 'shutting down: draining in-flight requests');
    server.app.drain().then(() => server.close()).then(
      () => process.exit(0),
      (err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}
