import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Why Redis tests must be skipped, or false when a Redis server answers. */
export async function redisUnavailable(): Promise<string | false> {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 500, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => {});
  try {
    await probe.connect();
    await probe.ping();
    return false;
  } catch (err) {
    return `no Redis answering at ${REDIS_URL} (${err instanceof Error ? err.message : String(err)})`;
  } finally {
    probe.disconnect();
  }
}

/** A key prefix nobody else uses, so runs never see each other's counts. */
export function uniquePrefix(): string {
  return `touchline-test:${process.pid}-${randomBytes(4).toString('hex')}:`;
}

/** Deletes every key under the prefix. */
export async function cleanUp(prefix: string): Promise<void> {
  const r = new Redis(REDIS_URL, { maxRetriesPerRequest: 0 });
  try {
    const keys = await r.keys(`${prefix}*`);
    if (keys.length > 0) await r.del(...keys);
  } finally {
    r.disconnect();
  }
}
