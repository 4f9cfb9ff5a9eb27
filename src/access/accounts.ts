import type { Kysely, Updateable } from 'kysely';
import type { AccountStatus, Database } from '../data/schema.js';
import { isIsoCurrency } from '../money/currencies.js';
import { AccessError } from './messages.js';
import { hashPassword } from './password.js';
import { checkPasswordPolicy } from './password-policy.js';
import { planIdByName } from './plans.js';
import { changeAccess } from './changes.js';
import { bumpAccessVersion } from './version.js';

export const ACCOUNT_STATUSES: readonly AccountStatus[] = ['active', 'inactive', 'registered'];

/** Emails are compared case-insensitively: stored and looked up trimmed and lower case. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function validEmail(email: string): string {
  const e = normalizeEmail(email);
  if (!EMAIL.test(e) || e.length > 254) throw new AccessError(`Invalid email: ${JSON.stringify(email)}`);
  return e;
}

export function parseStatus(value: string): AccountStatus {
  const s = value.trim().toLowerCase();
  if (!(ACCOUNT_STATUSES as readonly string[]).includes(s)) {
    throw new AccessError(`Invalid status: ${JSON.stringify(value)} (expected active, inactive or registered)`);
  }
  return s as AccountStatus;
}

/** Passwords are hashed with argon2id; the bound keeps a huge input from tying up a hashing thread. */
export const PASSWORD_MAX_LENGTH = 1024;

/** The length bounds, then the policy (EXTENSIONS "Passwords"): nothing is written before this passes. */
function validPassword(password: string, email: string): string {
  if (password.length === 0) throw new AccessError('Password must not be empty');
  if (password.length > PASSWORD_MAX_LENGTH) throw new AccessError(`Password must be at most ${PASSWORD_MAX_LENGTH} characters`);
  checkPasswordPolicy(password, email);
  return password;
}

export interface AccountInfo {
  readonly id: number;
  readonly email: string;
  readonly status: AccountStatus;
  readonly plan: string | null;
  readonly has_password: boolean;
  /** The currency answers use when a request names none; null: EUR. */
  readonly currency: string | null;
  readonly active_keys: number;
  readonly created_at: string;
}

export interface CreateAccountArgs {
  email: string;
  password?: string;
  /** Defaults to `active`. */
  status?: string;
  plan?: string;
}

/** `accounts create`: a new account, optionally with a password (for /auth/login) and a plan. */
export async function createAccount(db: Kysely<Database>, args: CreateAccountArgs): Promise<AccountInfo> {
  const email = validEmail(args.email);
  const status = parseStatus(args.status ?? 'active');
  const password = args.password === undefined ? undefined : validPassword(args.password, email);
  const planId = args.plan === undefined ? null : await planIdByName(db, args.plan);
  const existing = await db.selectFrom('accounts').select('id').where('email', '=', email).executeTakeFirst();
  if (existing) throw new AccessError(`Account already exists: ${email}`);
  const passwordHash = password === undefined ? null : await hashPassword(password);
  // A new account holds no key yet, so no authentication answer changes: no version bump.
  await db.insertInto('accounts').values({ email, password_hash: passwordHash, status, plan_id: planId }).execute();
  return getAccount(db, email);
}

export async function getAccount(db: Kysely<Database>, email: string): Promise<AccountInfo> {
  const all = await queryAccounts(db, normalizeEmail(email));
  if (all.length === 0) throw new AccessError(`Unknown account: ${normalizeEmail(email)}`);
  return all[0];
}

/** `accounts list`: every account with its plan and number of usable keys. */
export function listAccounts(db: Kysely<Database>): Promise<AccountInfo[]> {
  return queryAccounts(db);
}

async function queryAccounts(db: Kysely<Database>, email?: string): Promise<AccountInfo[]> {
  let q = db
    .selectFrom('accounts as a')
    .leftJoin('plans as p', 'p.id', 'a.plan_id')
    .select((eb) => [
      'a.id',
      'a.email',
      'a.status',
      'a.password_hash',
      'a.preferred_currency',
      'a.created_at',
      'p.name as plan',
      eb
        .selectFrom('api_keys as k')
        .whereRef('k.account_id', '=', 'a.id')
        .where('k.revoked_at', 'is', null)
        .where((w) => w.or([w('k.expires_at', 'is', null), w('k.expires_at', '>', new Date().toISOString())]))
        .select((s) => s.fn.countAll<number>().as('n'))
        .as('active_keys'),
    ])
    .orderBy('a.id');
  if (email !== undefined) q = q.where('a.email', '=', email);
  const rows = await q.execute();
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    status: r.status,
    plan: r.plan ?? null,
    has_password: r.password_hash !== null,
    currency: r.preferred_currency ?? null,
    active_keys: Number(r.active_keys ?? 0),
    created_at: new Date(r.created_at).toISOString(),
  }));
}

/**
 * Changes one account's row as an access change: in force on this process when it returns, on other
 * instances within the bound (authenticator.ts), since the principal carries what it changes.
 */
async function changeAccount(db: Kysely<Database>, email: string, values: Updateable<Database['accounts']>): Promise<AccountInfo> {
  await changeAccess(db, async (trx) => {
    const res = await trx.updateTable('accounts').set(values).where('email', '=', email).returning('id').executeTakeFirst();
    // Affected-row counts are not reported by every driver (PGlite): RETURNING is.
    if (!res) throw new AccessError(`Unknown account: ${email}`);
    await bumpAccessVersion(trx);
  });
  return getAccount(db, email);
}

/** `accounts set-status`. */
export async function setAccountStatus(db: Kysely<Database>, args: { email: string; status: string }): Promise<AccountInfo> {
  return changeAccount(db, normalizeEmail(args.email), { status: parseStatus(args.status) });
}

/** `accounts set-plan`: puts the account on a plan (`--plan NAME`) or on none (`--no-plan`). */
export async function setAccountPlan(db: Kysely<Database>, args: { email: string; plan: string | null }): Promise<AccountInfo> {
  const planId = args.plan === null ? null : await planIdByName(db, args.plan);
  return changeAccount(db, normalizeEmail(args.email), { plan_id: planId });
}

/** `accounts set-password`: sets the password used by /auth/login. Existing keys stay valid. */
export async function setAccountPassword(db: Kysely<Database>, args: { email: string; password: string }): Promise<AccountInfo> {
  const email = normalizeEmail(args.email);
  const hash = await hashPassword(validPassword(args.password, email));
  const res = await db.updateTable('accounts').set({ password_hash: hash }).where('email', '=', email).returning('id').executeTakeFirst();
  if (!res) throw new AccessError(`Unknown account: ${email}`);
  return getAccount(db, email);
}

/** An ISO 4217 code in any case, stored upper case. */
function validCurrency(code: string): string {
  const c = code.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(c) || !isIsoCurrency(c)) throw new AccessError(`Invalid currency code: ${JSON.stringify(code)} (expected an ISO 4217 code such as EUR, GBP or USD, or "default")`);
  return c;
}

/**
 * `accounts set-currency`: the currency every answer to the account's keys uses when a request names
 * none (`null`: back to EUR). Answers fall back to EUR while the rate table cannot convert it. In
 * force like a status change.
 */
export async function setAccountCurrency(db: Kysely<Database>, args: { email: string; currency: string | null }): Promise<AccountInfo> {
  const currency = args.currency === null ? null : validCurrency(args.currency);
  return changeAccount(db, normalizeEmail(args.email), { preferred_currency: currency });
}
