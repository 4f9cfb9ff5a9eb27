import { Redis, type RedisOptions } from 'ioredis';

/**
 * A Redis client for the shared counters (rate limit, login throttle): it fails fast instead of
 * queueing while disconnected, so the caller's fallback answers meanwhile, and reconnects by itself.
 */
export function fastFailRedis(url: string, commandTimeoutMs: number, extra: RedisOptions = {}): Redis {
  return new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: commandTimeoutMs,
    connectTimeout: 1_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    ...extra,
  });
}
