import { sql, type Kysely } from 'kysely';
import type { Database } from '../data/schema.js';
import { normalizeEmail, PASSWORD_MAX_LENGTH } from './accounts.js';
import { parseTimestamp } from './authenticator.js';
import type { LoginOutcome, LoginService } from './interface.js';
import { createKeyForAccount } from './keys.js';
import { MSG } from './messages.js';
import { dummyPasswordHash, verifyPassword } from './password.js';

export interface LoginOptions {
  /** Failures counted per email; the next attempt after this many is locked out. */
  maxFailures?: number;
  lockoutWindowMs?: number;
  /** Lifetime of a key issued by a login. */
  keyTtlMs?: number;
}

const BAD_LOGIN: LoginOutcome = Object.freeze({ ok: false, status: 401, error: MSG.badLogin });

/**
 * `POST /auth/login`: email and password for a new key that expires after 24 hours.
 *
 * Decisions:
 * - An unknown email, an account without a password and a wrong password all answer 401
 *   `Invalid email or password`, each after one argon2 verification (against a dummy hash when there
 *   is no real one), so neither the answer nor its timing tells whether the email exists.
 * - Right password, account not active (inactive or registered): also 401 `Invalid email or password`.
 *   The LoginService contract (interface.ts) allows only 401 and 429, and issuing a key the account
 *   cannot use helps nobody. The attempt is not counted as a failure: the password was right.
 * - Lockout: failures are rows in `login_failures`, so every instance shares them. When an email
 *   already has `maxFailures` (10) failures in the last 15 minutes, every attempt gets 429 whatever
 *   the password, without being verified or recorded (an attacker cannot extend the lock), with
 *   `retryAfterSeconds` until enough failures have left the window to go below the limit.
 * - A successful login clears that email's failures: the person proved they hold the password.
 * - Concurrent attempts on one email may overshoot the limit by the number of attempts in flight;
 *   the bound stays per email and recovers on the same schedule.
 */
export class DbLoginService implements LoginService {
  private readonly maxFailures: number;
  private readonly windowMs: number;
  private readonly keyTtlMs: number;

  constructor(
    private readonly db: Kysely<Database>,
    opts: LoginOptions = {},
  ) {
    // CONVENTIONS: more than 10 failed logins for one email in 15 minutes is 429.
    this.maxFailures = opts.maxFailures ?? 10;
    this.windowMs = opts.lockoutWindowMs ?? 15 * 60_000;
    this.keyTtlMs = opts.keyTtlMs ?? 24 * 3_600_000;
    // Made now, so even the first unknown email does not pay for hashing it (a timing tell).
    void dummyPasswordHash();
  }

  async login(emailInput: string, password: string, nowMs: number): Promise<LoginOutcome> {
    // PostgreSQL text cannot hold NUL: no account has such an email. Same answer and cost as any miss.
    if (emailInput.includes('\u0000')) {
      await verifyPassword(await dummyPasswordHash(), password);
      return BAD_LOGIN;
    }
    const email = normalizeEmail(emailInput);
    const since = new Date(nowMs - this.windowMs).toISOString();
    const failures = await this.db
      .selectFrom('login_failures')
      .select('at')
      .where('email', '=', email)
      .where('at', '>', since)
      .orderBy('at')
      .execute();
    if (failures.length >= this.maxFailures) {
      // The lock lifts when the count falls below the limit, i.e. when this failure leaves the window.
      const freeing = parseTimestamp(failures[failures.length - this.maxFailures].at);
      const retry = Math.max(1, Math.ceil((freeing + this.windowMs - nowMs) / 1000));
      return { ok: false, status: 429, error: MSG.loginLocked, limit: this.maxFailures, windowSeconds: Math.round(this.windowMs / 1000), retryAfterSeconds: retry };
    }

    const account = await this.db.selectFrom('accounts').select(['id', 'password_hash', 'status']).where('email', '=', email).executeTakeFirst();
    const storedHash = account?.password_hash ?? (await dummyPasswordHash());
    // An over-long password is refused after the same verification cost, not before it.
    const verified = (await verifyPassword(storedHash, password.slice(0, PASSWORD_MAX_LENGTH + 1))) && password.length <= PASSWORD_MAX_LENGTH;
    if (!account || account.password_hash === null || !verified) {
      await this.recordFailure(email, nowMs);
      return BAD_LOGIN;
    }
    if (account.status !== 'active') return BAD_LOGIN;

    await this.db.deleteFrom('login_failures').where('email', '=', email).execute();
    const key = await createKeyForAccount(this.db, account.id, { expiresAtMs: nowMs + this.keyTtlMs, label: 'login', nowMs });
    return {
      ok: true,
      result: { api_key: key.api_key, key_id: key.key_id, token_type: 'Bearer', expires_at: new Date(nowMs + this.keyTtlMs).toISOString() },
    };
  }

  private async recordFailure(email: string, nowMs: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('login_failures').values({ email, at: new Date(nowMs).toISOString() }).execute();
      // Rows past the window no longer matter to anyone; pruning here keeps the table small.
      await trx.deleteFrom('login_failures').where('at', '<=', sql<string>`${new Date(nowMs - this.windowMs).toISOString()}::timestamptz`).execute();
    });
  }
}

export function createLoginService(db: Kysely<Database>, opts?: LoginOptions): LoginService {
  return new DbLoginService(db, opts);
}
