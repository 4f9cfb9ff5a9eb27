import { sql } from 'kysely';
import type { Db } from './db.js';
import { WORLD_TABLE_ORDER } from '../domain/world.js';
import { STAGING_SCHEMA, tableOf, worldColumns } from './world-store.js';
import { WORLD_META_KEYS } from './update/previous.js';

/**
 * The staging copy of the world: an update (or a rollback) imports into it and trains on it while
 * every server answers from the live tables, then `swapInStaging` copies it over them in one
 * transaction. A killed update leaves the live tables as they were (and the staging copy behind,
 * which the next update drops first).
 */

/** Keys of `meta` a swap replaces: the world's description and its versions (never accounts', rates' or membership's). */
export const SWAPPED_META_KEYS: readonly string[] = [...WORLD_META_KEYS, 'data_version', 'ratings_version'];

/**
 * Drops what an earlier (perhaps killed) update left and makes an empty staging copy shaped like
 * the live tables (`like ... including all`: their columns, keys and indexes as the migrations
 * left them, so a later migration needs no staging counterpart).
 */
export async function createStaging(db: Db): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await dropStaging(trx);
    await sql`create schema ${sql.id(STAGING_SCHEMA)}`.execute(trx);
    for (const t of [...WORLD_TABLE_ORDER, 'meta']) {
      await sql`create table ${tableOf(t, 'staging')} (like ${sql.table(t)} including all)`.execute(trx);
    }
  });
}

export async function dropStaging(db: Db): Promise<void> {
  await sql`drop schema if exists ${sql.id(STAGING_SCHEMA)} cascade`.execute(db);
}

export async function hasStaging(db: Db): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from information_schema.schemata where schema_name = ${STAGING_SCHEMA}`.execute(db);
  return rows[0].n > 0;
}

/**
 * Replaces the live world and its meta keys with the staging copy in one transaction, then drops
 * the copy. Readers see the old world until it commits and the new one after; a reader that reads
 * table by table checks the versions around its reads (data/world-state.ts) so it never keeps half.
 */
export async function swapInStaging(db: Db): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${tableOf('meta', 'staging')} where key = 'data_version'`.execute(trx);
    if (rows[0].n === 0) throw new Error('the staging copy holds no world: nothing to swap in');
    await sql`truncate ${sql.join([...WORLD_TABLE_ORDER].reverse().map((t) => sql.table(t)))} cascade`.execute(trx);
    for (const t of WORLD_TABLE_ORDER) {
      const cols = sql.join(worldColumns(t).map((c) => sql.ref(c)));
      await sql`insert into ${sql.table(t)} (${cols}) select ${cols} from ${tableOf(t, 'staging')}`.execute(trx);
    }
    await trx.deleteFrom('meta').where('key', 'in', [...SWAPPED_META_KEYS]).execute();
    await sql`insert into meta (key, value) select key, value from ${tableOf('meta', 'staging')} where key in (${sql.join([...SWAPPED_META_KEYS])})`.execute(trx);
  });
  await dropStaging(db);
}
