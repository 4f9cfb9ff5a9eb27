import type { DatabaseHandle } from '../../src/data/db.js';
import { openEmptyDatabase } from '../helpers/embedded.js';

/** A migrated empty embedded database; opening one still costs tenths of a second, so a test file shares one. */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  return openEmptyDatabase();
}

/** A unique email per call, so tests sharing a database do not collide. */
let n = 0;
export function uniqueEmail(tag: string): string {
  n += 1;
  return `${tag}-${n}-${process.pid}@example.test`;
}
