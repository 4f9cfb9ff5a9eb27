import { randomBytes } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import type { RateDecision, RateLimiter, RateLimitSettings } from './interface.js';
import { secondsUntil } from './interface.js';

/**
 * One atomic step of the sliding log, run inside Redis so every instance sees one count:
 * trim what left the window, count, add this request only when allowed, and return the timestamp
 * whose departure frees a slot. The clock comes from the caller (ARGV[1]) so all instances and tests
 * use the same time base as the in-memory store.
 *   KEYS[1] sorted set of accepted requests (score = ms)
 *   ARGV    now_ms, window_ms, limit, unique member
 *   returns {allowed 0|1, count after this request, freeing timestamp as string or ''}
 */
const SLIDING_LOG = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
local allowed = 0
if count < limit then
  redis.call('ZADD', key, now, ARGV[4])
  count = count + 1
  allowed = 1
end
local index = 0
if allowed == 0 then index = count - limit end
local freeing = redis.call('ZRANGE', key, index, index, 'WITHSCORES')
redis.call('PEXPIRE', key, window)
return {allowed, count, freeing[2] or ''}
`;

interface SlidingLogRedis extends Redis {
  touchlineSlidingLog(key: string, now: string, windowMs: string, limit: string, member: string): Promise<[number, number, string]>;
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

  constructor(url: string, opts: RedisLimiterOptions) {
    this.limit = opts.limit;
    this.windowMs = opts.windowSeconds * 1000;
    this.prefix = opts.keyPrefix ?? 'touchline:rl:';
    this.client = new Redis(url, {
      lazyConnect: true,
      // Fail fast instead of queueing while disconnected: the fallback answers from memory meanwhile.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: opts.commandTimeoutMs ?? 200,
      connectTimeout: 1_000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
      ...opts.redisOptions,
    }) as SlidingLogRedis;
    this.client.defineCommand('touchlineSlidingLog', { numberOfKeys: 1, lua: SLIDING_LOG });
  }

  /** Connects once; rejects when Redis does not answer (ioredis keeps retrying in the background). */
  async connect(): Promise<void> {
    if (this.client.status === 'wait') await this.client.connect();
    await this.client.ping();
  }

  async hit(subject: string, nowMs: number): Promise<RateDecision> {
    const now = Math.floor(nowMs);
    const member = `${now}-${this.instance}-${(this.seq = (this.seq + 1) % Number.MAX_SAFE_INTEGER)}`;
    const [allowed, count, freeing] = await this.client.touchlineSlidingLog(
      this.prefix + subject,
      String(now),
      String(this.windowMs),
      String(this.limit),
      member,
    );
    const freeAt = freeing === '' ? null : Number(freeing) + this.windowMs;
    const wait = freeAt === null ? 0 : secondsUntil(freeAt, now);
    if (allowed === 1) {
      return { allowed: true, limit: this.limit, remaining: Math.max(0, this.limit - count), resetSeconds: wait, retryAfterSeconds: 0 };
    }
    return { allowed: false, limit: this.limit, remaining: 0, resetSeconds: wait, retryAfterSeconds: Math.max(1, wait) };
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
