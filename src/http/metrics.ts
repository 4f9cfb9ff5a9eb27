/**
 * The app's Prometheus metrics (GET /metrics on METRICS_PORT, served by metrics-listener.ts). Each app
 * has a registry of its own, so several apps in one process (tests) never share or clash. What is
 * counted comes from hook points, read by the registry when scraped: the app's onResponse hook, the
 * engine's task listener, and the counts the layers below keep (HttpDeps.counts). docs/operations.md
 * lists the metrics; docs/grafana-dashboard.json charts them.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { CacheCounts, HttpDeps } from './deps.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's metrics registry (Prometheus text by `metrics.metrics()`). */
    metrics: Registry;
  }
}

/** The route label of a request that matched no route (404s of unknown paths), so raw URLs never become labels. */
export const UNMATCHED_ROUTE = '(unmatched)';

/** Seconds: from a cached lookup (about a millisecond) to a slow simulation (tens of seconds). */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const TASK_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * A counter whose total is kept elsewhere (a cache's hits): set to that total on each scrape. The
 * totals only grow, so it behaves as a counter to Prometheus.
 */
function counterOf<L extends string>(registry: Registry, name: string, help: string, labelNames: readonly L[], totals: () => Iterable<[Partial<Record<L, string>>, number]>): void {
  new Counter({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const [labels, value] of totals()) this.inc(labels, value);
    },
  });
}

/** The date's midnight UTC as Unix time, in seconds. */
function unixSeconds(isoDate: string): number {
  return Date.parse(`${isoDate}T00:00:00Z`) / 1000;
}

/** Creates the app's registry and its metrics, and counts each answer in an onResponse hook. */
export function registerMetrics(app: FastifyInstance, deps: HttpDeps): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: 'touchline_http_requests_total', help: 'HTTP requests answered, by route pattern and status', labelNames, registers: [registry] });
  const latency = new Histogram({ name: 'touchline_http_request_duration_seconds', help: 'Time to answer an HTTP request, by route pattern and status', labelNames, buckets: REQUEST_BUCKETS, registers: [registry] });
  const unavailable = new Counter({ name: 'touchline_http_503_total', help: '503 answers (analysis queue full, models training, not ready, draining), by route', labelNames: ['route'], registers: [registry] });
  const limited = new Counter({ name: 'touchline_http_429_total', help: '429 answers (rate limit or login throttle), by route', labelNames: ['route'], registers: [registry] });

  app.addHook('onResponse', (req: FastifyRequest, reply: FastifyReply, done) => {
    const route = req.routeOptions.url ?? UNMATCHED_ROUTE;
    const labels = { method: req.method, route, status: String(reply.statusCode) };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
    if (reply.statusCode === 503) unavailable.inc({ route });
    else if (reply.statusCode === 429) limited.inc({ route });
    done();
  });

  const engine = deps.engine;
  new Gauge({ name: 'touchline_engine_queue_depth', help: 'Analysis tasks waiting for a worker', registers: [registry], collect() { this.set(engine.queued); } });
  new Gauge({ name: 'touchline_engine_busy_workers', help: 'Analysis workers running a task', registers: [registry], collect() { this.set(engine.busyWorkers); } });
  new Gauge({ name: 'touchline_engine_workers', help: 'Analysis workers (ENGINE_WORKERS)', registers: [registry], collect() { this.set(engine.workers); } });
  new Gauge({
    name: 'touchline_engine_package_bytes', help: 'The world and models the analysis workers share (one buffer); part=in_place: its typed arrays, which no worker copies',
    labelNames: ['part'], registers: [registry],
    collect() {
      const bytes = engine.packageBytes;
      this.set({ part: 'total' }, bytes.total);
      this.set({ part: 'in_place' }, bytes.inPlace);
    },
  });
  new Gauge({
    name: 'touchline_engine_worker_memory_bytes',
    help: 'What each analysis worker holds, as it last reported (every 10 s, and once it holds a world and once its clubs are warm): ' +
      'part=heap_used, heap_reserved (V8 heap: the world\'s rows and maps, models, indexes), external (buffers outside the heap, the shared package not counted), baselines and match_days (its clubs\' kept simulation state, part of external)',
    labelNames: ['worker', 'part'], registers: [registry],
    collect() {
      this.reset();
      engine.workerMemory.forEach((m, w) => {
        if (!m) return;
        const worker = String(w);
        this.set({ worker, part: 'heap_used' }, m.heapUsed);
        this.set({ worker, part: 'heap_reserved' }, m.heapReserved);
        this.set({ worker, part: 'external' }, m.external);
        this.set({ worker, part: 'baselines' }, m.baselines);
        this.set({ worker, part: 'match_days' }, m.matchDays);
      });
    },
  });
  const taskTime = new Histogram({
    name: 'touchline_engine_task_duration_seconds',
    help: 'Time of an analysis task from its request to its result (queue wait included), by task kind and outcome (done, failed, busy: refused, queue full)',
    labelNames: ['kind', 'outcome'],
    buckets: TASK_BUCKETS,
    registers: [registry],
  });
  const stopListening = engine.onTask((kind, seconds, outcome) => taskTime.observe({ kind, outcome }, seconds));
  app.addHook('onClose', (_app, done) => {
    stopListening();
    done();
  });

  const caches = (): [string, CacheCounts][] => [['answers', app.answers.counts], ...Object.entries(deps.counts?.caches ?? {})];
  counterOf(registry, 'touchline_cache_hits_total', 'Cache look-ups answered from the cache, by cache', ['cache'], () => caches().map(([cache, c]) => [{ cache }, c.hits]));
  counterOf(registry, 'touchline_cache_misses_total', 'Cache look-ups that had to compute or read, by cache', ['cache'], () => caches().map(([cache, c]) => [{ cache }, c.misses]));
  if (deps.counts) {
    const counts = deps.counts;
    counterOf(registry, 'touchline_login_throttle_refusals_total', 'Login attempts refused by the login throttle (429)', [], () => [[{}, counts.loginRefusals()]]);
  }

  new Gauge({
    name: 'touchline_data_info',
    help: 'The data and models in force: 1, with the as-of date, the data version and the model version as labels',
    labelNames: ['as_of', 'data_version', 'model_version'],
    registers: [registry],
    collect() {
      this.reset();
      const snapshot = deps.snapshot();
      this.set({ as_of: snapshot.asOf, data_version: snapshot.dataVersion, model_version: deps.models()?.version ?? 'none' }, 1);
    },
  });
  new Gauge({ name: 'touchline_data_as_of_timestamp_seconds', help: 'The as-of date of the data in force, as Unix time (its midnight UTC)', registers: [registry], collect() { this.set(unixSeconds(deps.snapshot().asOf)); } });
  new Gauge({ name: 'touchline_ready', help: '1 when GET /v1/ready answers 200, else 0', registers: [registry], collect() { this.set(deps.readiness().ready && !app.isDraining() ? 1 : 0); } });

  app.decorate('metrics', registry);
  return registry;
}
