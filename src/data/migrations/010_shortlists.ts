import { type Kysely, sql } from 'kysely';

/** Each account's shortlist of players (EXTENSIONS "Shortlists"): one row per account and player. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('shortlist_entries')
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('player_id', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('added_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // Ties of one instant stay in the order they were added.
    .addColumn('seq', 'bigserial', (c) => c.notNull())
    .addPrimaryKeyConstraint('shortlist_entries_pk', ['account_id', 'player_id'])
    .execute();
  await db.schema.createIndex('shortlist_entries_newest_idx').on('shortlist_entries').columns(['account_id', 'seq']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('shortlist_entries').execute();
}
