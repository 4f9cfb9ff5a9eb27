import type { Kysely } from 'kysely';

/**
 * Attribute profiles from an external rating source (EA FC), one row per player and edition: what
 * /similar_players compares play styles on. A world table, written whole by replaceWorld, which
 * checks its player references in bulk (no row-by-row foreign key, as 006 explains).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('player_attributes')
    .addColumn('player_id', 'text', (c) => c.notNull())
    .addColumn('season', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('attributes', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('player_attributes_pk', ['player_id', 'season', 'source'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('player_attributes').execute();
}
