import type { ColumnType, Generated } from 'kysely';
import { sql } from 'kysely';
import type { Db } from './db.js';
import { isoOfTimestamp as iso } from './timestamps.js';
import { SHORTLIST_MAX, type ShortlistEntry, type ShortlistStore } from '../domain/shortlist.js';

export { SHORTLIST_MAX };

/** Row of `shortlist_entries` (migration 009); kept here so schema.ts need not know shortlists. */
interface ShortlistEntriesTable {
  account_id: number;
  player_id: string;
  note: string | null;
  added_at: ColumnType<string, string | undefined, never>;
  seq: Generated<number>;
}

function toEntry(r: { player_id: string; note: string | null; added_at: string }): ShortlistEntry {
  return { playerId: r.player_id, note: r.note, addedAt: iso(r.added_at) };
}

export function createShortlistStore(base: Db): ShortlistStore {
  const db = base.withTables<{ shortlist_entries: ShortlistEntriesTable }>();
  return {
    async list(accountId) {
      const rows = await db
        .selectFrom('shortlist_entries')
        .select(['player_id', 'note', 'added_at'])
        .where('account_id', '=', accountId)
        .orderBy('seq', 'desc')
        .execute();
      return rows.map(toEntry);
    },
    async add(accountId, playerId, note) {
      // The count and the insert under one lock of the account's row, so parallel adds cannot pass 500.
      return db.transaction().execute(async (trx) => {
        await sql`select id from accounts where id = ${accountId} for update`.execute(trx);
        const existing = await trx
          .selectFrom('shortlist_entries')
          .select(['player_id', 'note', 'added_at'])
          .where('account_id', '=', accountId)
          .where('player_id', '=', playerId)
          .executeTakeFirst();
        if (existing) {
          if (note === undefined) return { ok: true as const, entry: toEntry(existing) };
          const row = await trx
            .updateTable('shortlist_entries')
            .set({ note })
            .where('account_id', '=', accountId)
            .where('player_id', '=', playerId)
            .returning(['player_id', 'note', 'added_at'])
            .executeTakeFirstOrThrow();
          return { ok: true as const, entry: toEntry(row) };
        }
        const { n } = await trx
          .selectFrom('shortlist_entries')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('account_id', '=', accountId)
          .executeTakeFirstOrThrow();
        if (Number(n) >= SHORTLIST_MAX) return { ok: false as const, reason: 'full' as const };
        const row = await trx
          .insertInto('shortlist_entries')
          .values({ account_id: accountId, player_id: playerId, note: note ?? null })
          .returning(['player_id', 'note', 'added_at'])
          .executeTakeFirstOrThrow();
        return { ok: true as const, entry: toEntry(row) };
      });
    },
    async remove(accountId, playerId) {
      const r = await db
        .deleteFrom('shortlist_entries')
        .where('account_id', '=', accountId)
        .where('player_id', '=', playerId)
        .executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}
