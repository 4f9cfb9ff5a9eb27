/**
 * Real Touchline processes for tests and benches: `touchline serve` started as a child process with
 * its own environment, waited for on `/v1/health`, stopped with SIGTERM (SIGKILL after a timeout),
 * and the operator CLI run as a child process. Everything is bounded in time and talks to loopback only.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { SETTING_NAMES } from '../../src/config.js';
import { MODELS_DIR } from './code-key.js';
import { BUILT_ENV } from './test-command.js';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Trained model artifacts shared by test runs, so a new database is only rated, not trained. */
/** the tests' models folder (code-key.ts): one per version of the model code */
export const SHARED_MODELS_DIR = MODELS_DIR;
const CLI = join(REPO_ROOT, 'src/cli/main.ts');
/** The CLI as `npm start` runs it: compiled by scripts/build-server.js, run with plain node. */
const BUILT_CLI = join(REPO_ROOT, 'build/cli/main.js');

let built = false;
/**
 * The command line of a child `touchline`: the built CLI with plain node, as `npm start` runs it, build/
 * brought up to date once per test process (a spawn through tsx costs about a second more of CPU, and the
 * suite spawns hundreds); TOUCHLINE_TEST_TSX=1 runs src/ through tsx instead.
 */
export function cliCommand(args: string[], compiled = process.env.TOUCHLINE_TEST_TSX !== '1'): string[] {
  if (!compiled) return ['--import', 'tsx', CLI, ...args];
  if (!built) {
    // `npm test` built it before starting this process
    if (process.env[BUILT_ENV] !== '1') buildServer();
    built = true;
  }
  return [BUILT_CLI, ...args];
}
/** Keep at most this much of a child's output (the tail). */
const OUTPUT_CAP = 1 << 20;

/** The parent's environment without any Touchline setting, so a child sees only what a test gives it. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of SETTING_NAMES) delete env[name];
  for (const name of Object.keys(env)) if (name.startsWith('TOUCHLINE_')) delete env[name];
  // A test runner's own flags (--test, coverage) must not leak into the child.
  delete env.NODE_TEST_CONTEXT;
  delete env.NODE_OPTIONS;
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

/** A TCP port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Thrown inside a `waitFor` check to stop waiting at once (e.g. the process being waited on has died). */
export class StopWaiting extends Error {}

/** Calls `check` every `intervalMs` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined | false>, opts: { timeoutMs: number; intervalMs?: number }): Promise<T> {
  const deadline = Date.now() + opts.timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined && v !== false) return v;
    } catch (err) {
      if (err instanceof StopWaiting) throw err;
      last = err;
    }
    if (Date.now() >= deadline) throw new Error(`timed out after ${opts.timeoutMs} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
    await sleep(opts.intervalMs ?? 200);
  }
}

/** Bounded output capture of a child process. */
class Captured {
  private text = '';
  append(chunk: Buffer | string): void {
    this.text += chunk.toString();
    if (this.text.length > OUTPUT_CAP) this.text = this.text.slice(-OUTPUT_CAP);
  }
  toString(): string {
    return this.text;
  }
}

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

function exitOf(child: ChildProcess): Promise<Exit> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

// ---------------------------------------------------------------- HTTP

export interface HttpAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  /** The body parsed as JSON (throws when it is not JSON). */
  json<T = Record<string, unknown>>(): T;
  /** Milliseconds from sending to the last byte. */
  readonly ms: number;
}

export interface HttpOptions {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** API key sent in x-api-key. */
  key?: string;
  timeoutMs?: number;
  /** Source address of the connection (any 127.x.y.z reaches a loopback server): another client, to login throttling. */
  localAddress?: string;
}

/**
 * One request on its own connection (no keep-alive pool), so a test controls exactly what is in
 * flight. Rejects on a network error or when no complete answer arrives within `timeoutMs`.
 */
export function http(baseUrl: string, path: string, opts: HttpOptions = {}): Promise<HttpAnswer> {
  const url = new URL(path, baseUrl);
  const payload = opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
  const headers: Record<string, string> = { connection: 'close', ...opts.headers };
  if (opts.key) headers['x-api-key'] = opts.key;
  if (payload !== undefined) {
    headers['content-type'] ??= 'application/json';
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: opts.method ?? (payload === undefined ? 'GET' : 'POST'), headers, agent: false, localAddress: opts.localAddress }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('aborted', () => reject(new Error(`${path}: response aborted`)));
      res.on('end', () => {
        if (!res.complete) return reject(new Error(`${path}: incomplete response`));
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: <T>() => JSON.parse(text) as T, ms: performance.now() - started });
      });
    });
    req.setTimeout(opts.timeoutMs ?? 10_000, () => req.destroy(new Error(`${path}: no answer within ${opts.timeoutMs ?? 10_000} ms`)));
    req.on('error', reject);
    req.end(payload);
  });
}

// ---------------------------------------------------------------- server processes

export interface ServerProcessOptions {
  /** Settings of the server (DATABASE_URL, REDIS_URL, RATE_LIMIT, ...). PORT and HOST are chosen here unless given. */
  env?: Record<string, string | undefined>;
  /** How long to wait for `/v1/health` to answer 200 (default 120 s: a first start loads the demo world). */
  startTimeoutMs?: number;
  /** Name used in error messages. */
  name?: string;
}

export interface ServerProcess {
  readonly name: string;
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  readonly child: ChildProcess;
  /** Resolves when the process exits. */
  readonly exited: Promise<Exit>;
  /** Everything the process printed so far (stdout and stderr, tail kept). */
  output(): string;
  /** Request to this server (see `http`). */
  request(path: string, opts?: HttpOptions): Promise<HttpAnswer>;
  /** SIGTERM, then SIGKILL after `timeoutMs` (default 15 s). `forced` tells whether SIGKILL was needed. */
  stop(timeoutMs?: number): Promise<Exit & { forced: boolean }>;
  /** Waits for the exit without signalling (e.g. after `signal('SIGTERM')`); SIGKILL after `timeoutMs`. */
  waitExit(timeoutMs?: number): Promise<Exit & { forced: boolean }>;
  /** Throws, with the tail of the output, when the process is no longer running. */
  assertRunning(): void;
  /** Sends a signal without waiting. */
  signal(sig: NodeJS.Signals): void;
}

/**
 * Starts `touchline serve` (cliCommand: compiled, as `npm start`) and resolves once `/v1/health`
 * answers 200. A temporary TOUCHLINE_DATA_DIR is used unless one is given, and removed at stop.
 * The process is killed if it does not become healthy in time.
 */
export async function startServerProcess(opts: ServerProcessOptions = {}): Promise<ServerProcess> {
  const name = opts.name ?? 'server';
  const port = opts.env?.PORT ? Number(opts.env.PORT) : await freePort();
  const ownDataDir = opts.env?.TOUCHLINE_DATA_DIR ? null : mkdtempSync(join(tmpdir(), 'touchline-proc-'));
  const env = cleanEnv({
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    TOUCHLINE_MODELS_DIR: SHARED_MODELS_DIR,
    // one analysis worker unless a test asks for more: a second one's start, world and warm-up cost
    // each server about 2 s of CPU, and the suite starts a server in a dozen files
    ENGINE_WORKERS: '1',
    ...(ownDataDir ? { TOUCHLINE_DATA_DIR: ownDataDir } : {}),
    ...opts.env,
    PORT: String(port),
  });
  const child = spawn(process.execPath, cliCommand(['serve']), { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = new Captured();
  child.stdout!.on('data', (c: Buffer) => out.append(c));
  child.stderr!.on('data', (c: Buffer) => out.append(c));
  const exited = exitOf(child);
  const cleanup = () => {
    if (ownDataDir) rmSync(ownDataDir, { recursive: true, force: true });
  };
  void exited.then(cleanup);
  const url = `http://127.0.0.1:${port}`;
  let stopping: Promise<Exit & { forced: boolean }> | null = null;
  let signalled = false;

  const proc: ServerProcess = {
    name,
    url,
    port,
    pid: child.pid!,
    child,
    exited,
    output: () => out.toString(),
    request: (path, o) => http(url, path, o),
    signal: (sig) => {
      if (sig === 'SIGTERM') signalled = true;
      if (child.exitCode === null && child.signalCode === null) child.kill(sig);
    },
    waitExit: async (timeoutMs = 15_000) => {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), timeoutMs)));
      const first = await Promise.race([exited, timedOut]);
      clearTimeout(timer);
      if (first !== 'timeout') return { ...first, forced: false };
      child.kill('SIGKILL');
      return { ...(await exited), forced: true };
    },
    // One SIGTERM only: the server treats a second one as "stop now".
    stop: (timeoutMs = 15_000) =>
      (stopping ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return { ...(await exited), forced: false };
        if (!signalled) child.kill('SIGTERM');
        return proc.waitExit(timeoutMs);
      })()),
    assertRunning: () => {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new StopWaiting(`${name} has exited (code ${child.exitCode}, signal ${child.signalCode}):\n${out.toString().slice(-6000)}`);
      }
    },
  };

  const timeoutMs = opts.startTimeoutMs ?? 120_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const e = await exited;
      throw new Error(`${name} exited before it was healthy (code ${e.code}, signal ${e.signal}):\n${out.toString().slice(-4000)}`);
    }
    try {
      const r = await http(url, '/v1/health', { timeoutMs: 2_000 });
      if (r.status === 200) return proc;
    } catch {
      // Not listening yet.
    }
    if (Date.now() >= deadline) {
      await proc.stop(5_000);
      throw new Error(`${name} was not healthy within ${timeoutMs} ms:\n${out.toString().slice(-4000)}`);
    }
    await sleep(250);
  }
}

// ---------------------------------------------------------------- CLI

export interface CliResult extends Exit {
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
  /** stdout parsed as JSON (for commands run with --json). */
  json<T = Record<string, unknown>>(): T;
}

export interface CliProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  output(): { stdout: string; stderr: string };
  /** Resolves with the result when the process exits. */
  readonly done: Promise<CliResult>;
}

/** Brings build/ up to date with src/ (what `npm start` does first; well under a second when little changed). */
export function buildServer(): void {
  execFileSync(process.execPath, [join(REPO_ROOT, 'scripts/build-server.js'), '--quiet'], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}

/**
 * Starts `touchline <args>` with the given settings; the caller decides when to wait or kill (cliCommand:
 * compiled unless `compiled: false` or TOUCHLINE_TEST_TSX=1).
 */
export function spawnCli(args: string[], env: Record<string, string | undefined>, opts: { timeoutMs?: number; compiled?: boolean } = {}): CliProcess {
  const started = performance.now();
  const command = cliCommand(args, opts.compiled);
  const child = spawn(process.execPath, command, { cwd: REPO_ROOT, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  const stdout = new Captured();
  const stderr = new Captured();
  child.stdout!.on('data', (c: Buffer) => stdout.append(c));
  child.stderr!.on('data', (c: Buffer) => stderr.append(c));
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const done = exitOf(child).then((e) => {
    clearTimeout(timer);
    const out = stdout.toString();
    return { ...e, stdout: out, stderr: stderr.toString(), ms: performance.now() - started, json: <T>() => JSON.parse(out) as T };
  });
  return { child, pid: child.pid!, output: () => ({ stdout: stdout.toString(), stderr: stderr.toString() }), done };
}

/** Runs `touchline <args>` to the end; rejects with its stderr when it exits non-zero. */
export async function runCli(args: string[], env: Record<string, string | undefined>, opts: { timeoutMs?: number } = {}): Promise<CliResult> {
  const r = await spawnCli(args, env, opts).done;
  if (r.code !== 0) throw new Error(`touchline ${args.join(' ')} exited with ${r.code ?? r.signal}: ${r.stderr.trim()}`);
  return r;
}

// ---------------------------------------------------------------- scratch PostgreSQL databases

/** `postgres://…/<base>_<suffix>` for a scratch database on the same server as `serverUrl`. */
export function siblingDatabaseUrl(serverUrl: string, suffix: string): { url: string; name: string } {
  const u = new URL(serverUrl);
  const base = u.pathname.replace(/^\//, '') || 'touchline';
  const name = `${base}_${suffix}`.toLowerCase().replace(/[^a-z0-9_]/g, '_').slice(0, 63);
  u.pathname = `/${name}`;
  return { url: u.toString(), name };
}

async function onMaintenanceDb<T>(serverUrl: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const u = new URL(serverUrl);
  u.pathname = '/postgres';
  const c = new pg.Client({ connectionString: u.toString(), connectionTimeoutMillis: 5_000 });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** Creates an empty scratch database next to the one `serverUrl` names (dropping a leftover first). */
export async function createScratchDatabase(serverUrl: string, suffix: string): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const { url, name } = siblingDatabaseUrl(serverUrl, suffix);
  await onMaintenanceDb(serverUrl, async (c) => {
    await c.query(`drop database if exists ${name} with (force)`);
    await c.query(`create database ${name}`);
  });
  return { url, name, drop: () => onMaintenanceDb(serverUrl, async (c) => void (await c.query(`drop database if exists ${name} with (force)`))) };
}

/** Runs one query on `url` with a fresh connection. */
export async function queryOnce<R extends pg.QueryResultRow = Record<string, unknown>>(url: string, text: string, values: unknown[] = []): Promise<R[]> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000, query_timeout: 60_000 });
  await c.connect();
  try {
    return (await c.query<R>(text, values)).rows;
  } finally {
    await c.end();
  }
}
