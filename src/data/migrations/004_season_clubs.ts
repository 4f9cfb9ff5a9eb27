import type { Kysely } from 'kysely';

/**
 * The operator's membership of a league in a season (`touchline leagues set-clubs`). Not a world
 * table: an import keeps it and it is not training data, so it has its own version in `meta`.
 * No foreign keys for the same reason: a re-import replaces clubs under the same stable ids.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('season_clubs')
    .addColumn('competition_id', 'text', (c) => c.notNull())
    .addColumn('season', 'integer', (c) => c.notNull())
    .addColumn('club_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('season_clubs_pk', ['competition_id', 'season', 'club_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('season_clubs').execute();
}
