import { sql, type Kysely } from 'kysely';
import type { Db } from './db.js';
import type { Database } from './schema.js';
import { isoOfTimestamp as iso } from './timestamps.js';
import type { WorkspaceTables } from './workspace-tables.js';
import { SHORTLIST_MAX, type ShortlistEntry, type ShortlistStore } from '../domain/shortlist.js';

export { SHORTLIST_MAX };

/** The tables the shortlist lives in since migration 012: the account's list of kind 'shortlist'. */
type SDb = Kysely<WorkspaceTables & Pick<Database, 'accounts'>>;

export const SHORTLIST_NAME = 'Shortlist';

/** The account's shortlist's id, made when it has none (an account without an organisation sees it in /v1/lists). */
export async function ensureShortlist(db: Kysely<WorkspaceTables>, accountId: number, email: string): Promise<number> {
  await db
    .insertInto('lists')
    .values({ account_id: accountId, org_id: null, name: SHORTLIST_NAME, kind: 'shortlist', created_by: email })
    .onConflict((oc) => oc.column('account_id').where('kind', '=', 'shortlist').doNothing())
    .execute();
  const row = await db.selectFrom('lists').select('id').where('account_id', '=', accountId).where('kind', '=', 'shortlist').executeTakeFirstOrThrow();
  return row.id;
}

async function shortlistId(db: SDb, accountId: number): Promise<number | undefined> {
  return (await db.selectFrom('lists').select('id').where('account_id', '=', accountId).where('kind', '=', 'shortlist').executeTakeFirst())?.id;
}

/**
 * Entries with their latest note: the round-3 answer's one note is the last written (a note sent
 * again replaced it; on the shared list it is appended, so the history stays).
 */
async function entries(db: SDb, listId: number, playerId?: string): Promise<ShortlistEntry[]> {
  let q = db
    .selectFrom('list_entries as e')
    .select((eb) => [
      'e.player_id',
      'e.added_at',
      eb
        .selectFrom('entry_notes as n')
        .select('n.text')
        .whereRef('n.list_id', '=', 'e.list_id')
        .whereRef('n.player_id', '=', 'e.player_id')
        .orderBy('n.id', 'desc')
        .limit(1)
        .as('note'),
    ])
    .where('e.list_id', '=', listId)
    .orderBy('e.seq', 'desc');
  if (playerId !== undefined) q = q.where('e.player_id', '=', playerId);
  const rows = await q.execute();
  return rows.map((r) => ({ playerId: r.player_id, note: r.note ?? null, addedAt: iso(r.added_at) }));
}

export function createShortlistStore(base: Db): ShortlistStore {
  const db = base.withTables<WorkspaceTables>() as unknown as SDb;
  return {
    async list(accountId) {
      const id = await shortlistId(db, accountId);
      return id === undefined ? [] : entries(db, id);
    },
    async add(accountId, playerId, note) {
      // The count and the insert under one lock of the account's row, so parallel adds cannot pass 500.
      return db.transaction().execute(async (trx) => {
        await sql`select id from accounts where id = ${accountId} for update`.execute(trx);
        const { email } = await trx.selectFrom('accounts').select('email').where('id', '=', accountId).executeTakeFirstOrThrow();
        const listId = await ensureShortlist(trx as unknown as Kysely<WorkspaceTables>, accountId, email);
        const existing = await trx.selectFrom('list_entries').select('player_id').where('list_id', '=', listId).where('player_id', '=', playerId).executeTakeFirst();
        if (!existing) {
          const { n } = await trx.selectFrom('list_entries').select((eb) => eb.fn.countAll<number>().as('n')).where('list_id', '=', listId).executeTakeFirstOrThrow();
          if (Number(n) >= SHORTLIST_MAX) return { ok: false as const, reason: 'full' as const };
          await trx.insertInto('list_entries').values({ list_id: listId, player_id: playerId, status: 'watching', added_by: email }).execute();
        }
        if (note !== undefined) await trx.insertInto('entry_notes').values({ list_id: listId, player_id: playerId, author: email, text: note }).execute();
        if (!existing || note !== undefined) await trx.updateTable('lists').set({ updated_at: sql<string>`now()` }).where('id', '=', listId).execute();
        const [entry] = await entries(trx, listId, playerId);
        return { ok: true as const, entry: entry! };
      });
    },
    async remove(accountId, playerId) {
      const id = await shortlistId(db, accountId);
      if (id === undefined) return false;
      const r = await db.deleteFrom('list_entries').where('list_id', '=', id).where('player_id', '=', playerId).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}
