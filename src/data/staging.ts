import { sql } from 'kysely';
import type { Db } from './db.js';
import { WORLD_TABLE_ORDER } from '../domain/world.js';
import { STAGING_SCHEMA, tableOf } from './world-store.js';
import { WORLD_META_KEYS } from './world-store.js';

/**
 * The staging copy of the world: an update (or a rollback) imports into it and trains on it while
 * every server answers from the live tables, then `swapInStaging` puts it in their place in one
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

/** A table's indexes in a schema: its definition without the index's and the table's names -> the index's name. */
async function indexesOf(db: Db, schema: string, table: string): Promise<Map<string, string>> {
  const { rows } = await sql<{ name: string; def: string }>`select indexname as name, indexdef as def from pg_indexes where schemaname = ${schema} and tablename = ${table}`.execute(db);
  return new Map(rows.map((r) => [r.def.replace(/INDEX \S+ ON \S+/, 'INDEX ON'), r.name]));
}

/**
 * Puts the staging copy in place of the live world in one transaction, by renaming rather than
 * copying (about 30 s on the real data with the embedded database, during which it answers nothing
 * else, against milliseconds): each live world table is dropped and its staging twin moved into the
 * live schema, its indexes renamed to the names the migrations gave (so a later migration finds
 * them), and the meta keys of the world replaced. Readers see the old world until it commits and
 * the new one after; a reader that reads table by table checks the versions around its reads
 * (data/world-state.ts) so it never keeps half of each. The staging schema is dropped afterwards.
 */
export async function swapInStaging(db: Db): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${tableOf('meta', 'staging')} where key = 'data_version'`.execute(trx);
    if (rows[0].n === 0) throw new Error('the staging copy holds no world: nothing to swap in');
    const live = (await sql<{ s: string }>`select current_schema() as s`.execute(trx)).rows[0].s;
    for (const t of WORLD_TABLE_ORDER) {
      const wanted = await indexesOf(trx, live, t);
      const staged = await indexesOf(trx, STAGING_SCHEMA, t);
      // No cascade: nothing may depend on a world table (migration 006 dropped the foreign keys); if something did, the swap fails whole.
      await sql`drop table ${sql.table(t)}`.execute(trx);
      await sql`alter table ${tableOf(t, 'staging')} set schema ${sql.id(live)}`.execute(trx);
      // Two passes, so that no rename meets a name another index of the table still holds.
      const renames = [...staged].flatMap(([def, name], i) => (wanted.has(def) && wanted.get(def) !== name ? [{ name, temp: `touchline_swap_${t}_${i}`, want: wanted.get(def)! }] : []));
      for (const r of renames) await sql`alter index ${sql.id(live, r.name)} rename to ${sql.id(r.temp)}`.execute(trx);
      for (const r of renames) await sql`alter index ${sql.id(live, r.temp)} rename to ${sql.id(r.want)}`.execute(trx);
    }
    await trx.deleteFrom('meta').where('key', 'in', [...SWAPPED_META_KEYS]).execute();
    await sql`insert into meta (key, value) select key, value from ${tableOf('meta', 'staging')} where key in (${sql.join([...SWAPPED_META_KEYS])})`.execute(trx);
  });
  await dropStaging(db);
}
