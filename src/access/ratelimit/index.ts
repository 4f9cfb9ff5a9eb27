import type { RateLimiter } from './interface.js';
import { FallbackRateLimiter, type LimiterLogger } from './fallback.js';
import { MemoryRateLimiter } from './memory.js';
import { RedisRateLimiter } from './redis.js';

export type { RateDecision, RateLimiter, RateLimitSettings } from './interface.js';
export { MemoryRateLimiter } from './memory.js';
export { RedisRateLimiter } from './redis.js';
export { FallbackRateLimiter, type LimiterLogger } from './fallback.js';

export interface CreateRateLimiterOptions {
  /** Set: one limit shared by every instance through Redis, with in-memory fallback. Unset: memory only. */
  redisUrl?: string;
  limit: number;
  windowSeconds: number;
  logger: LimiterLogger;
  keyPrefix?: string;
}

/**
 * Picks the store from the settings. With Redis it tries to connect first (about a second at most),
 * so a reachable Redis counts from the first request; an unreachable one starts degraded.
 */
export async function createRateLimiter(opts: CreateRateLimiterOptions): Promise<RateLimiter> {
  const settings = { limit: opts.limit, windowSeconds: opts.windowSeconds };
  const memory = new MemoryRateLimiter(settings);
  if (!opts.redisUrl) return memory;
  const redis = new RedisRateLimiter(opts.redisUrl, { ...settings, keyPrefix: opts.keyPrefix });
  const limiter = new FallbackRateLimiter(redis, memory, opts.logger);
  await limiter.start();
  return limiter;
}
