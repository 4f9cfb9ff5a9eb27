export type { RateDecision, RateLimiter } from '../interface.js';

/** Settings every limiter store shares: `limit` accepted requests per subject in any rolling `windowSeconds`. */
export interface RateLimitSettings {
  readonly limit: number;
  readonly windowSeconds: number;
}

/** Whole seconds from `nowMs` until `atMs` (rounded up), never negative. */
export function secondsUntil(atMs: number, nowMs: number): number {
  return Math.max(0, Math.ceil((atMs - nowMs) / 1000));
}

/** A limit must be a positive integer; anything else is a programming error, never a silent default. */
export function checkLimit(limit: number): void {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new Error(`Invalid rate limit: ${limit}`);
}
