/**
 * Login throttling (EXTENSIONS "Login throttling"): failed password checks per (email, client address)
 * and per client address, in a rolling window. An attempt is counted BEFORE its password is checked,
 * in one atomic step that also checks both limits, so parallel guesses can never pass more checks than
 * the limit; a right password then takes its count back. Stores: SQL (sql.ts, shared by every instance
 * on one PostgreSQL) and Redis (redis.ts, one Lua script per attempt).
 */
export interface ThrottleSettings {
  /** Failures per email and client address in the window. */
  readonly perEmailAndClient: number;
  /** Failures per client address across emails in the window. */
  readonly perClient: number;
  readonly windowMs: number;
}

export const DEFAULT_THROTTLE: ThrottleSettings = Object.freeze({ perEmailAndClient: 10, perClient: 30, windowMs: 15 * 60_000 });

export type ThrottleDecision =
  /** Counted as a failure until forgiven; `ticket` names this attempt. */
  | { readonly allowed: true; readonly ticket: string }
  /** Refused uncounted: `limit` is the rule that holds longest, lifting at `freeAtMs` (in `retryAfterSeconds`). */
  | { readonly allowed: false; readonly limit: number; readonly retryAfterSeconds: number; readonly freeAtMs: number };

export interface LoginThrottle {
  readonly settings: ThrottleSettings;
  /** Checks both limits and, when both allow, counts this attempt: one atomic step. */
  attempt(email: string, client: string, nowMs: number): Promise<ThrottleDecision>;
  /**
   * The password was right: takes back the attempt's count, and with `clearEmail` every failure of
   * that email from that address (the person proved they hold the password).
   */
  forgive(email: string, client: string, ticket: string, clearEmail: boolean): Promise<void>;
  close(): Promise<void>;
}

/**
 * The answer for a refused attempt, from the attempts in the window (milliseconds, oldest first) of
 * the address and of the email from that address. A rule lifts once enough of its attempts have left
 * the window to go below its limit; both must lift.
 */
export function refusal(all: readonly number[], ofEmail: readonly number[], s: ThrottleSettings, nowMs: number): ThrottleDecision & { allowed: false } {
  const rules: Array<{ limit: number; freeAt: number }> = [];
  if (all.length >= s.perClient) rules.push({ limit: s.perClient, freeAt: all[all.length - s.perClient] + s.windowMs });
  if (ofEmail.length >= s.perEmailAndClient) rules.push({ limit: s.perEmailAndClient, freeAt: ofEmail[ofEmail.length - s.perEmailAndClient] + s.windowMs });
  // None: the row was read after attempts left the window; a retry at once may pass.
  const binding = rules.reduce((a, b) => (b.freeAt > a.freeAt ? b : a), { limit: s.perEmailAndClient, freeAt: nowMs });
  return refused(binding.limit, binding.freeAt, nowMs);
}

export function refused(limit: number, freeAtMs: number, nowMs: number): ThrottleDecision & { allowed: false } {
  return { allowed: false, limit, retryAfterSeconds: Math.max(1, Math.ceil((freeAtMs - nowMs) / 1000)), freeAtMs };
}
