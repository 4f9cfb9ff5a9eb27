import { type Kysely, sql } from 'kysely';

/** The current exchange-rate set: one row per currency, all of one date and source (EUR implicit). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('exchange_rates')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('rate_date', 'date', (c) => c.notNull())
    .addColumn('per_eur', 'double precision', (c) => c.notNull().check(sql`per_eur > 0`))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('imported_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('exchange_rates').execute();
}
