import { sql, type Kysely } from 'kysely';

/**
 * The world is only ever written whole, by replaceWorld, which checks every reference in one
 * set-based query before it commits. Row-by-row foreign-key triggers cost more than half of the
 * demo world's store time on the embedded database (8 of 14 s of CPU), so they go.
 */
const WORLD_TABLES = ['club_seasons', 'players', 'contracts', 'career_steps', 'appearances', 'market_values', 'transfers', 'ratings', 'matches'];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of WORLD_TABLES) {
    const { rows } = await sql<{ conname: string }>`select conname from pg_constraint where conrelid = ${table}::regclass and contype = 'f'`.execute(db);
    for (const { conname } of rows) await db.schema.alterTable(table).dropConstraint(conname).execute();
  }
}
