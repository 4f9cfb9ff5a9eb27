import { randomBytes } from 'node:crypto';
import type { Redis, RedisOptions } from 'ioredis';
import { fastFailRedis } from '../redis-client.js';
import type { RateDecision, RateLimiter, RateLimitSettings } from './interface.js';
import { checkLimit, secondsUntil } from './interface.js';

/**
 * The sliding log, run inside Redis so every instance sees one count. For each hit, in order and
 * atomically: trim what left the window, count, add the hit only when allowed, and return the timestamp
 * whose departure frees a slot. One call carries every hit that arrived in one turn of the event loop:
 * under load that is one script run and one round trip for many requests. The clock comes from the
 * caller so all instances and tests use the same time base as the in-memory store, and so does each
 * hit's limit (a plan's own), so instances sharing the store never need to agree on a setting.
 *   KEYS[i]        sorted set of subject i's accepted requests (score = ms)
 *   ARGV           window_ms, then now_ms, a unique member and the limit for each hit
 *   returns        allowed 0|1, count after the hit, freeing timestamp as string or '' — for each hit
 */
const SLIDING_LOG = `
local window = tonumber(ARGV[1])
local out = {}
for i = 1, #KEYS do
  local key = KEYS[i]
  local now = tonumber(ARGV[3 * i - 1])
  local limit = tonumber(ARGV[3 * i + 1])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local count = redis.call('ZCARD', key)
  local allowed = 0
  if count < limit then
    redis.call('ZADD', key, now, ARGV[3 * i])
    count = count + 1
    allowed = 1
  end
  local index = 0
  if allowed == 0 then index = count - limit end
  local freeing = redis.call('ZRANGE', key, index, index, 'WITHSCORES')
  redis.call('PEXPIRE', key, window)
  out[#out + 1] = allowed
  out[#out + 1] = count
  out[#out + 1] = freeing[2] or ''
end
return out
`;

/** Hits per script call; more waiting hits go in further calls of the same turn. */
const MAX_BATCH = 200;

interface SlidingLogRedis extends Redis {
  touchlineSlidingLog(keyCount: number, ...keysThenArgs: string[]): Promise<(number | string)[]>;
}

interface PendingHit {
  readonly key: string;
  readonly now: number;
  readonly member: string;
  readonly limit: number;
  readonly resolve: (d: RateDecision) => void;
  readonly reject: (err: unknown) => void;
}

export interface RedisLimiterOptions extends RateLimitSettings {
  /** Prefix of every key the limiter writes; one sorted set per subject. */
  keyPrefix?: string;
  /** A command that takes longer fails (and the fallback answers from memory). */
  commandTimeoutMs?: number;
  /** Extra ioredis options (tests). */
  redisOptions?: RedisOptions;
}

/** Rolling-window limiter shared by every instance through one Redis sorted set per subject. */
export class RedisRateLimiter implements RateLimiter {
  readonly client: SlidingLogRedis;
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly prefix: string;
  private readonly instance = randomBytes(6).toString('hex');
  private seq = 0;
  private pending: PendingHit[] = [];

  constructor(url: string, opts: RedisLimiterOptions) {
    checkLimit(opts.limit);
    this.limit = opts.limit;
    this.windowMs = opts.windowSeconds * 1000;
    this.prefix = opts.keyPrefix ?? 'touchline:rl:';
    // Fails fast while disconnected: the fallback answers from memory meanwhile.
    this.client = fastFailRedis(url, opts.commandTimeoutMs ?? 200, opts.redisOptions) as SlidingLogRedis;
    this.client.defineCommand('touchlineSlidingLog', { lua: SLIDING_LOG });
  }

  /** Connects once; rejects when Redis does not answer (ioredis keeps retrying in the background). */
  async connect(): Promise<void> {
    if (this.client.status === 'wait') await this.client.connect();
    await this.client.ping();
  }

  /** Queues the hit; every hit queued in this turn of the event loop goes to Redis in one call. */
  hit(subject: string, nowMs: number, limit = this.limit): Promise<RateDecision> {
    checkLimit(limit);
    const now = Math.floor(nowMs);
    const member = `${now}-${this.instance}-${(this.seq = (this.seq + 1) % Number.MAX_SAFE_INTEGER)}`;
    return new Promise((resolve, reject) => {
      this.pending.push({ key: this.prefix + subject, now, member, limit, resolve, reject });
      if (this.pending.length === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const waiting = this.pending;
    this.pending = [];
    for (let i = 0; i < waiting.length; i += MAX_BATCH) void this.send(waiting.slice(i, i + MAX_BATCH));
  }

  private async send(batch: PendingHit[]): Promise<void> {
    const args: string[] = batch.map((h) => h.key);
    args.push(String(this.windowMs));
    for (const h of batch) args.push(String(h.now), h.member, String(h.limit));
    let reply: (number | string)[];
    try {
      reply = await this.client.touchlineSlidingLog(batch.length, ...args);
    } catch (err) {
      for (const h of batch) h.reject(err);
      return;
    }
    batch.forEach((h, i) => h.resolve(this.decision(h.now, h.limit, Number(reply[3 * i]), Number(reply[3 * i + 1]), String(reply[3 * i + 2]))));
  }

  private decision(now: number, limit: number, allowed: number, count: number, freeing: string): RateDecision {
    const freeAt = freeing === '' ? null : Number(freeing) + this.windowMs;
    const wait = freeAt === null ? 0 : secondsUntil(freeAt, now);
    if (allowed === 1) {
      return { allowed: true, limit, remaining: Math.max(0, limit - count), resetSeconds: wait, retryAfterSeconds: 0 };
    }
    return { allowed: false, limit, remaining: 0, resetSeconds: wait, retryAfterSeconds: Math.max(1, wait) };
  }

  /** Resolves when Redis answers a PING within the command timeout. */
  async ping(): Promise<void> {
    await this.client.ping();
  }

  health(): 'ok' | 'degraded' {
    return this.client.status === 'ready' ? 'ok' : 'degraded';
  }

  async close(): Promise<void> {
    this.client.disconnect();
  }
}
