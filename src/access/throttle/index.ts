import { LRUCache } from 'lru-cache';
import type { Kysely } from 'kysely';
import type { Database } from '../../data/schema.js';
import { DEFAULT_THROTTLE, refused, type LoginThrottle, type ThrottleDecision, type ThrottleSettings } from './interface.js';
import { RedisLoginThrottle } from './redis.js';
import { SqlLoginThrottle } from './sql.js';

export { DEFAULT_THROTTLE, type LoginThrottle, type ThrottleDecision, type ThrottleSettings } from './interface.js';
export { RedisLoginThrottle } from './redis.js';
export { SqlLoginThrottle } from './sql.js';

/**
 * Redis while it answers, else the database: both are shared by every instance, both count
 * atomically, so a Redis outage neither opens the door nor locks everyone out. Counts made in one
 * store are not seen by the other, so an outage can at most double a budget for its duration.
 */
class FallbackLoginThrottle implements LoginThrottle {
  constructor(
    private readonly redis: RedisLoginThrottle,
    private readonly sqlStore: SqlLoginThrottle,
  ) {}

  get settings(): ThrottleSettings {
    return this.redis.settings;
  }

  async attempt(email: string, client: string, nowMs: number): Promise<ThrottleDecision> {
    if (this.redis.isReady()) {
      try {
        const d = await this.redis.attempt(email, client, nowMs);
        return d.allowed ? { allowed: true, ticket: `r:${d.ticket}` } : d;
      } catch {
        // Redis failed mid-command: the database counts this one.
      }
    }
    const d = await this.sqlStore.attempt(email, client, nowMs);
    return d.allowed ? { allowed: true, ticket: `s:${d.ticket}` } : d;
  }

  async forgive(email: string, client: string, ticket: string, clearEmail: boolean): Promise<void> {
    const store = ticket.startsWith('r:') ? this.redis : this.sqlStore;
    await store.forgive(email, client, ticket.slice(2), clearEmail);
  }

  async close(): Promise<void> {
    await this.redis.close();
  }
}

/**
 * Remembers, in this instance, when a refused (address, email) or address is free again, and refuses
 * further attempts until then without asking the store: a sustained attack costs one store call per
 * lock, not one per guess. Sound because a lock only lifts with time: a refused attempt changes no
 * count, and forgiving needs a counted attempt, which a locked pair cannot make.
 */
export class RefusalMemo implements LoginThrottle {
  private readonly until: LRUCache<string, { limit: number; freeAtMs: number }>;
  /** Attempts refused since the start, and refusals answered from this memo and asked of the store (the metrics read them). */
  readonly counts = { refused: 0, memo: { hits: 0, misses: 0 } };

  constructor(
    private readonly inner: LoginThrottle,
    maxEntries = 100_000,
  ) {
    this.until = new LRUCache({ max: maxEntries });
  }

  get settings(): ThrottleSettings {
    return this.inner.settings;
  }

  async attempt(email: string, client: string, nowMs: number): Promise<ThrottleDecision> {
    for (const key of [`${client}\n`, `${client}\n${email}`]) {
      const held = this.until.get(key);
      if (!held) continue;
      if (held.freeAtMs > nowMs) {
        this.counts.refused++;
        this.counts.memo.hits++;
        return refused(held.limit, held.freeAtMs, nowMs);
      }
      this.until.delete(key);
    }
    this.counts.memo.misses++;
    const d = await this.inner.attempt(email, client, nowMs);
    if (!d.allowed) {
      this.counts.refused++;
      // Per address when that rule binds, else per address and email.
      const wide = d.limit === this.settings.perClient && d.limit !== this.settings.perEmailAndClient;
      this.until.set(wide ? `${client}\n` : `${client}\n${email}`, { limit: d.limit, freeAtMs: d.freeAtMs });
    }
    return d;
  }

  forgive(email: string, client: string, ticket: string, clearEmail: boolean): Promise<void> {
    return this.inner.forgive(email, client, ticket, clearEmail);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

export interface CreateThrottleOptions {
  redisUrl?: string;
  keyPrefix?: string;
  settings?: ThrottleSettings;
}

/** With REDIS_URL: Redis, falling back to the database while it does not answer; without: the database. */
export async function createLoginThrottle(db: Kysely<Database>, opts: CreateThrottleOptions = {}): Promise<RefusalMemo> {
  const settings = opts.settings ?? DEFAULT_THROTTLE;
  const sqlStore = new SqlLoginThrottle(db, settings);
  if (!opts.redisUrl) return new RefusalMemo(sqlStore);
  const redis = new RedisLoginThrottle(opts.redisUrl, settings, { keyPrefix: opts.keyPrefix });
  await redis.connect().catch(() => {});
  return new RefusalMemo(new FallbackLoginThrottle(redis, sqlStore));
}
