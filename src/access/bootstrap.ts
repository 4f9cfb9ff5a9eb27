import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../data/schema.js';
import { generateApiKey, generateKeyId, hashApiKey, isValidKeyLength, KEY_MAX_LENGTH, KEY_MIN_LENGTH } from './keys.js';
import { changeAccess } from './changes.js';
import { AccessError } from './messages.js';
import { hashPassword } from './password.js';
import { passwordProblem } from './password-policy.js';
import { bumpAccessVersion } from './version.js';

/**
 * Reserved names. The bootstrap account is on `all-coverage` (the RATE_LIMIT setting, which tests and
 * benches set); the demo account is on `demo`, all coverage too, with its own limit for browsing.
 */
export const ALL_PLAN_NAME = 'all-coverage';
export const DEMO_PLAN_NAME = 'demo';
/**
 * The demo plan's limit per window, set when the plan is made (an operator's later `plans update`
 * is kept). Opening a player page in the web app makes seven requests, so the default 60 per
 * minute runs out after about eight pages; 600 lets a person browse freely and still stops a runaway loop.
 */
export const DEMO_RATE_LIMIT = 600;
export const BOOTSTRAP_EMAIL = 'bootstrap@touchline.local';
export const DEMO_EMAIL = 'demo@touchline.local';
const DEMO_KEY_LABEL = 'demo';

type Trx = Kysely<Database>;

/**
 * Makes sure the named plan exists and covers everything; returns its id and whether it changed.
 * `rateLimit` is given to a new plan only: an existing plan keeps the limit it has.
 */
async function ensureAllPlan(trx: Trx, name: string, rateLimit: number | null): Promise<{ id: number; changed: boolean }> {
  const plan = await trx.selectFrom('plans').select(['id', 'all_competitions']).where('name', '=', name).executeTakeFirst();
  if (plan?.all_competitions) return { id: plan.id, changed: false };
  if (plan) {
    await trx.updateTable('plans').set({ all_competitions: true, competitions: [], clubs: [] }).where('id', '=', plan.id).execute();
    return { id: plan.id, changed: true };
  }
  // Instances starting together on one PostgreSQL database make it at the same time: one insert wins.
  const row = await trx
    .insertInto('plans')
    .values({ name, all_competitions: true, competitions: [], clubs: [], rate_limit: rateLimit })
    .onConflict((oc) => oc.column('name').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (row) return { id: row.id, changed: false };
  return ensureAllPlan(trx, name, rateLimit);
}

/** Makes sure an active account on an all-coverage plan exists; returns its id and whether an existing one changed. */
async function ensureAllAccount(trx: Trx, email: string, planName = ALL_PLAN_NAME, rateLimit: number | null = null): Promise<{ id: number; changed: boolean }> {
  const plan = await ensureAllPlan(trx, planName, rateLimit);
  const acc = await trx.selectFrom('accounts').select(['id', 'status', 'plan_id']).where('email', '=', email).executeTakeFirst();
  if (!acc) {
    const row = await trx
      .insertInto('accounts')
      .values({ email, status: 'active', plan_id: plan.id })
      .onConflict((oc) => oc.column('email').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (row) return { id: row.id, changed: plan.changed };
    return ensureAllAccount(trx, email, planName, rateLimit);
  }
  if (acc.status === 'active' && acc.plan_id === plan.id) return { id: acc.id, changed: plan.changed };
  await trx.updateTable('accounts').set({ status: 'active', plan_id: plan.id }).where('id', '=', acc.id).execute();
  return { id: acc.id, changed: true };
}

/**
 * For development and tests (`TOUCHLINE_BOOTSTRAP_KEY`): makes sure the active, all-coverage account
 * `bootstrap@touchline.local` holds this key, not revoked and not expiring. Idempotent: when all of
 * that already holds, nothing is written.
 */
export async function ensureBootstrapKey(db: Kysely<Database>, rawKey: string): Promise<{ key_id: string; created: boolean }> {
  if (!isValidKeyLength(rawKey)) {
    throw new AccessError(`The bootstrap key must have ${KEY_MIN_LENGTH} to ${KEY_MAX_LENGTH} characters`);
  }
  const hash = hashApiKey(rawKey);
  return changeAccess(db, async (trx) => {
    const account = await ensureAllAccount(trx, BOOTSTRAP_EMAIL);
    let changed = account.changed;
    let created = false;
    const key = await trx.selectFrom('api_keys').select(['id', 'account_id', 'revoked_at', 'expires_at']).where('key_hash', '=', hash).executeTakeFirst();
    let keyId: string;
    if (!key) {
      keyId = generateKeyId();
      await trx.insertInto('api_keys').values({ id: keyId, account_id: account.id, key_hash: hash, label: 'bootstrap' }).execute();
      changed = created = true;
    } else {
      keyId = key.id;
      if (key.account_id !== account.id || key.revoked_at !== null || key.expires_at !== null) {
        await trx.updateTable('api_keys').set({ account_id: account.id, revoked_at: null, expires_at: null }).where('id', '=', key.id).execute();
        changed = true;
      }
    }
    if (changed) await bumpAccessVersion(trx);
    return { key_id: keyId, created };
  });
}

/** 20 random base64url characters (120 bits) that meet the password policy like any other password. */
export function compliantPassword(email: string): string {
  for (;;) {
    const password = randomBytes(15).toString('base64url');
    if (passwordProblem(password, email) === null) return password;
  }
}

export interface DemoLogin {
  readonly email: string;
  readonly password: string;
  readonly key_id: string;
  readonly api_key: string;
}

/**
 * The start-up banner's access to the demo world: the active account `demo@touchline.local`, on the
 * all-coverage plan `demo` with its own limit (DEMO_RATE_LIMIT), gets a fresh password and one fresh
 * key, and the demo keys made by earlier starts are revoked, so one demo key is active at a time.
 */
export async function createDemoLogin(db: Kysely<Database>): Promise<DemoLogin> {
  const password = compliantPassword(DEMO_EMAIL);
  const passwordHash = await hashPassword(password);
  const apiKey = generateApiKey();
  const keyId = generateKeyId();
  await changeAccess(db, async (trx) => {
    const account = await ensureAllAccount(trx, DEMO_EMAIL, DEMO_PLAN_NAME, DEMO_RATE_LIMIT);
    await trx.updateTable('accounts').set({ password_hash: passwordHash }).where('id', '=', account.id).execute();
    await trx
      .updateTable('api_keys')
      .set({ revoked_at: new Date().toISOString() })
      .where('account_id', '=', account.id)
      .where('label', '=', DEMO_KEY_LABEL)
      .where('revoked_at', 'is', null)
      .execute();
    await trx.insertInto('api_keys').values({ id: keyId, account_id: account.id, key_hash: hashApiKey(apiKey), label: DEMO_KEY_LABEL }).execute();
    await bumpAccessVersion(trx);
  });
  return { email: DEMO_EMAIL, password, key_id: keyId, api_key: apiKey };
}
