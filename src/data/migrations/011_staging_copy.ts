import { sql, type Kysely } from 'kysely';

/**
 * An update now imports into a staging copy (data/staging.ts, a schema made at each update) and
 * swaps it in at once; servers no longer hold back on an `update_pending` flag, so an older
 * version's leftover flag goes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`delete from meta where key = 'update_pending'`.execute(db);
}

export async function down(): Promise<void> {}
