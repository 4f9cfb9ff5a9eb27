import type { RateDecision, RateLimiter, RateLimitSettings } from './interface.js';
import { checkLimit, secondsUntil } from './interface.js';

/**
 * Accepted timestamps of one subject, oldest first, in a ring that grows by doubling as requests are
 * accepted (never past the largest limit the subject had), so a large limit costs memory only for
 * subjects that use it.
 */
class Ring {
  times: Float64Array;
  head = 0;
  size = 0;

  constructor(limit: number) {
    this.times = new Float64Array(Math.min(limit, 8));
  }

  /** The i-th oldest timestamp (0 = oldest). */
  at(i: number): number {
    return this.times[(this.head + i) % this.times.length];
  }

  oldest(): number {
    return this.times[this.head];
  }

  newest(): number {
    return this.times[(this.head + this.size - 1) % this.times.length];
  }

  /** Drops the timestamps that have left the window: a request at t counts while now < t + window. */
  evict(nowMs: number, windowMs: number): void {
    while (this.size > 0 && this.times[this.head] + windowMs <= nowMs) {
      this.head = (this.head + 1) % this.times.length;
      this.size--;
    }
  }

  /** Appends, growing the ring when it is full. */
  push(t: number): void {
    if (this.size === this.times.length) this.grow();
    this.times[(this.head + this.size) % this.times.length] = t;
    this.size++;
  }

  private grow(): void {
    const next = new Float64Array(this.times.length * 2);
    for (let i = 0; i < this.size; i++) next[i] = this.times[(this.head + i) % this.times.length];
    this.times = next;
    this.head = 0;
  }
}

/**
 * A sliding log per subject in process memory: exact rolling-window counting, O(1) per request,
 * at most `limit` doubles per active subject. Subjects idle for a whole window are dropped (swept at most once
 * per window, amortised over requests), so memory follows the number of recently active keys.
 */
export class MemoryRateLimiter implements RateLimiter {
  private readonly rings = new Map<string, Ring>();
  private readonly limit: number;
  private readonly windowMs: number;
  private lastSweepMs = -Infinity;

  constructor(settings: RateLimitSettings) {
    checkLimit(settings.limit);
    if (!(settings.windowSeconds > 0)) throw new Error(`Invalid rate window: ${settings.windowSeconds}`);
    this.limit = settings.limit;
    this.windowMs = settings.windowSeconds * 1000;
  }

  /** At once, without a promise: process memory needs no waiting. */
  hit(subject: string, nowMs: number, limit?: number): RateDecision {
    return this.hitSync(subject, nowMs, limit);
  }

  /** The same decision, for the fallback wrapper (always synchronous, whatever `hit` may become). */
  hitSync(subject: string, nowMs: number, limit = this.limit): RateDecision {
    checkLimit(limit);
    this.maybeSweep(nowMs);
    let ring = this.rings.get(subject);
    if (!ring) {
      ring = new Ring(limit);
      this.rings.set(subject, ring);
    }
    ring.evict(nowMs, this.windowMs);
    if (ring.size < limit) {
      ring.push(nowMs);
      return {
        allowed: true,
        limit,
        remaining: limit - ring.size,
        resetSeconds: secondsUntil(ring.oldest() + this.windowMs, nowMs),
        retryAfterSeconds: 0,
      };
    }
    // A lowered limit may leave more than `limit` counted: a slot opens when all but limit - 1 have left.
    const wait = secondsUntil(ring.at(ring.size - limit) + this.windowMs, nowMs);
    return { allowed: false, limit, remaining: 0, resetSeconds: wait, retryAfterSeconds: Math.max(1, wait) };
  }

  private maybeSweep(nowMs: number): void {
    if (nowMs - this.lastSweepMs < this.windowMs) return;
    this.lastSweepMs = nowMs;
    for (const [subject, ring] of this.rings) {
      if (ring.size === 0 || ring.newest() + this.windowMs <= nowMs) this.rings.delete(subject);
    }
  }

  /** Number of subjects held in memory (for tests and metrics). */
  get subjects(): number {
    return this.rings.size;
  }

  health(): 'ok' {
    return 'ok';
  }

  async close(): Promise<void> {
    this.rings.clear();
  }
}
