import { embeddedDbDir, loadConfig, type Config } from '../config.js';
import { openDatabase, migrateToLatest, type DatabaseHandle } from '../data/db.js';
import { acquireLock, lockHolder, LockedError } from '../data/embedded-lock.js';
import { callAdminChannel, OperationError } from '../admin/channel.js';
import { findOperation } from '../operations.js';

/** Thrown for a user error: the CLI prints the message alone and exits 1. */
export class CliError extends Error {}

export function openFromConfig(config: Config): Promise<DatabaseHandle> {
  return openDatabase({ url: config.DATABASE_URL, dataDir: config.DATABASE_URL ? undefined : embeddedDbDir(config) });
}

/** Runs one command against the configured database (migrated), closing it afterwards. */
export async function withDatabase<T>(fn: (handle: DatabaseHandle, config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig();
  let release: (() => void) | null = null;
  if (!config.DATABASE_URL) {
    try {
      release = acquireLock(config.TOUCHLINE_DATA_DIR, null);
    } catch (err) {
      if (err instanceof LockedError) throw new CliError(`${err.message}; stop it first, or use DATABASE_URL`);
      throw err;
    }
  }
  try {
    const handle = await openFromConfig(config);
    try {
      await migrateToLatest(handle.db);
      return await fn(handle, config);
    } finally {
      await handle.close();
    }
  } finally {
    release?.();
  }
}

/**
 * Runs a named operation (src/operations.ts). With the embedded database held by a running
 * server, the server runs it (PGlite has no cross-process locking); otherwise this process does.
 */
export async function runOperation<A extends Record<string, unknown>>([name, args]: [string, A], progress: (line: string) => void = () => {}): Promise<unknown> {
  const op = findOperation(name);
  if (!op) throw new Error(`unknown operation ${name}`);
  const config = loadConfig();
  if (!config.DATABASE_URL) {
    const holder = lockHolder(config.TOUCHLINE_DATA_DIR);
    if (holder?.socket) {
      try {
        return await callAdminChannel(holder.socket, name, args, progress);
      } catch (err) {
        if (err instanceof OperationError) throw new CliError(err.message);
        throw err;
      }
    }
  }
  return withDatabase((handle, cfg) => op({ handle, config: cfg, progress, terminal: process.stderr.isTTY ? process.stderr : null }, args));
}

/** Prints a result: JSON with --json, otherwise a short human line. */
export function output(json: boolean, value: unknown, human: string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${human}\n`);
}
