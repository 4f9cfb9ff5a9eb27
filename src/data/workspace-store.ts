import { sql, type Kysely } from 'kysely';
import type { Db } from './db.js';
import { ensureShortlist } from './shortlist-store.js';
import { isoOfTimestamp as iso } from './timestamps.js';
import type { ActivityInsert, WorkspaceTables } from './workspace-tables.js';
import {
  ACTIVITY_SHOWN,
  LIST_ENTRIES_MAX,
  LISTS_MAX,
  type Activity,
  type Actor,
  type EntryNote,
  type EntryStatus,
  type ListEntry,
  type ListOwner,
  type ListSummary,
  type ShadowSquad,
  type WorkspaceStore,
} from '../domain/workspace.js';

type WDb = Kysely<WorkspaceTables>;

/** Appends to the organisation's feed, in the change's transaction; an account without one has none. */
export async function recordActivity(db: WDb, row: ActivityInsert): Promise<void> {
  await db.insertInto('org_activity').values(row).execute();
}

function ownerColumn(owner: ListOwner): ['org_id' | 'account_id', number] {
  return 'orgId' in owner ? ['org_id', owner.orgId] : ['account_id', owner.accountId];
}

/** The list's id when the owner holds it, locked for the rest of the transaction. */
async function lockList(trx: WDb, owner: ListOwner, listId: number): Promise<{ id: number; name: string } | undefined> {
  const [column, id] = ownerColumn(owner);
  return trx.selectFrom('lists').select(['id', 'name']).where('id', '=', listId).where(column, '=', id).forUpdate().executeTakeFirst();
}

async function touch(trx: WDb, listId: number): Promise<void> {
  await trx.updateTable('lists').set({ updated_at: sql<string>`now()` }).where('id', '=', listId).execute();
}

async function summaries(db: WDb, owner: ListOwner, listId?: number): Promise<ListSummary[]> {
  const [column, id] = ownerColumn(owner);
  let q = db
    .selectFrom('lists as l')
    .leftJoin('list_entries as e', 'e.list_id', 'l.id')
    .select((eb) => ['l.id', 'l.name', 'l.updated_at', eb.fn.count<number>('e.player_id').as('players')])
    .where(`l.${column}`, '=', id)
    .groupBy(['l.id', 'l.name', 'l.updated_at', 'l.kind'])
    // The shortlist first ('shortlist' > 'list'), then the lists as they were made.
    .orderBy('l.kind', 'desc')
    .orderBy('l.id');
  if (listId !== undefined) q = q.where('l.id', '=', listId);
  const rows = await q.execute();
  return rows.map((r) => ({ listId: r.id, name: r.name, players: Number(r.players), updatedAt: iso(r.updated_at) }));
}

async function entriesOf(db: WDb, listId: number, playerId?: string): Promise<ListEntry[]> {
  let eq = db.selectFrom('list_entries').select(['player_id', 'status', 'added_by', 'added_at']).where('list_id', '=', listId).orderBy('seq', 'desc');
  let nq = db.selectFrom('entry_notes').select(['player_id', 'author', 'text', 'at']).where('list_id', '=', listId).orderBy('id');
  if (playerId !== undefined) {
    eq = eq.where('player_id', '=', playerId);
    nq = nq.where('player_id', '=', playerId);
  }
  const [entries, notes] = await Promise.all([eq.execute(), nq.execute()]);
  const byPlayer = new Map<string, EntryNote[]>();
  for (const n of notes) {
    let list = byPlayer.get(n.player_id);
    if (!list) byPlayer.set(n.player_id, (list = []));
    list.push({ author: n.author, text: n.text, at: iso(n.at) });
  }
  return entries.map((e) => ({
    playerId: e.player_id,
    status: e.status as EntryStatus,
    addedBy: e.added_by,
    addedAt: iso(e.added_at),
    notes: byPlayer.get(e.player_id) ?? [],
  }));
}

function parseJsonColumn(v: unknown): unknown {
  // jsonb comes back parsed from both drivers; a string is tolerated for safety.
  return typeof v === 'string' ? JSON.parse(v) : v;
}

export function createWorkspaceStore(base: Db): WorkspaceStore {
  const db = base.withTables<WorkspaceTables>() as unknown as WDb;
  const log = async (trx: WDb, actor: Actor, row: Omit<ActivityInsert, 'org_id' | 'actor'>) => {
    if (actor.orgId !== null) await recordActivity(trx, { org_id: actor.orgId, actor: actor.email, ...row });
  };
  return {
    async lists(owner, actor) {
      if ('accountId' in owner) await ensureShortlist(db, owner.accountId, actor.email);
      return summaries(db, owner);
    },

    createList(owner, name, actor) {
      return db.transaction().execute(async (trx) => {
        const [column, id] = ownerColumn(owner);
        // Parallel creations are counted one after the other: the owner's lists are locked.
        await trx.selectFrom('lists').select('id').where(column, '=', id).forUpdate().execute();
        const { n } = await trx.selectFrom('lists').select((eb) => eb.fn.countAll<number>().as('n')).where(column, '=', id).executeTakeFirstOrThrow();
        if (Number(n) >= LISTS_MAX) return null;
        const row = await trx
          .insertInto('lists')
          .values({ org_id: 'orgId' in owner ? owner.orgId : null, account_id: 'accountId' in owner ? owner.accountId : null, name, created_by: actor.email })
          .returning(['id', 'name', 'updated_at'])
          .executeTakeFirstOrThrow();
        await log(trx, actor, { action: 'list_created', list_id: row.id, detail: `created the list ${name}` });
        return { listId: row.id, name: row.name, players: 0, updatedAt: iso(row.updated_at) };
      });
    },

    deleteList(owner, listId, actor) {
      return db.transaction().execute(async (trx) => {
        const list = await lockList(trx, owner, listId);
        if (!list) return false;
        await trx.deleteFrom('lists').where('id', '=', listId).execute();
        await log(trx, actor, { action: 'list_deleted', list_id: listId, detail: `deleted the list ${list.name}` });
        return true;
      });
    },

    async list(owner, listId) {
      const [summary] = await summaries(db, owner, listId);
      if (!summary) return null;
      return { summary, entries: await entriesOf(db, listId) };
    },

    putEntry(owner, listId, playerId, change, actor) {
      return db.transaction().execute(async (trx) => {
        const list = await lockList(trx, owner, listId);
        if (!list) return { ok: false as const, reason: 'no_list' as const };
        const existing = await trx.selectFrom('list_entries').select('status').where('list_id', '=', listId).where('player_id', '=', playerId).executeTakeFirst();
        const on = `on ${list.name}`;
        if (!existing) {
          const { n } = await trx.selectFrom('list_entries').select((eb) => eb.fn.countAll<number>().as('n')).where('list_id', '=', listId).executeTakeFirstOrThrow();
          if (Number(n) >= LIST_ENTRIES_MAX) return { ok: false as const, reason: 'full' as const };
          const status = change.status ?? 'watching';
          await trx.insertInto('list_entries').values({ list_id: listId, player_id: playerId, status, added_by: actor.email }).execute();
          await log(trx, actor, { action: 'entry_added', list_id: listId, player_id: playerId, detail: `added ${change.playerName} to ${list.name} as ${status}` });
        } else if (change.status !== undefined && change.status !== existing.status) {
          await trx.updateTable('list_entries').set({ status: change.status }).where('list_id', '=', listId).where('player_id', '=', playerId).execute();
          await log(trx, actor, {
            action: 'status_changed',
            list_id: listId,
            player_id: playerId,
            detail: `moved ${change.playerName} ${on} from ${existing.status} to ${change.status}`,
          });
        }
        if (change.note !== undefined) {
          await trx.insertInto('entry_notes').values({ list_id: listId, player_id: playerId, author: actor.email, text: change.note }).execute();
          await log(trx, actor, { action: 'note_added', list_id: listId, player_id: playerId, detail: `noted on ${change.playerName} ${on}: ${change.note}` });
        }
        await touch(trx, listId);
        const [entry] = await entriesOf(trx, listId, playerId);
        return { ok: true as const, entry: entry! };
      });
    },

    removeEntry(owner, listId, playerId, playerName, actor) {
      return db.transaction().execute(async (trx) => {
        const list = await lockList(trx, owner, listId);
        if (!list) return 'no_list' as const;
        const r = await trx.deleteFrom('list_entries').where('list_id', '=', listId).where('player_id', '=', playerId).executeTakeFirst();
        if (Number(r.numDeletedRows) === 0) return 'not_listed' as const;
        await touch(trx, listId);
        await log(trx, actor, { action: 'entry_removed', list_id: listId, player_id: playerId, detail: `removed ${playerName} from ${list.name}` });
        return 'removed' as const;
      });
    },

    async activity(orgId) {
      const rows = await db
        .selectFrom('org_activity')
        .select(['at', 'actor', 'action', 'list_id', 'player_id', 'detail'])
        .where('org_id', '=', orgId)
        .orderBy('id', 'desc')
        .limit(ACTIVITY_SHOWN)
        .execute();
      return rows.map((r): Activity => ({ at: iso(r.at), actor: r.actor, action: r.action, listId: r.list_id, playerId: r.player_id, detail: r.detail }));
    },

    async shadowSquad(orgId) {
      const row = await db.selectFrom('shadow_squads').select(['club_id', 'sell', 'targets']).where('org_id', '=', orgId).executeTakeFirst();
      if (!row) return null;
      return { clubId: row.club_id, sell: parseJsonColumn(row.sell) as ShadowSquad['sell'], targets: parseJsonColumn(row.targets) as ShadowSquad['targets'] };
    },

    saveShadowSquad(orgId, squad, actor) {
      return db.transaction().execute(async (trx) => {
        const values = { club_id: squad.clubId, sell: JSON.stringify(squad.sell), targets: JSON.stringify(squad.targets), updated_by: actor.email, updated_at: sql<string>`now()` };
        await trx
          .insertInto('shadow_squads')
          .values({ org_id: orgId, ...values })
          .onConflict((oc) => oc.column('org_id').doUpdateSet(values))
          .execute();
        await log(trx, actor, { action: 'shadow_squad_saved', detail: `saved the shadow squad: ${squad.sell.length} to sell, ${squad.targets.length} targets` });
        return squad;
      });
    },
  };
}
