import { resolve } from 'node:path';
import { z } from 'zod';

/** The demo world's as-of date, and the last resort when neither the setting nor the data gives one. */
export const DEFAULT_AS_OF = '2026-06-30';

/** The open dataset's weekly zip, as its project (dcaribou/transfermarkt-datasets) names it. */
export const DEFAULT_DATA_URL = 'https://pub-e682421888d945d684bcae8890b0ec20.r2.dev/data/transfermarkt-datasets.zip';

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), 'must be a real calendar date');

const positiveInt = (name: string) =>
  z.coerce.number({ error: `${name} must be a number` }).int(`${name} must be a whole number`).positive(`${name} must be positive`);

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  TOUCHLINE_DATA_DIR: z.string().min(1).default('./data'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .optional(),
  // Unset: the data's own latest date (servedAsOf).
  TOUCHLINE_AS_OF: isoDate.optional(),
  TOUCHLINE_DATA_URL: z.string().url('must be a URL').optional(),
  RATE_LIMIT: positiveInt('RATE_LIMIT').default(60),
  RATE_WINDOW_SECONDS: positiveInt('RATE_WINDOW_SECONDS').default(60),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TOUCHLINE_BOOTSTRAP_KEY: z.string().min(20, 'must be at least 20 characters').max(200).optional(),
  TOUCHLINE_DEMO_SEED: positiveInt('TOUCHLINE_DEMO_SEED').default(42),
  TOUCHLINE_MODELS_DIR: z.string().min(1).optional(),
  ENGINE_WORKERS: z.coerce.number({ error: 'ENGINE_WORKERS must be a number' }).int().min(0).max(64).optional(),
  ENGINE_QUEUE: positiveInt('ENGINE_QUEUE').default(64),
  // Whose X-Forwarded-For to believe for the client address (Fastify's trustProxy): `loopback` (default)
  // only a proxy on this machine, addresses or CIDRs (comma-separated) those proxies, `false` nobody
  // (the connection's peer), `true` anybody.
  TRUST_PROXY: z
    .string()
    .default('loopback')
    .transform((v) => (v === 'true' ? true : v === 'false' ? false : v)),
});

export type Config = Readonly<z.infer<typeof schema>> & { readonly modelsDir: string };

export class ConfigError extends Error {}

/** Reads every setting once; an unset or empty variable takes its default. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message} (got ${JSON.stringify(raw[String(i.path[0])])})`);
    throw new ConfigError(`Invalid configuration: ${lines.join('; ')}`);
  }
  const c = parsed.data;
  return Object.freeze({ ...c, modelsDir: c.TOUCHLINE_MODELS_DIR ?? `${c.TOUCHLINE_DATA_DIR}/models` });
}

/** Settings documented in the README, in one place so the table and the code agree. */
export const SETTINGS_DOC: ReadonlyArray<[string, string, string]> = [
  ['PORT', '8080', 'HTTP port'],
  ['HOST', '0.0.0.0', 'interface to listen on'],
  ['DATABASE_URL', '(unset)', 'PostgreSQL server URL; unset uses the embedded database under TOUCHLINE_DATA_DIR'],
  ['TOUCHLINE_DATA_DIR', './data', 'folder of the embedded database and model artifacts'],
  ['REDIS_URL', '(unset)', 'Redis URL for a rate limit shared by all instances; unset keeps it in process memory'],
  ['TOUCHLINE_AS_OF', '(the data\'s latest date)', 'how far the data reaches; the current season contains it, analysis starts the season after. Unset: the imported data\'s last valuation, transfer or game (the demo world: 2026-06-30)'],
  ['TOUCHLINE_DATA_URL', DEFAULT_DATA_URL, 'where `touchline data update` downloads the open dataset from'],
  ['RATE_LIMIT', '60', 'accepted requests per key in the rolling window, for keys whose plan has no limit of its own (`--rate-limit`)'],
  ['RATE_WINDOW_SECONDS', '60', 'length of the rolling window'],
  ['LOG_LEVEL', 'info', 'pino log level'],
  ['TOUCHLINE_BOOTSTRAP_KEY', '(unset)', 'development and tests only: ensures an active all-coverage account holds this key'],
  ['TOUCHLINE_DEMO_SEED', '42', 'seed of the demo world generated on an empty database'],
  ['TOUCHLINE_MODELS_DIR', '<data dir>/models', 'where trained model artifacts are written and read'],
  ['ENGINE_WORKERS', '(cores, at most 4)', 'worker threads for simulations and recommendation screening; 0 runs them on the main thread (tests only)'],
  ['ENGINE_QUEUE', '64', 'analysis tasks waiting for a worker before new ones get 503 with Retry-After'],
  ['TRUST_PROXY', 'loopback', 'whose `X-Forwarded-For` gives the client address that login throttling counts by: `loopback` a proxy on this machine; behind a load balancer, its addresses or CIDRs (comma-separated); `false` nobody (the connection\'s address); `true` anybody (only when nothing else can reach the port)'],
];

/** The as-of date in force: the setting, else the stored data's own (import: its latest date; demo: its as_of). */
export function servedAsOf(config: Pick<Config, 'TOUCHLINE_AS_OF'>, meta: Record<string, string>): string {
  return config.TOUCHLINE_AS_OF ?? meta.data_as_of ?? meta.as_of ?? DEFAULT_AS_OF;
}

/** Folder of the embedded database. */
export function embeddedDbDir(config: Config): string {
  return resolve(config.TOUCHLINE_DATA_DIR, 'pg');
}

/** Unix socket on which a server holding the embedded database takes operator commands. */
export function adminSocketPath(config: Config): string {
  return resolve(config.TOUCHLINE_DATA_DIR, 'admin.sock');
}
