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
  // Every Redis key starts with it, so deployments can share one Redis.
  REDIS_PREFIX: z.string().min(1).max(100).default('touchline:'),
  // Unset: no metrics listener; 0 takes a free port.
  METRICS_PORT: z.coerce.number({ error: 'METRICS_PORT must be a number' }).int('METRICS_PORT must be a whole number').min(0).max(65535).optional(),
  // Unset: the data's own latest date (servedAsOf).
  TOUCHLINE_AS_OF: isoDate.optional(),
  TOUCHLINE_DATA_URL: z.string().url('must be a URL').default(DEFAULT_DATA_URL),
  RATE_LIMIT: positiveInt('RATE_LIMIT').default(60),
  RATE_WINDOW_SECONDS: positiveInt('RATE_WINDOW_SECONDS').default(60),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TOUCHLINE_BOOTSTRAP_KEY: z.string().min(20, 'must be at least 20 characters').max(200).optional(),
  TOUCHLINE_DEMO_SEED: positiveInt('TOUCHLINE_DEMO_SEED').default(42),
  TOUCHLINE_MODELS_DIR: z.string().min(1).optional(),
  ENGINE_WORKERS: z.coerce.number({ error: 'ENGINE_WORKERS must be a number' }).int().min(0).max(64).optional(),
  ENGINE_QUEUE: positiveInt('ENGINE_QUEUE').default(64),
  // off: training skips the backtests (faster; no model card, ranges and match spread as fitted)
  TOUCHLINE_BACKTESTS: z.enum(['on', 'off'], { error: 'TOUCHLINE_BACKTESTS must be on or off' }).default('on'),
  // Whose X-Forwarded-For to believe for the client address (Fastify's trustProxy): `loopback` (default)
  // only a proxy on this machine, addresses or CIDRs (comma-separated) those proxies, `false` nobody
  // (the connection's peer), `true` anybody.
  TRUST_PROXY: z
    .string()
    .default('loopback')
    .transform((v) => (v === 'true' ? true : v === 'false' ? false : v)),
  // 1: webhooks may call http:// (and https://) loopback addresses: development and tests only
  WEBHOOKS_ALLOW_HTTP_LOOPBACK: z.enum(['0', '1'], { error: 'WEBHOOKS_ALLOW_HTTP_LOOPBACK must be 0 or 1' }).default('0'),
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

/** Every setting's name, as the environment gives it. */
export const SETTING_NAMES: readonly string[] = Object.keys(schema.shape);

/** A setting's default when unset, as its value would be given (undefined: none). */
export function settingDefault(name: string): string | undefined {
  const parsed = schema.shape[name as keyof typeof schema.shape].safeParse(undefined);
  return parsed.success && parsed.data !== undefined ? String(parsed.data) : undefined;
}

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
