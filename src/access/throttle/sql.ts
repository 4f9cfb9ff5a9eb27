import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database, LoginAttempt } from '../../data/schema.js';
import { DEFAULT_THROTTLE, refusal, type LoginThrottle, type ThrottleDecision, type ThrottleSettings } from './interface.js';

/**
 * The throttle in the database, so every instance on one PostgreSQL shares it. Each attempt is one
 * upsert on the address's row: PostgreSQL locks the row, drops what left the window, and adds the
 * attempt only when both counts are under their limits (the WHERE of ON CONFLICT DO UPDATE sees the
 * locked, latest row). No read-then-write: parallel attempts queue on the row lock.
 */
export class SqlLoginThrottle implements LoginThrottle {
  private lastPruneMs = 0;

  constructor(
    private readonly db: Kysely<Database>,
    readonly settings: ThrottleSettings = DEFAULT_THROTTLE,
  ) {}

  async attempt(email: string, client: string, nowMs: number): Promise<ThrottleDecision> {
    const now = Math.floor(nowMs);
    const since = now - this.settings.windowMs;
    const ticket = randomBytes(8).toString('hex');
    const entry = JSON.stringify([{ e: email, t: now, n: ticket } satisfies LoginAttempt]);
    const live = sql`(select coalesce(jsonb_agg(a order by (a->>'t')::bigint), '[]'::jsonb) from jsonb_array_elements(t.attempts) a where (a->>'t')::bigint > ${since})`;
    const isLive = sql`(a->>'t')::bigint > ${since}`;
    const under = sql`(select count(*) from jsonb_array_elements(t.attempts) a where ${isLive}) < ${this.settings.perClient}
      and (select count(*) from jsonb_array_elements(t.attempts) a where ${isLive} and a->>'e' = ${email}) < ${this.settings.perEmailAndClient}`;
    // The update always runs (a refusal still drops what left the window), so RETURNING shows the
    // locked row as this attempt left it: counted when it holds the attempt's entry.
    const result = await sql<{ counted: boolean; attempts: LoginAttempt[] | string }>`
      insert into login_throttle as t (client, attempts, last_at)
      values (${client}, ${entry}::jsonb, ${now})
      on conflict (client) do update
        set attempts = case when ${under} then ${live} || ${entry}::jsonb else ${live} end,
            last_at = case when ${under} then ${now} else t.last_at end
      returning t.attempts @> ${entry}::jsonb as counted, t.attempts
    `.execute(this.db);
    this.maybePrune(now);
    const row = result.rows[0];
    if (row.counted) return { allowed: true, ticket };
    const attempts = (typeof row.attempts === 'string' ? JSON.parse(row.attempts) : row.attempts) as LoginAttempt[];
    const inWindow = attempts.filter((a) => a.t > since).sort((a, b) => a.t - b.t);
    return refusal(
      inWindow.map((a) => a.t),
      inWindow.filter((a) => a.e === email).map((a) => a.t),
      this.settings,
      now,
    );
  }

  async forgive(email: string, client: string, ticket: string, clearEmail: boolean): Promise<void> {
    const keep = clearEmail ? sql`a->>'e' <> ${email}` : sql`a->>'n' <> ${ticket}`;
    await sql`
      update login_throttle as t
      set attempts = (select coalesce(jsonb_agg(a order by (a->>'t')::bigint), '[]'::jsonb) from jsonb_array_elements(t.attempts) a where ${keep})
      where client = ${client}
    `.execute(this.db);
  }

  /** Rows of addresses idle for a whole window hold nothing; dropped at most once a minute, off the answer's path. */
  private maybePrune(now: number): void {
    if (now - this.lastPruneMs < 60_000) return;
    this.lastPruneMs = now;
    void this.db
      .deleteFrom('login_throttle')
      .where('last_at', '<=', now - this.settings.windowMs)
      .execute()
      .catch(() => {
        this.lastPruneMs = 0;
      });
  }

  async close(): Promise<void> {}
}
