import { openDatabase, migrateToLatest, type DatabaseHandle } from '../../src/data/db.js';

/** A migrated in-memory embedded database; creating one costs seconds, so a test file shares one. */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  const handle = await openDatabase({});
  await migrateToLatest(handle.db);
  return handle;
}

/** A unique email per call, so tests sharing a database do not collide. */
let n = 0;
export function uniqueEmail(tag: string): string {
  n += 1;
  return `${tag}-${n}-${process.pid}@example.test`;
}
