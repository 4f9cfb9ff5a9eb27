import type { Kysely } from 'kysely';

/** What each of our ratings rests on: `ea` (a published rating as released) or `estimated`; null for external rows. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('ratings').addColumn('basis', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('ratings').dropColumn('basis').execute();
}
