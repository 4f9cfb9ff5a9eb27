import { randomBytes } from 'node:crypto';
import type { ColumnType, Generated } from 'kysely';
import { sql } from 'kysely';
import type { Db } from './db.js';
import { isoOfTimestamp } from './timestamps.js';
import { DELIVERIES_LISTED, type Delivery, type DeliveryStatus, type Webhook, type WebhookEventType } from '../domain/webhooks.js';

/** Rows of migration 013; kept here so schema.ts need not know webhooks. */
interface WebhooksTable {
  id: string;
  account_id: number;
  url: string;
  events: ColumnType<WebhookEventType[], string, string>;
  secret: string;
  created_at: ColumnType<string, string | undefined, never>;
  seq: Generated<number>;
}
interface WebhookEventsTable {
  id: string;
  type: WebhookEventType;
  data: ColumnType<unknown, string, string>;
  data_version: string | null;
  dedupe_key: string | null;
  created_at: ColumnType<string, string | undefined, never>;
}
interface WebhookDeliveriesTable {
  id: Generated<string>;
  webhook_id: string;
  event_id: string;
  status: ColumnType<DeliveryStatus, DeliveryStatus | undefined, DeliveryStatus>;
  attempts: ColumnType<number, number | undefined, number>;
  status_code: number | null;
  error: string | null;
  next_attempt_at: ColumnType<string, string | undefined, string>;
  last_attempt_at: string | null;
  locked_until: string | null;
  created_at: ColumnType<string, string | undefined, never>;
}
type Tables = { webhooks: WebhooksTable; webhook_events: WebhookEventsTable; webhook_deliveries: WebhookDeliveriesTable };

const tables = (db: Db) => db.withTables<Tables>();

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url')}`;

function toWebhook(r: { id: string; url: string; events: WebhookEventType[]; created_at: string }): Webhook {
  return { id: r.id, url: r.url, events: r.events, createdAt: isoOfTimestamp(r.created_at) };
}

/** An event to announce: to every webhook subscribed to its type, or only to one account's. */
export interface NewEvent {
  readonly type: WebhookEventType;
  readonly data: unknown;
  /** For data.updated: the data version it announces. */
  readonly dataVersion?: string;
  /** Several instances raising the same event: only the first insert makes deliveries. */
  readonly dedupeKey?: string;
  /** Only this webhook's (e.g. a change on its account's lists). */
  readonly webhookId?: string;
}

/** A delivery claimed for sending, with what the request needs. */
export interface DueDelivery {
  readonly id: string;
  readonly attempts: number;
  readonly url: string;
  readonly secret: string;
  readonly eventId: string;
  readonly type: WebhookEventType;
  readonly data: unknown;
  readonly dataVersion: string | null;
  /** ISO 8601 */
  readonly eventCreatedAt: string;
}

export function createWebhookStore(base: Db) {
  const db = tables(base);
  return {
    async insert(accountId: number, url: string, events: readonly WebhookEventType[], max: number): Promise<{ webhook: Webhook; secret: string } | null> {
      // the count and the insert under one lock of the account's row, so parallel calls cannot pass the cap
      return db.transaction().execute(async (trx) => {
        await sql`select id from accounts where id = ${accountId} for update`.execute(trx);
        const { n } = await trx.selectFrom('webhooks').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', accountId).executeTakeFirstOrThrow();
        if (Number(n) >= max) return null;
        const secret = `whsec_${randomBytes(24).toString('base64url')}`;
        const row = await trx
          .insertInto('webhooks')
          .values({ id: newId('wh'), account_id: accountId, url, events: JSON.stringify(events), secret })
          .returning(['id', 'url', 'events', 'created_at'])
          .executeTakeFirstOrThrow();
        return { webhook: toWebhook(row), secret };
      });
    },

    async list(accountId: number): Promise<Webhook[]> {
      const rows = await db.selectFrom('webhooks').select(['id', 'url', 'events', 'created_at']).where('account_id', '=', accountId).orderBy('seq').execute();
      return rows.map(toWebhook);
    },

    async remove(accountId: number, webhookId: string): Promise<boolean> {
      const r = await db.deleteFrom('webhooks').where('account_id', '=', accountId).where('id', '=', webhookId).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },

    async deliveries(accountId: number, webhookId: string): Promise<Delivery[] | null> {
      const owned = await db.selectFrom('webhooks').select('id').where('account_id', '=', accountId).where('id', '=', webhookId).executeTakeFirst();
      if (!owned) return null;
      const rows = await db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
        .select(['d.id', 'd.event_id', 'e.type', 'd.status', 'd.status_code', 'd.attempts', 'd.error', 'e.created_at', 'd.last_attempt_at', 'd.next_attempt_at'])
        .where('d.webhook_id', '=', webhookId)
        .orderBy('d.id', 'desc')
        .limit(DELIVERIES_LISTED)
        .execute();
      return rows.map((r) => ({
        id: String(r.id), eventId: r.event_id, event: r.type, status: r.status, statusCode: r.status_code, attempts: r.attempts, error: r.error,
        createdAt: isoOfTimestamp(r.created_at), lastAttemptAt: r.last_attempt_at === null ? null : isoOfTimestamp(r.last_attempt_at), nextAttemptAt: r.status === 'pending' ? isoOfTimestamp(r.next_attempt_at) : null,
      }));
    },
  };
}

export type WebhookStore = ReturnType<typeof createWebhookStore>;

/**
 * Stores the event and a pending delivery for each webhook subscribed to it, in one transaction.
 * Returns the deliveries made: 0 when another instance raised the same event first, or nobody listens.
 */
export async function enqueueEvent(base: Db, e: NewEvent): Promise<number> {
  const db = tables(base);
  return db.transaction().execute(async (trx) => {
    const id = newId('evt');
    const inserted = await trx
      .insertInto('webhook_events')
      .values({ id, type: e.type, data: JSON.stringify(e.data), data_version: e.dataVersion ?? null, dedupe_key: e.dedupeKey ?? null })
      .onConflict((oc) => oc.column('dedupe_key').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) return 0;
    let hooks = trx.selectFrom('webhooks').select('id').where(sql<boolean>`events @> ${JSON.stringify([e.type])}::jsonb`);
    if (e.webhookId) hooks = hooks.where('id', '=', e.webhookId);
    const ids = (await hooks.execute()).map((h) => h.id);
    if (!ids.length) return 0;
    await trx.insertInto('webhook_deliveries').values(ids.map((webhook_id) => ({ webhook_id, event_id: id }))).execute();
    return ids.length;
  });
}

/**
 * Claims up to `limit` deliveries that are due, for `leaseMs`: another instance skips them meanwhile
 * (and takes them over if this one dies before recording the attempt).
 */
export async function claimDueDeliveries(base: Db, limit: number, leaseMs: number): Promise<DueDelivery[]> {
  const rows = await sql<{ id: string; attempts: number; url: string; secret: string; event_id: string; type: WebhookEventType; data: unknown; data_version: string | null; event_created_at: string | Date }>`
    with due as (
      select id from webhook_deliveries
      where status = 'pending' and next_attempt_at <= now() and (locked_until is null or locked_until < now())
      order by next_attempt_at, id
      limit ${limit}
      for update skip locked
    )
    update webhook_deliveries d set locked_until = now() + make_interval(secs => ${leaseMs / 1000})
    from due, webhooks w, webhook_events e
    where d.id = due.id and w.id = d.webhook_id and e.id = d.event_id
    returning d.id, d.attempts, w.url, w.secret, e.id as event_id, e.type, e.data, e.data_version, e.created_at as event_created_at`.execute(base);
  return rows.rows.map((r) => ({
    id: String(r.id), attempts: r.attempts, url: r.url, secret: r.secret, eventId: r.event_id, type: r.type,
    data: typeof r.data === 'string' ? (JSON.parse(r.data) as unknown) : r.data, dataVersion: r.data_version, eventCreatedAt: isoOfTimestamp(r.event_created_at),
  }));
}

/** What one attempt came to: delivered, retried at `retryAt`, or given up (retryAt null). */
export interface AttemptResult {
  readonly delivered: boolean;
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly retryAt: Date | null;
}

export async function recordAttempt(base: Db, deliveryId: string, r: AttemptResult): Promise<void> {
  const status: DeliveryStatus = r.delivered ? 'delivered' : r.retryAt ? 'pending' : 'failed';
  await tables(base)
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      status,
      attempts: eb('attempts', '+', 1),
      status_code: r.statusCode,
      error: r.error,
      last_attempt_at: sql<string>`now()`,
      next_attempt_at: r.retryAt ? r.retryAt.toISOString() : sql<string>`next_attempt_at`,
      locked_until: null,
    }))
    .where('id', '=', deliveryId)
    .execute();
}

/** Gives a claimed delivery back untouched, due at `at` (an instance that does not serve its data yet). */
export async function releaseDelivery(base: Db, deliveryId: string, at: Date): Promise<void> {
  await tables(base).updateTable('webhook_deliveries').set({ locked_until: null, next_attempt_at: at.toISOString() }).where('id', '=', deliveryId).execute();
}

/**
 * The ids of the players on the lists each webhook's account sees (its own lists, the Shortlist among
 * them, and its organisation's shared lists), by webhook, for the webhooks listening for `type`.
 */
export async function listenersWithListedPlayers(base: Db, type: WebhookEventType): Promise<Map<string, string[]>> {
  const rows = await sql<{ webhook_id: string; player_id: string }>`
    select distinct w.id as webhook_id, e.player_id
    from webhooks w
    left join org_members m on m.account_id = w.account_id
    join lists l on l.account_id = w.account_id or (m.org_id is not null and l.org_id = m.org_id)
    join list_entries e on e.list_id = l.id
    where w.events @> ${JSON.stringify([type])}::jsonb
    order by w.id, e.player_id`.execute(base);
  const out = new Map<string, string[]>();
  for (const r of rows.rows) {
    const list = out.get(r.webhook_id) ?? [];
    list.push(r.player_id);
    out.set(r.webhook_id, list);
  }
  return out;
}
