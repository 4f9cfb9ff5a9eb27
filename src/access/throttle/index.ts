import type { Kysely } from 'kysely';
import type { Database } from '../../data/schema.js';
import { DEFAULT_THROTTLE, type LoginThrottle, type ThrottleDecision, type ThrottleSettings } from './interface.js';
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

export interface CreateThrottleOptions {
  redisUrl?: string;
  keyPrefix?: string;
  settings?: ThrottleSettings;
}

/** With REDIS_URL: Redis, falling back to the database while it does not answer; without: the database. */
export async function createLoginThrottle(db: Kysely<Database>, opts: CreateThrottleOptions = {}): Promise<LoginThrottle> {
  const settings = opts.settings ?? DEFAULT_THROTTLE;
  const sqlStore = new SqlLoginThrottle(db, settings);
  if (!opts.redisUrl) return sqlStore;
  const redis = new RedisLoginThrottle(opts.redisUrl, settings, { keyPrefix: opts.keyPrefix });
  await redis.connect().catch(() => {});
  return new FallbackLoginThrottle(redis, sqlStore);
}
