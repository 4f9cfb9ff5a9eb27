import type { Kysely } from 'kysely';
import type { Database } from '../data/schema.js';
import { normalizeEmail, PASSWORD_MAX_LENGTH } from './accounts.js';
import { changeAccess } from './changes.js';
import { clientAddress } from './client-address.js';
import type { LoginOutcome, LoginService } from './interface.js';
import { generateApiKey, generateKeyId, hashApiKey, revokeKey } from './keys.js';
import { MSG } from './messages.js';
import { dummyPasswordHash, verifyPassword } from './password.js';
import type { LoginThrottle } from './throttle/index.js';
import { bumpAccessVersion } from './version.js';

export interface LoginOptions {
  /** Lifetime of a key issued by a login. */
  keyTtlMs?: number;
  /** Active login keys an account may hold; a login past it revokes the oldest. */
  maxLoginKeys?: number;
}

const BAD_LOGIN: LoginOutcome = Object.freeze({ ok: false, status: 401, error: MSG.badLogin });
export const LOGIN_KEY_LABEL = 'login';
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

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
 * - Throttling (throttle/): every attempt is counted as a failure before its password is checked, in
 *   one atomic step that first checks 10 per email and client address and 30 per client address in
 *   15 minutes; past either it is 429 unverified and uncounted (an attacker cannot extend the lock).
 *   A right password takes its count back and clears that email's failures from that address. So
 *   parallel guesses never pass more checks than the limit, and a stranger's guesses from one
 *   address never lock the owner out from another.
 * - Keys: an account holds at most `maxLoginKeys` (5) active login keys; the login that makes a sixth
 *   revokes the oldest in the same transaction. Keys made otherwise (CLI, demo, bootstrap) are
 *   neither counted nor revoked.
 */
export class DbLoginService implements LoginService {
  private readonly keyTtlMs: number;
  private readonly maxLoginKeys: number;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly throttle: LoginThrottle,
    opts: LoginOptions = {},
  ) {
    this.keyTtlMs = opts.keyTtlMs ?? 24 * 3_600_000;
    this.maxLoginKeys = opts.maxLoginKeys ?? 5;
    // Made now, so even the first unknown email does not pay for hashing it (a timing tell).
    void dummyPasswordHash();
  }

  async login(emailInput: string, password: string, nowMs: number, client: string): Promise<LoginOutcome> {
    // PostgreSQL text cannot hold NUL, nor JSON a lone surrogate: no account has such an email, and the
    // count is kept under the email without them.
    const email = normalizeEmail(emailInput.replaceAll('\u0000', '').replace(LONE_SURROGATE, '\ufffd'));
    const from = clientAddress(client);
    const decision = await this.throttle.attempt(email, from, nowMs);
    if (!decision.allowed) {
      const windowSeconds = Math.round(this.throttle.settings.windowMs / 1000);
      return { ok: false, status: 429, error: MSG.loginLocked, limit: decision.limit, windowSeconds, retryAfterSeconds: decision.retryAfterSeconds };
    }
    const account = email !== normalizeEmail(emailInput)
      ? undefined
      : await this.db.selectFrom('accounts').select(['id', 'password_hash', 'status']).where('email', '=', email).executeTakeFirst();
    const storedHash = account?.password_hash ?? (await dummyPasswordHash());
    // An over-long password is refused after the same verification cost, not before it.
    const verified = (await verifyPassword(storedHash, password.slice(0, PASSWORD_MAX_LENGTH + 1))) && password.length <= PASSWORD_MAX_LENGTH;
    if (!account || account.password_hash === null || !verified) return BAD_LOGIN;
    if (account.status !== 'active') {
      await this.throttle.forgive(email, from, decision.ticket, false);
      return BAD_LOGIN;
    }
    await this.throttle.forgive(email, from, decision.ticket, true);
    const expiresAtMs = nowMs + this.keyTtlMs;
    const key = await this.issueKey(account.id, expiresAtMs, nowMs);
    return { ok: true, result: { api_key: key.apiKey, key_id: key.keyId, token_type: 'Bearer', expires_at: new Date(expiresAtMs).toISOString() } };
  }

  /** The new login key, and the revocation of the oldest past the cap, in one transaction. */
  private async issueKey(accountId: number, expiresAtMs: number, nowMs: number): Promise<{ keyId: string; apiKey: string }> {
    const apiKey = generateApiKey();
    const keyId = generateKeyId();
    await changeAccess(this.db, async (trx) => {
      // Parallel logins of one account queue here, so the cap holds under concurrency.
      await trx.selectFrom('accounts').select('id').where('id', '=', accountId).forUpdate().execute();
      // created_at is the database's clock (microseconds), so keys made in one millisecond still sort.
      await trx
        .insertInto('api_keys')
        .values({ id: keyId, account_id: accountId, key_hash: hashApiKey(apiKey), label: LOGIN_KEY_LABEL, expires_at: new Date(expiresAtMs).toISOString() })
        .execute();
      const surplus = await trx
        .selectFrom('api_keys')
        .select('id')
        .where('account_id', '=', accountId)
        .where('label', '=', LOGIN_KEY_LABEL)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', new Date(nowMs).toISOString())
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .offset(this.maxLoginKeys)
        .limit(1_000)
        .execute();
      if (surplus.length === 0) return;
      await trx
        .updateTable('api_keys')
        .set({ revoked_at: new Date(nowMs).toISOString() })
        .where('id', 'in', surplus.map((r) => r.id))
        .execute();
      await bumpAccessVersion(trx);
    });
    return { keyId, apiKey };
  }

  /** Revokes the key at once: in force here when this resolves, elsewhere as any revocation (authenticator.ts). */
  async logout(keyId: string): Promise<void> {
    await revokeKey(this.db, { keyId });
  }
}

export function createLoginService(db: Kysely<Database>, throttle: LoginThrottle, opts?: LoginOptions): LoginService {
  return new DbLoginService(db, throttle, opts);
}
