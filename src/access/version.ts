import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../data/schema.js';
import { noteAccessVersion } from './changes.js';

/**
 * `meta.access_version` changes with every change that can alter a cached authentication answer (key
 * revoked, account status or plan changed, plan changed). Authenticators poll it and drop their caches
 * when it moves, so a change made by any process reaches every instance even when a notification is lost.
 */
export const ACCESS_VERSION_KEY = 'access_version';

/** The PostgreSQL notification channel a bump is announced on (payload: the new version). */
export const ACCESS_CHANNEL = 'touchline_access';

type Executor = Kysely<Database>;

/**
 * Sets a new, never-repeating value and announces it on ACCESS_CHANNEL; call it inside the transaction
 * of the change: PostgreSQL delivers the notification when, and only if, the transaction commits.
 */
export async function bumpAccessVersion(db: Executor): Promise<string> {
  const value = `${Date.now().toString(36)}-${randomBytes(6).toString('hex')}`;
  await db
    .insertInto('meta')
    .values({ key: ACCESS_VERSION_KEY, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
  await sql`select pg_notify(${ACCESS_CHANNEL}, ${value})`.execute(db);
  noteAccessVersion(db, value);
  return value;
}

/** The current value, or '' before the first change. */
export async function readAccessVersion(db: Executor): Promise<string> {
  const row = await db.selectFrom('meta').select('value').where('key', '=', ACCESS_VERSION_KEY).executeTakeFirst();
  return row?.value ?? '';
}
