import { sql } from 'kysely';
import type { Db } from './db.js';

/**
 * Drops the keys (primary and unique constraints) and other indexes of tables about to be filled in
 * bulk, and returns what makes them again under the same names and definitions. PostgreSQL builds
 * an index by one sort far faster than it maintains it row by row: keeping them cost a third of the
 * real import's store CPU (9.8 against 6.7 s, docs/import.md "Measured"). DDL is transactional, so a
 * failure before the rebuild leaves the keys as they were; a duplicate now fails the rebuild,
 * naming the key and the duplicated value.
 *
 * `tables` are names as regclass reads them (`players`, `touchline_staging.players`).
 */
export async function dropKeysForBulkLoad(db: Db, tables: readonly string[]): Promise<() => Promise<void>> {
  const names = sql`${[...tables]}::text[]::regclass[]`;
  // Definitions read before anything is dropped; regclass prints a name the same session resolves again.
  const { rows } = await sql<{ drop: string; make: string }>`
    select format('alter table %s drop constraint %I', c.conrelid::regclass, c.conname) as drop,
           format('alter table %s add constraint %I %s', c.conrelid::regclass, c.conname, pg_get_constraintdef(c.oid)) as make
      from pg_constraint c
     where c.conrelid = any(${names}) and c.contype in ('p', 'u')
    union all
    select format('drop index %s', i.indexrelid::regclass), pg_get_indexdef(i.indexrelid)
      from pg_index i
     where i.indrelid = any(${names}) and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid and c.conrelid = i.indrelid)
  `.execute(db);
  for (const r of rows) await sql.raw(r.drop).execute(db);
  return async () => {
    for (const r of rows) await sql.raw(r.make).execute(db);
  };
}
