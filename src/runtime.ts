import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { DatabaseHandle } from './data/db.js';
import { WorldState } from './data/world-state.js';
import { ModelState } from './models/state.js';
import { ensureModels } from './models/train.js';
import { createKeyAuthenticator } from './access/authenticator.js';
import { createLoginService } from './access/login.js';
import { createRateLimiter } from './access/ratelimit/index.js';
import { createLoginThrottle } from './access/throttle/index.js';
import type { HttpDeps } from './http/deps.js';
import { createShortlistStore } from './data/shortlist-store.js';
import { AnalysisEngine, defaultWorkers } from './engine/pool.js';
import { VERSION } from './repo.js';

export interface Runtime {
  readonly deps: HttpDeps;
  readonly world: WorldState;
  readonly models: ModelState;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  /** Injectable clock for tests of the rolling window. */
  now?: () => number;
  /** How often to look for a data change made elsewhere; 0 disables it. */
  dataPollMs?: number;
  /** The read model, when the caller has loaded it already. */
  world?: WorldState;
  /**
   * Start the analysis workers with the world, and build the read indexes, at start and after each
   * swap (default true), so no request pays for them. Tests turn it off: what a test file does not
   * ask for, it does not pay for.
   */
  warm?: boolean;
}

/**
 * Reads the world once for the model check and the runtime (models trained or ratings stored if
 * missing); a new rating pass means a re-read.
 */
export async function loadServedWorld(config: Config, handle: DatabaseHandle, logger: Logger): Promise<WorldState> {
  const world = await WorldState.load(handle.db, config.TOUCHLINE_AS_OF, logger);
  if ((await ensureModels(handle, config, (line) => logger.info(line), { world: world.source().world, snapshot: world.current() })) !== 'ready') await world.refresh();
  return world;
}

/** Wires the layers over an open database: read model, access, limiter. The composition root. */
export async function createRuntime(config: Config, handle: DatabaseHandle, logger: Logger, opts: RuntimeOptions = {}): Promise<Runtime> {
  const now = opts.now ?? Date.now;
  const world = opts.world ?? (await WorldState.load(handle.db, config.TOUCHLINE_AS_OF, logger));
  if (opts.dataPollMs !== 0) world.watch(opts.dataPollMs ?? 2_000);
  const models = new ModelState(config.modelsDir, logger, opts.warm !== false);
  models.sync(world.current());
  world.onChange((s) => models.sync(s));
  // On PostgreSQL other instances' access changes arrive by NOTIFY; the embedded database is one process.
  const listenUrl = handle.kind === 'postgres' ? config.DATABASE_URL : undefined;
  const authenticator = await createKeyAuthenticator(handle.db, { now, listenUrl, logger });
  const limiter = await createRateLimiter({
    redisUrl: config.REDIS_URL,
    limit: config.RATE_LIMIT,
    windowSeconds: config.RATE_WINDOW_SECONDS,
    logger,
  });
  const throttle = await createLoginThrottle(handle.db, { redisUrl: config.REDIS_URL });
  const login = createLoginService(handle.db, throttle);
  const engine = new AnalysisEngine({ workers: config.ENGINE_WORKERS ?? defaultWorkers(), maxQueue: config.ENGINE_QUEUE, eager: opts.warm !== false });
  if (opts.warm !== false) {
    const warm = () => {
      const bundle = models.current();
      if (bundle) engine.warm({ snapshot: world.current(), source: world.source(), bundle }).catch((err: unknown) => logger.warn({ err }, 'analysis workers could not load the world'));
    };
    warm();
    // after models.sync, registered above: the bundle in force is the new world's
    world.onChange(warm);
  }
  const deps: HttpDeps = {
    version: VERSION,
    snapshot: () => world.current(),
    source: () => world.source(),
    engine,
    rates: () => world.rates(),
    models: () => models.current(),
    authenticator,
    limiter,
    rateWindowSeconds: config.RATE_WINDOW_SECONDS,
    login,
    shortlists: createShortlistStore(handle.db),
    pingDatabase: async () => {
      await sql`select 1`.execute(handle.db);
    },
    now,
  };
  return {
    deps,
    world,
    models,
    close: async () => {
      world.stop();
      // queued and running analyses finish first (the app has stopped taking requests by now)
      await engine.close();
      await authenticator.close();
      await limiter.close();
      await throttle.close();
    },
  };
}
