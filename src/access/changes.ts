import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../data/schema.js';

/**
 * Read your own writes: an access change made through a database handle is in force, for every
 * authenticator of this process on that handle, by the time the change's promise resolves. The
 * listeners run after the commit, never before it: a look-up that started before the drop cannot refill
 * the cache (the authenticator's generation), and one started after it reads the committed rows.
 * Other processes learn of the change from PostgreSQL (change-feed.ts) or the access-version poll.
 */
export type AccessChangeListener = (version: string | null) => void;

const listeners = new WeakMap<Kysely<Database>, Set<AccessChangeListener>>();
/** The access version a transaction set (bumpAccessVersion), read once it has committed. */
const bumps = new WeakMap<Kysely<Database>, string>();

/**
 * Calls `listener` after every access change committed through `db`, with the access version it set
 * (null after a failed change: drop anyway). Returns the unsubscribe.
 */
export function onAccessChange(db: Kysely<Database>, listener: AccessChangeListener): () => void {
  let set = listeners.get(db);
  if (!set) listeners.set(db, (set = new Set()));
  set.add(listener);
  return () => void set.delete(listener);
}

/** Called by bumpAccessVersion with the value it wrote through `trx`. */
export function noteAccessVersion(trx: Kysely<Database>, version: string): void {
  bumps.set(trx, version);
}

/**
 * Runs `work` in one transaction; once it has committed, tells this process's authenticators on `db`
 * to drop their caches when it bumped the access version. After a failure too: a commit whose answer
 * was lost may have gone through, and a drop costs only one look-up per key.
 */
export async function changeAccess<T>(db: Kysely<Database>, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  let trx: Transaction<Database> | undefined;
  let result: T;
  try {
    result = await db.transaction().execute((t) => work((trx = t)));
  } catch (err) {
    announce(db, null);
    throw err;
  }
  const version = trx && bumps.get(trx);
  if (version) announce(db, version);
  return result;
}

function announce(db: Kysely<Database>, version: string | null): void {
  for (const listener of listeners.get(db) ?? []) listener(version);
}
