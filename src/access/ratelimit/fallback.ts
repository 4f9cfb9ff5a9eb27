import type { MaybePromise } from '../interface.js';
import { checkLimit, type RateDecision, type RateLimiter } from './interface.js';
import type { MemoryRateLimiter } from './memory.js';
import type { RedisRateLimiter } from './redis.js';

/** The part of a pino logger the fallback uses. */
export interface LimiterLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface FallbackOptions {
  /** How often a PING is sent to Redis while degraded. */
  probeEveryMs?: number;
}

/**
 * Redis first; when Redis stops answering (command timeout, connection error) the in-memory store
 * answers instead, `health()` says `degraded`, and a background probe switches back as soon as Redis
 * answers again. Each transition is logged once. While degraded the limit holds per instance only.
 */
export class FallbackRateLimiter implements RateLimiter {
  private degraded = false;
  private probeTimer: NodeJS.Timeout | undefined;
  private probing = false;
  private closed = false;
  private readonly probeEveryMs: number;

  constructor(
    private readonly primary: RedisRateLimiter,
    private readonly memory: MemoryRateLimiter,
    private readonly logger: LimiterLogger,
    opts: FallbackOptions = {},
  ) {
    this.probeEveryMs = opts.probeEveryMs ?? 1_000;
    // Without a listener ioredis would report connection errors as unhandled 'error' events.
    primary.client.on('error', (err: Error) => this.degrade(err));
    primary.client.on('close', () => {
      if (!this.closed) this.degrade(new Error('Redis connection closed'));
    });
  }

  hit(subject: string, nowMs: number, limit?: number): MaybePromise<RateDecision> {
    // A bad limit is our error, not Redis's: it must not switch the store to memory.
    if (limit !== undefined) checkLimit(limit);
    if (!this.degraded) {
      const inMemory = (err: unknown) => {
        this.degrade(err);
        return this.memory.hitSync(subject, nowMs, limit);
      };
      try {
        return this.primary.hit(subject, nowMs, limit).catch(inMemory);
      } catch (err) {
        return inMemory(err);
      }
    }
    return this.memory.hitSync(subject, nowMs, limit);
  }

  /** Tries Redis once now; used at start so a reachable Redis is used from the first request. */
  async start(): Promise<void> {
    try {
      await this.primary.connect();
    } catch (err) {
      this.degrade(err);
    }
  }

  private degrade(err: unknown): void {
    if (this.closed || this.degraded) return;
    this.degraded = true;
    this.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'rate limiter: Redis is not answering, counting in process memory until it is back');
    this.probeTimer = setInterval(() => void this.probe(), this.probeEveryMs);
    this.probeTimer.unref();
  }

  private async probe(): Promise<void> {
    if (this.probing || this.closed) return;
    this.probing = true;
    try {
      // ioredis reconnects by itself; connect() only matters if it gave up or never started.
      if (this.primary.client.status === 'end' || this.primary.client.status === 'wait') await this.primary.client.connect();
      await this.primary.ping();
      if (this.degraded && !this.closed) {
        this.degraded = false;
        clearInterval(this.probeTimer);
        this.probeTimer = undefined;
        this.logger.info({}, 'rate limiter: Redis answers again, shared limit restored');
      }
    } catch {
      // Still down; the next probe tries again.
    } finally {
      this.probing = false;
    }
  }

  health(): 'ok' | 'degraded' {
    return this.degraded ? 'degraded' : 'ok';
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.probeTimer) clearInterval(this.probeTimer);
    await this.primary.close();
    await this.memory.close();
  }
}
