import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../data/schema.js';

/**
 * `meta.access_version` changes with every change that can alter an authentication answer (key
 * created or revoked, account status or plan changed, plan changed). Authenticators poll it and drop
 * their caches when it moves, so a change made by any process reaches every instance.
 */
export const ACCESS_VERSION_KEY = 'access_version';

type Executor = Kysely<Database>;

/** Sets a new, never-repeating value; call it inside the transaction of the change. */
export async function bumpAccessVersion(db: Executor): Promise<string> {
  const value = `${Date.now().toString(36)}-${randomBytes(6).toString('hex')}`;
  await db
    .insertInto('meta')
    .values({ key: ACCESS_VERSION_KEY, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
  return value;
}

/** The current value, or '' before the first change. */
export async function readAccessVersion(db: Executor): Promise<string> {
  const row = await db.selectFrom('meta').select('value').where('key', '=', ACCESS_VERSION_KEY).executeTakeFirst();
  return row?.value ?? '';
}
