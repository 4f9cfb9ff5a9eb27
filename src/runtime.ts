import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { DatabaseHandle } from './data/db.js';
import { WorldState } from './data/world-state.js';
import { ModelState } from './models/state.js';
import { ensureModels, trainModels } from './models/train.js';
import { bundleSettingsOf, expectedBundleVersion } from './models/state.js';
import { packageKey } from './engine/package.js';
import type { Readiness } from './http/deps.js';
import { createKeyAuthenticator } from './access/authenticator.js';
import { createLoginService } from './access/login.js';
import { createRateLimiter } from './access/ratelimit/index.js';
import { createLoginThrottle } from './access/throttle/index.js';
import { createWorkspaceAccess } from './access/roles.js';
import type { HttpDeps } from './http/deps.js';
import { createShortlistStore } from './data/shortlist-store.js';
import { createWorkspaceStore } from './data/workspace-store.js';
import { AnalysisEngine, defaultWorkers } from './engine/pool.js';
import { VERSION } from './repo.js';
import { WebhookDeliverer } from './notify/deliverer.js';
import { createWebhookService } from './notify/service.js';
import { raiseValueChanges, type Served } from './notify/value-changes.js';

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
  /**
   * When no models are trained on the data in force: train them in a thread of their own while this
   * process serves (the server's start), answering /v1/ready 503 until they are in force. Default false.
   */
  trainMissing?: boolean;
  /** Send the stored webhook deliveries from this process (default true). */
  webhooks?: boolean;
}

/**
 * Reads the world once for the model check and the runtime (models trained or ratings stored if
 * missing); a new rating pass means a re-read.
 */
export async function loadServedWorld(config: Config, handle: DatabaseHandle, logger: Logger, opts: { train?: boolean } = {}): Promise<WorldState> {
  const world = await WorldState.load(handle.db, config.TOUCHLINE_AS_OF, logger);
  const done = await ensureModels(handle, config, (line) => logger.info(line), { world: world.source().world, snapshot: world.current() }, 'live', opts);
  if (done === 'rated' || done === 'trained') await world.refresh();
  return world;
}

/** Wires the layers over an open database: read model, access, limiter. The composition root. */
export async function createRuntime(config: Config, handle: DatabaseHandle, logger: Logger, opts: RuntimeOptions = {}): Promise<Runtime> {
  const now = opts.now ?? Date.now;
  const world = opts.world ?? (await WorldState.load(handle.db, config.TOUCHLINE_AS_OF, logger));
  if (opts.dataPollMs !== 0) world.watch(opts.dataPollMs ?? 2_000);
  const models = new ModelState(config.modelsDir, bundleSettingsOf(config), logger, opts.warm !== false);
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
    keyPrefix: `${config.REDIS_PREFIX}rl:`,
  });
  const throttle = await createLoginThrottle(handle.db, { redisUrl: config.REDIS_URL, keyPrefix: `${config.REDIS_PREFIX}login:` });
  const login = createLoginService(handle.db, throttle);
  const engine = new AnalysisEngine({ workers: config.ENGINE_WORKERS ?? defaultWorkers(), maxQueue: config.ENGINE_QUEUE, eager: opts.warm !== false });
  // the package every analysis worker holds, and the one they were last asked to load
  let warmed: string | null = null;
  let warming: string | null = null;
  const warm = () => {
    const bundle = models.current();
    if (opts.warm === false || !bundle) return;
    const key = packageKey(world.source(), bundle);
    warming = key;
    engine.warm({ snapshot: world.current(), source: world.source(), bundle }).then(
      // a slower warm of an older world finishing last must not pass for the world in force
      () => { if (warming === key) warmed = key; },
      (err: unknown) => logger.warn({ err }, 'analysis workers could not load the world'),
    );
  };
  warm();
  // after models.sync, registered above: the bundle in force is the new world's
  world.onChange(warm);
  const policy = { allowLoopback: config.WEBHOOKS_ALLOW_HTTP_LOOPBACK === '1' };
  const deliverer = new WebhookDeliverer(handle.db, { policy, servedDataVersion: () => world.current().dataVersion, logger });
  if (opts.webhooks !== false) deliverer.start();
  // The data and models served, to tell the listed players' values before and after a change.
  let served: Partial<Served> = { snapshot: world.current(), bundle: models.current() ?? undefined };
  world.onChange((snapshot) => {
    const before = served;
    const bundle = models.current();
    served = { snapshot, bundle: bundle ?? undefined };
    if (!before.snapshot || !before.bundle || !bundle || before.snapshot.dataVersion === snapshot.dataVersion) return;
    raiseValueChanges(handle.db, { snapshot: before.snapshot, bundle: before.bundle }, { snapshot, bundle })
      .then((n) => n && logger.info({ events: n }, 'list.value_changed events raised'))
      .catch((err: unknown) => logger.warn({ err }, 'list.value_changed events could not be raised'));
  });
  let training: Promise<void> | null = null;
  if (opts.trainMissing && !models.current()) {
    logger.info('no models trained on this data yet: training them now, while serving (GET /v1/ready answers 503 until they are in force)');
    training = trainModels(handle, config, (line) => logger.info(line), { world: world.source().world, snapshot: world.current() })
      .then(async () => {
        // ratings stored anew change the world, whose listeners load the models; the same ratings do not
        if (!(await world.refresh())) {
          models.sync(world.current());
          warm();
        }
      })
      .catch((err: unknown) => logger.error({ err }, 'training failed: run `touchline train`'))
      .finally(() => { training = null; });
  }
  /** Ready: the models trained on the data in force are loaded, every analysis worker holds them and has warmed its clubs. */
  const readiness = (): Readiness => {
    const bundle = models.current();
    if (!bundle || bundle.version !== expectedBundleVersion(world.current(), bundleSettingsOf(config))) return { ready: false, reason: training ? 'training the models' : 'no models trained on the data in force' };
    if (opts.warm !== false && engine.workers > 0 && warmed !== packageKey(world.source(), bundle)) return { ready: false, reason: 'the analysis workers are loading the world' };
    return { ready: true, reason: 'ready' };
  };
  const deps: HttpDeps = {
    version: VERSION,
    snapshot: () => world.current(),
    source: () => world.source(),
    engine,
    rates: () => world.rates(),
    models: () => models.current(),
    readiness,
    authenticator,
    limiter,
    rateWindowSeconds: config.RATE_WINDOW_SECONDS,
    login,
    shortlists: createShortlistStore(handle.db),
    webhooks: createWebhookService(handle.db, policy),
    counts: {
      caches: { keys: authenticator.cacheCounts, login_refusals: throttle.counts.memo },
      loginRefusals: () => throttle.counts.refused,
    },
    workspaces: createWorkspaceStore(handle.db),
    workspaceAccess: createWorkspaceAccess(handle.db),
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
      await deliverer.stop();
      // a training under way writes its models and ratings before the database closes
      await training;
      // queued and running analyses finish first (the app has stopped taking requests by now)
      await engine.close();
      await authenticator.close();
      await limiter.close();
      await throttle.close();
    },
  };
}
