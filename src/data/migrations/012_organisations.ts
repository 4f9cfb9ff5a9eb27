import { type Kysely, sql } from 'kysely';
import { up as shortlistsUp } from './010_shortlists.js';

/**
 * Organisations, their members and roles, shared lists with statuses and notes, the activity feed
 * and each organisation's shadow squad (EXTENSIONS "Organisations, roles and shared lists", "Shadow
 * squad"). Members and authors are kept as emails: an answer names them so, and a removed member's
 * notes keep their author.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('organisations')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // The account is the key: an account belongs to at most one organisation.
  await db.schema
    .createTable('org_members')
    .addColumn('account_id', 'integer', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('owner', 'scout', 'viewer')`))
    .addColumn('added_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('org_members_org_idx').on('org_members').column('org_id').execute();

  await db.schema
    .createTable('lists')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('org_id', 'integer', (c) => c.references('organisations.id').onDelete('cascade'))
    .addColumn('account_id', 'integer', (c) => c.references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    // 'shortlist': the account's own list that /v1/shortlist reads and writes, one per account.
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('list').check(sql`kind in ('list', 'shortlist')`))
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // Owned by an organisation, or by an account that has none: exactly one of the two.
    .addCheckConstraint('lists_one_owner', sql`(org_id is null) <> (account_id is null)`)
    .execute();
  await db.schema.createIndex('lists_org_idx').on('lists').column('org_id').execute();
  await db.schema.createIndex('lists_account_idx').on('lists').column('account_id').execute();
  await db.schema.createIndex('lists_one_shortlist_idx').on('lists').column('account_id').unique().where(sql.ref('kind'), '=', 'shortlist').execute();

  await db.schema
    .createTable('list_entries')
    .addColumn('list_id', 'integer', (c) => c.notNull().references('lists.id').onDelete('cascade'))
    .addColumn('player_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('watching', 'scouted', 'offer', 'signed', 'dropped')`))
    .addColumn('added_by', 'text', (c) => c.notNull())
    .addColumn('added_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // Ties of one instant stay in the order they were added.
    .addColumn('seq', 'bigserial', (c) => c.notNull())
    .addPrimaryKeyConstraint('list_entries_pk', ['list_id', 'player_id'])
    .execute();

  await db.schema
    .createTable('entry_notes')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('list_id', 'integer', (c) => c.notNull())
    .addColumn('player_id', 'text', (c) => c.notNull())
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addForeignKeyConstraint('entry_notes_entry_fk', ['list_id', 'player_id'], 'list_entries', ['list_id', 'player_id'], (c) => c.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('entry_notes_entry_idx').on('entry_notes').columns(['list_id', 'player_id', 'id']).execute();

  // No foreign key to lists: the feed keeps the deletion of a list and what was done to it before.
  await db.schema
    .createTable('org_activity')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('list_id', 'integer')
    .addColumn('player_id', 'text')
    .addColumn('detail', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('org_activity_newest_idx').on('org_activity').columns(['org_id', 'id']).execute();

  await moveShortlists(db);

  await db.schema
    .createTable('shadow_squads')
    .addColumn('org_id', 'integer', (c) => c.primaryKey().references('organisations.id').onDelete('cascade'))
    .addColumn('club_id', 'text', (c) => c.notNull())
    .addColumn('sell', 'jsonb', (c) => c.notNull())
    .addColumn('targets', 'jsonb', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

/**
 * Round 3's shortlists become each account's list of kind 'shortlist', in their order: a note is the
 * entry's first note, by the account, at the time he was added.
 */
async function moveShortlists(db: Kysely<unknown>): Promise<void> {
  await sql`insert into lists (account_id, name, kind, created_by, created_at, updated_at)
    select s.account_id, 'Shortlist', 'shortlist', a.email, min(s.added_at), max(s.added_at)
    from shortlist_entries s join accounts a on a.id = s.account_id group by s.account_id, a.email`.execute(db);
  await sql`insert into list_entries (list_id, player_id, status, added_by, added_at)
    select l.id, s.player_id, 'watching', l.created_by, s.added_at
    from shortlist_entries s join lists l on l.account_id = s.account_id and l.kind = 'shortlist' order by s.seq`.execute(db);
  await sql`insert into entry_notes (list_id, player_id, author, text, at)
    select l.id, s.player_id, l.created_by, s.note, s.added_at
    from shortlist_entries s join lists l on l.account_id = s.account_id and l.kind = 'shortlist' where s.note is not null order by s.seq`.execute(db);
  await db.schema.dropTable('shortlist_entries').execute();
  // The old table's shape, read-only, for readers written against it (main's webhooks join it).
  await sql`create view shortlist_entries as
    select l.account_id, e.player_id,
      (select n.text from entry_notes n where n.list_id = e.list_id and n.player_id = e.player_id order by n.id desc limit 1) as note,
      e.added_at, e.seq
    from list_entries e join lists l on l.id = e.list_id where l.kind = 'shortlist'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop view shortlist_entries`.execute(db);
  for (const t of ['shadow_squads', 'org_activity', 'entry_notes', 'list_entries', 'lists', 'org_members', 'organisations']) {
    await db.schema.dropTable(t).execute();
  }
  // The shortlists' own table comes back empty: their entries went with the lists.
  await shortlistsUp(db);
}
