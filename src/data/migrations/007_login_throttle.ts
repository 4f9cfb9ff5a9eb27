import { type Kysely, sql } from 'kysely';

/**
 * Failed logins per client address, one row per address: its attempts of the last 15 minutes as a
 * JSON array of {e: email, t: ms, n: nonce}. One row holds both counts (per email and address, per
 * address), so one upsert can check and count an attempt atomically under the row's lock.
 * Replaces `login_failures`, which counted per email alone and was read, then written.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('login_throttle')
    .addColumn('client', 'text', (c) => c.primaryKey())
    .addColumn('attempts', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('last_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_throttle_last_at_idx').on('login_throttle').column('last_at').execute();
  await db.schema.dropTable('login_failures').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('login_throttle').execute();
  await db.schema
    .createTable('login_failures')
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_failures_email_at_idx').on('login_failures').columns(['email', 'at']).execute();
}
