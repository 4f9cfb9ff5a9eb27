import { type Kysely, sql } from 'kysely';

/**
 * A plan's own rolling limit: accepted requests per key in the `RATE_WINDOW_SECONDS` window.
 * Null keeps the `RATE_LIMIT` setting, so existing plans behave as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('plans')
    .addColumn('rate_limit', 'integer', (c) => c.check(sql`rate_limit > 0`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('plans').dropColumn('rate_limit').execute();
}
