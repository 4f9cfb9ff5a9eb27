import { loadConfig, type Config } from '../config.js';
import { openDatabase, migrateToLatest, type DatabaseHandle } from '../data/db.js';

/** Thrown for a user error: the CLI prints the message alone and exits 1. */
export class CliError extends Error {}

export function openFromConfig(config: Config): Promise<DatabaseHandle> {
  return openDatabase({ url: config.DATABASE_URL, dataDir: config.DATABASE_URL ? undefined : `${config.TOUCHLINE_DATA_DIR}/pg` });
}

/** Runs one command against the configured database (migrated), closing it afterwards. */
export async function withDatabase<T>(fn: (handle: DatabaseHandle, config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const handle = await openFromConfig(config);
  try {
    await migrateToLatest(handle.db);
    return await fn(handle, config);
  } finally {
    await handle.close();
  }
}

/** Prints a result: JSON with --json, otherwise a short human line. */
export function output(json: boolean, value: unknown, human: string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${human}\n`);
}
