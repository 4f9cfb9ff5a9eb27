import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './app.js';
import { createServer, type Server as NetServer } from 'node:net';
import { listenForMetrics, type MetricsListener } from './http/metrics-listener.js';
import { adminSocketPath, DEFAULT_AS_OF, embeddedDbDir, loadConfig, type Config } from './config.js';
import { serveAdminChannel } from './admin/channel.js';
import { serverOperationRunner } from './operations.js';
import { acquireLockWaiting, LockedError, markStopping } from './data/embedded-lock.js';
import { openDatabase, migrateToLatest, type DatabaseHandle } from './data/db.js';
import { generateDemoWorld } from './data/demo/index.js';
import { isWorldEmpty, readMeta, replaceWorld } from './data/world-store.js';
import { createDemoLogin, ensureBootstrapKey } from './access/bootstrap.js';
import { tuneHeapForServing } from './heap-tuning.js';
import { StartupError } from './startup-error.js';
import { createLogger } from './logger.js';
import { createRuntime, loadServedWorld, type Runtime } from './runtime.js';

export interface Server {
  readonly app: FastifyInstance;
  readonly runtime: Runtime;
  readonly handle: DatabaseHandle;
  readonly url: string;
  /** The metrics listener's http://host:port, when METRICS_PORT is set. */
  readonly metricsUrl: string | null;
  /** Says that this server is shutting down (a start finding its data folder waits for it); close() says so too. */
  stopping(): void;
  close(): Promise<void>;
}

/** Loads the demo world into an empty database, so a fresh clone serves something real at once. */
async function ensureWorld(handle: DatabaseHandle, config: Config, logger: Logger): Promise<void> {
  if (!(await isWorldEmpty(handle.db))) return;
  const started = Date.now();
  logger.info({ seed: config.TOUCHLINE_DEMO_SEED }, 'empty database: generating the demo world');
  // The demo world keeps its own as-of date (2026-06-30) unless one is set.
  const asOf = config.TOUCHLINE_AS_OF ?? DEFAULT_AS_OF;
  const world = generateDemoWorld({ seed: config.TOUCHLINE_DEMO_SEED, asOf });
  await replaceWorld(handle.db, world, { source: 'demo', seed: String(config.TOUCHLINE_DEMO_SEED), as_of: asOf });
  logger.info({ ms: Date.now() - started, players: world.players.length, clubs: world.clubs.length }, 'demo world loaded');
}

/** Why listening on host:port failed, in words an operator can act on; `setting` names the port's setting. */
function listenProblem(err: unknown, host: string, port: number, setting = '--port N or PORT=N'): StartupError | unknown {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return new StartupError(`port ${port} on ${host} is already in use (another touchline server?): stop that process, or choose another port with ${setting}`);
  if (code === 'EACCES') return new StartupError(`no permission to listen on port ${port}: choose a port above 1023 with ${setting}`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new StartupError(`cannot listen on host ${host}: it is not an address of this machine; use --host 127.0.0.1 or --host 0.0.0.0 (or HOST)`);
  return err;
}

/** Binds host:port and lets go at once, so a busy port is reported before minutes of loading, not after. */
async function checkPortFree(host: string, port: number, setting?: string): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (err) => reject(listenProblem(err, host, port, setting)));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}

const METRICS_PORT_SETTING = 'METRICS_PORT=N (unset: no metrics listener)';

/** config -> checks (data folder lock, port) -> database -> app -> listen. */
export async function startServer(config: Config = loadConfig(), logger: Logger = createLogger(config.LOG_LEVEL)): Promise<Server> {
  if (config.METRICS_PORT !== undefined && config.METRICS_PORT !== 0 && config.METRICS_PORT === config.PORT) {
    throw new StartupError(`METRICS_PORT and PORT are both ${config.PORT}: the metrics need a port of their own (or unset METRICS_PORT)`);
  }
  const embedded = !config.DATABASE_URL;
  let release: () => void = () => {};
  if (embedded) {
    try {
      release = await acquireLockWaiting(config.TOUCHLINE_DATA_DIR, adminSocketPath(config), {
        onWait: (holder, waitMs) => logger.warn({ pid: holder.pid }, `the data folder ${config.TOUCHLINE_DATA_DIR} is held by process ${holder.pid}, which is shutting down: waiting up to ${waitMs / 1000} s for it`),
      });
    } catch (err) {
      if (!(err instanceof LockedError)) throw err;
      throw new StartupError(`${err.message}: stop that server first, or give this one another data folder with TOUCHLINE_DATA_DIR`);
    }
  }
  try {
    await checkPortFree(config.HOST, config.PORT);
    if (config.METRICS_PORT !== undefined) await checkPortFree(config.HOST, config.METRICS_PORT, METRICS_PORT_SETTING);
  } catch (err) {
    release();
    throw err;
  }
  let handle: DatabaseHandle;
  try {
    handle = await openDatabase({ url: config.DATABASE_URL, dataDir: embedded ? embeddedDbDir(config) : undefined });
  } catch (err) {
    release();
    throw err;
  }
  let admin: NetServer | null = null;
  let metrics: MetricsListener | null = null;
  try {
    await migrateToLatest(handle.db);
    await ensureWorld(handle, config, logger);
    if (config.TOUCHLINE_BOOTSTRAP_KEY) await ensureBootstrapKey(handle.db, config.TOUCHLINE_BOOTSTRAP_KEY);
    const runtime = await createRuntime(config, handle, logger, { world: await loadServedWorld(config, handle, logger, { train: false }), trainMissing: true });
    if (embedded) {
      // Operator commands run here while this process holds the embedded database.
      admin = await serveAdminChannel(
        adminSocketPath(config),
        serverOperationRunner({ handle, config, logger, after: () => runtime.world.refresh() }),
      );
    }
    const app = await buildApp(runtime.deps, { logger, trustProxy: config.TRUST_PROXY });
    const asOf = runtime.world.current().asOf;
    logger.info({ as_of: asOf, from: config.TOUCHLINE_AS_OF ? 'TOUCHLINE_AS_OF' : 'the data' }, `as-of date ${asOf} (${config.TOUCHLINE_AS_OF ? 'TOUCHLINE_AS_OF' : 'the data\'s own latest date'})`);
    // The demo login exists before the first healthy answer, so whoever waits for health finds it printed at once.
    const demo = (await readMeta(handle.db)).source === 'demo' ? await createDemoLogin(handle.db) : null;
    // The port was free at the start; another process may have taken it while this one loaded.
    const url = await app.listen({ port: config.PORT, host: config.HOST }).catch((err: unknown) => {
      throw listenProblem(err, config.HOST, config.PORT);
    });
    if (config.METRICS_PORT !== undefined) {
      metrics = await listenForMetrics(app.metrics, config.METRICS_PORT, config.HOST).catch(async (err: unknown) => {
        await app.close();
        throw listenProblem(err, config.HOST, config.METRICS_PORT!, METRICS_PORT_SETTING);
      });
      logger.info({ metrics: `${metrics.url}/metrics` }, `metrics at ${metrics.url}/metrics`);
    }
    if (demo) {
      const key = demo.api_key;
      process.stdout.write(
        `\nTouchline is serving the demo world at ${url}\n` +
          `Demo API key: ${key}\n` +
          `Demo login: ${demo.email} / ${demo.password}\n` +
          `Try: curl -H 'x-api-key: ${key}' ${url.replace('0.0.0.0', '127.0.0.1')}/v1/competitions\n` +
          (runtime.models.current() ? '' : 'Models: training on this data now (a minute or two); analyses answer 503 until then, and GET /v1/ready answers 200 once they are in force\n') +
          `Docs: ${url.replace('0.0.0.0', '127.0.0.1')}/docs\n\n`,
      );
    }
    const stopping = () => {
      if (embedded) markStopping(config.TOUCHLINE_DATA_DIR);
    };
    let closing: Promise<void> | null = null;
    const close = () =>
      (closing ??= (async () => {
        stopping();
        await new Promise<void>((resolve) => (admin ? admin.close(() => resolve()) : resolve()));
        await app.close();
        await metrics?.close();
        await runtime.close();
        await handle.close();
        release();
      })());
    return { app, runtime, handle, url, metricsUrl: metrics?.url ?? null, stopping, close };
  } catch (err) {
    admin?.close();
    await handle.close();
    release();
    throw err;
  }
}

/** Runs until SIGTERM/SIGINT, then lets in-flight requests finish and closes the database. */
export async function serveForever(overrides: { port?: number; host?: string } = {}): Promise<void> {
  tuneHeapForServing();
  const config = loadConfig({
    ...process.env,
    ...(overrides.port === undefined ? {} : { PORT: String(overrides.port) }),
    ...(overrides.host === undefined ? {} : { HOST: overrides.host }),
  });
  const logger = createLogger(config.LOG_LEVEL);
  const server = await startServer(config, logger);
  const stop = (signal: string) => {
    logger.info({ signal }, 'shutting down: draining in-flight requests');
    server.stopping();
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
