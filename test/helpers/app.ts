import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import pino from 'pino';
import { buildApp } from '../../src/app.js';
import { DEFAULT_AS_OF, loadConfig, type Config } from '../../src/config.js';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/data/db.js';
import { generateDemoWorld } from '../../src/data/demo/index.js';
import { replaceWorld } from '../../src/data/world-store.js';
import { ensureBootstrapKey } from '../../src/access/bootstrap.js';
import { createRuntime, loadServedWorld, type Runtime } from '../../src/runtime.js';
import { ensureModels } from '../../src/models/train.js';
import { closePristine, copyDataDir, madeOnce } from './embedded.js';
import { codeKey, MODELS_DIR } from './code-key.js';
import { BEFORE_WORLD_ENV } from './test-command.js';

export const TEST_KEY = 'tl_test_bootstrap_key_0123456789abcdef';
export const DEMO_SEED = 42;
const ROOT = new URL('../../', import.meta.url).pathname;

export interface TestApp {
  readonly app: FastifyInstance;
  readonly runtime: Runtime;
  readonly handle: DatabaseHandle;
  readonly config: Config;
  readonly key: string;
  get(path: string, key?: string | null, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  post(path: string, body: unknown, key?: string | null, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

async function loadDemo(handle: DatabaseHandle, config: Config): Promise<void> {
  await migrateToLatest(handle.db);
  await replaceWorld(handle.db, generateDemoWorld({ seed: DEMO_SEED, asOf: config.TOUCHLINE_AS_OF ?? DEFAULT_AS_OF }), { source: 'demo', seed: String(DEMO_SEED) });
  await ensureModels(handle, config, () => {});
}

/**
 * A fresh TOUCHLINE_DATA_DIR whose embedded database holds the demo world (a copy of the tests'
 * folder), so a started server skips generating and storing it. Models come from the shared models folder.
 */
export async function demoDataDir(prefix: string): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  cpSync(await demoWorldDir(), join(dataDir, 'pg'), { recursive: true });
  return dataDir;
}

/**
 * The dump (a PGlite data dir as .tar) of the demo world's embedded database, made once per code
 * version. Not compressed: every test file loads it, and unpacking a gzipped one costs about a second.
 */
export async function demoWorldDump(config: Config = loadConfig({ LOG_LEVEL: 'silent', TOUCHLINE_MODELS_DIR: MODELS_DIR })): Promise<string> {
  if (process.env[BEFORE_WORLD_ENV] === '1') {
    throw new Error(`this file was started before the demo world was ready, but it needs the demo world: take it off run-tests.ts's BEFORE_WORLD list`);
  }
  const file = join(ROOT, '.cache', `test-world-${codeKey()}-${config.TOUCHLINE_AS_OF ?? DEFAULT_AS_OF}.tar`);
  await madeOnce(file, async (tmp) => {
    const fresh = await openDatabase({});
    await loadDemo(fresh, config);
    const dump = await fresh.pglite!.dumpDataDir('none');
    await fresh.close();
    writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
  });
  return file;
}

/**
 * The demo world's embedded data folder, unpacked from the dump once per code version: each test
 * file starts PGlite on a copy of it, which costs a fraction of loading the dump into memory.
 */
export async function demoWorldDir(config?: Config): Promise<string> {
  const file = await demoWorldDump(config);
  return madeOnce(file.replace(/\.tar$/, '.pgdata'), async (tmp) => {
    await closePristine(await openDatabase({ dataDir: tmp, loadDataDir: new Blob([readFileSync(file)]) }), tmp);
  });
}

/** An embedded database holding the demo world, on a private copy of its folder (deleted on close). */
async function embeddedDemo(config: Config): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  const copy = copyDataDir(await demoWorldDir(config), 'touchline-test-world-');
  const handle = await openDatabase({ dataDir: copy.dir });
  await migrateToLatest(handle.db);
  return { handle, drop: async () => copy.remove() };
}

let pgCounter = 0;

/** Runs `fn` on a connection to the server's maintenance database. */
async function onServer<T>(serverUrl: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A template database on the server holding the demo world and its ratings, made once per code
 * version (storing the world row by row costs seconds; copying a template does not). Named after the
 * database CI names, so dropping that one's templates cleans up; older versions' templates are dropped.
 */
async function postgresTemplate(serverUrl: string, config: Config): Promise<string> {
  const base = new URL(serverUrl).pathname.slice(1) || 'touchline';
  const prefix = `${base}_tpl_`;
  const name = `${prefix}${codeKey()}_${(config.TOUCHLINE_AS_OF ?? DEFAULT_AS_OF).replaceAll('-', '')}`;
  const found = await onServer(serverUrl, async (c) => (await c.query('select 1 from pg_database where datname = $1', [name])).rowCount);
  if (found) return name;
  const building = `${name}_${process.pid}`;
  await onServer(serverUrl, async (c) => {
    await c.query(`drop database if exists ${building}`);
    await c.query(`create database ${building}`);
  });
  const handle = await openDatabase({ url: databaseUrl(serverUrl, building) });
  try {
    await loadDemo(handle, config);
  } finally {
    await handle.close();
  }
  await onServer(serverUrl, async (c) => {
    const stale = await c.query<{ datname: string }>('select datname from pg_database where starts_with(datname, $1) and datname <> $2 and datname <> $3', [prefix, name, building]);
    for (const { datname } of stale.rows) await c.query(`drop database if exists ${datname} with (force)`);
    await c.query(`alter database ${building} rename to ${name}`);
  });
  return name;
}

/** A fresh database on the PostgreSQL server CI names: a copy of the demo world's template. */
async function postgresDemo(serverUrl: string, config: Config): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  const template = await postgresTemplate(serverUrl, config);
  const name = `touchline_t_${process.pid}_${++pgCounter}`;
  await onServer(serverUrl, async (c) => {
    await c.query(`drop database if exists ${name}`);
    await c.query(`create database ${name} template ${template}`);
  });
  const handle = await openDatabase({ url: databaseUrl(serverUrl, name) });
  await migrateToLatest(handle.db);
  return {
    handle,
    drop: () => onServer(serverUrl, async (c) => void (await c.query(`drop database if exists ${name} with (force)`))),
  };
}

export interface StartOptions {
  env?: Record<string, string>;
  now?: () => number;
  /** Send webhook deliveries from this app (default true). */
  webhooks?: boolean;
  /** Start the analysis workers with the world and build the read indexes, as a server does (default false). */
  warm?: boolean;
}

/** Starts the real app on a real database holding the demo world (seed 42), with TEST_KEY on an all-coverage account. */
export async function startTestApp(opts: StartOptions = {}): Promise<TestApp> {
  const pgUrl = process.env.TOUCHLINE_TEST_DATABASE_URL;
  const env: Record<string, string> = {
    LOG_LEVEL: 'silent',
    RATE_LIMIT: '1000000',
    // One analysis worker, not one per core: a second one's start and world load cost a file about 4 s
    // of CPU (bench/test-timing.ts, test/api/league-forecast.test.ts: 15.3-15.9 s with two, 11.3-11.6 s
    // with one); test/engine/pool.test.ts tries several.
    ENGINE_WORKERS: '1',
    TOUCHLINE_DATA_DIR: join(ROOT, '.cache/unused'),
    TOUCHLINE_MODELS_DIR: MODELS_DIR,
    ...opts.env,
  };
  if (process.env.TOUCHLINE_TEST_REDIS_URL && !('REDIS_URL' in env)) env.REDIS_URL = process.env.TOUCHLINE_TEST_REDIS_URL;
  const config = loadConfig(env);
  let drop: (() => Promise<void>) | null = null;
  let handle: DatabaseHandle;
  if (pgUrl) ({ handle, drop } = await postgresDemo(pgUrl, config));
  else ({ handle, drop } = await embeddedDemo(config));
  await ensureBootstrapKey(handle.db, TEST_KEY);
  const logger = pino({ level: 'silent' });
  // The dump (or template) holds our ratings; the model check only finds the artifact still there.
  const world = await loadServedWorld(config, handle, logger);
  const runtime = await createRuntime(config, handle, logger, { now: opts.now, dataPollMs: 0, world, warm: opts.warm ?? false, webhooks: opts.webhooks });
  const app = await buildApp(runtime.deps, { logger });
  await app.ready();
  const auth = (key: string | null | undefined): Record<string, string> => (key === null ? {} : { 'x-api-key': key ?? TEST_KEY });
  return {
    app,
    runtime,
    handle,
    config,
    key: TEST_KEY,
    get: (path, key, headers = {}) => app.inject({ method: 'GET', url: path, headers: { ...auth(key), ...headers } }),
    post: (path, body, key, headers = {}) =>
      app.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': 'application/json', ...auth(key), ...headers },
        payload: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    close: async () => {
      await app.close();
      await runtime.close();
      await handle.close();
      if (drop) await drop();
    },
  };
}
