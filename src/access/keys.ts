import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../data/schema.js';
import { normalizeEmail } from './accounts.js';
import { changeAccess } from './changes.js';
import { AccessError } from './messages.js';
import { bumpAccessVersion } from './version.js';

/** Presented keys outside this length range are refused without a database look-up. */
export const KEY_MIN_LENGTH = 20;
export const KEY_MAX_LENGTH = 200;

const KEY_PREFIX = 'tl_';
const KEY_ID_PREFIX = 'key_';
const KEY_ID_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** A new raw key: `tl_` + 32 random bytes in base64url (256 bits). Shown once, never stored. */
export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** A public key id: `key_` + 16 characters of a 32-letter alphabet (80 random bits). */
export function generateKeyId(): string {
  // 256 is a multiple of 32, so masking a byte to 5 bits keeps every letter equally likely.
  const bytes = randomBytes(16);
  let id = KEY_ID_PREFIX;
  for (const b of bytes) id += KEY_ID_ALPHABET[b & 31];
  return id;
}

export function isValidKeyLength(rawKey: string): boolean {
  return rawKey.length >= KEY_MIN_LENGTH && rawKey.length <= KEY_MAX_LENGTH;
}

/**
 * SHA-256 hex of the key. Keys carry 256 random bits, so a fast unsalted hash is enough: nothing can
 * be guessed from it, and it lets the key be found by an index look-up.
 */
export function hashApiKey(rawKey: string): string {
  return hash('sha256', rawKey, 'hex');
}

/** Constant-time comparison of two hex digests. */
export function hashesEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

export interface CreatedKey {
  readonly key_id: string;
  readonly api_key: string;
  readonly expires_at: string | null;
}

export interface CreateKeyOptions {
  /** Milliseconds since the epoch after which the key is refused; unset never expires. */
  expiresAtMs?: number;
  label?: string;
  /** Creation time; defaults to the database clock. */
  nowMs?: number;
}

/** Stores a new key for an account (hash only) and returns the raw key, which is not kept anywhere. */
export async function createKeyForAccount(db: Kysely<Database>, accountId: number, opts: CreateKeyOptions = {}): Promise<CreatedKey> {
  const apiKey = generateApiKey();
  const keyId = generateKeyId();
  const expiresAt = opts.expiresAtMs === undefined ? null : new Date(opts.expiresAtMs).toISOString();
  // No access-version bump: no cache can hold an answer for a key that did not exist (256 random
  // bits are never presented before they are made), and a bump per login would empty every
  // instance's key cache at each login.
  await db
    .insertInto('api_keys')
    .values({
      id: keyId,
      account_id: accountId,
      key_hash: hashApiKey(apiKey),
      label: opts.label ?? null,
      expires_at: expiresAt,
      ...(opts.nowMs === undefined ? {} : { created_at: new Date(opts.nowMs).toISOString() }),
    })
    .execute();
  return { key_id: keyId, api_key: apiKey, expires_at: expiresAt };
}

async function accountIdByEmail(db: Kysely<Database>, email: string): Promise<number> {
  const row = await db.selectFrom('accounts').select('id').where('email', '=', normalizeEmail(email)).executeTakeFirst();
  if (!row) throw new AccessError(`Unknown account: ${normalizeEmail(email)}`);
  return row.id;
}

/** `keys create --email E`: a new key on an existing account. */
export async function createKey(db: Kysely<Database>, args: { email: string }): Promise<{ key_id: string; api_key: string }> {
  const accountId = await accountIdByEmail(db, args.email);
  const created = await createKeyForAccount(db, accountId, { label: 'cli' });
  return { key_id: created.key_id, api_key: created.api_key };
}

/** `keys revoke --key-id ID`: idempotent; revoking twice keeps the first revocation time. */
export async function revokeKey(db: Kysely<Database>, args: { keyId: string }): Promise<{ key_id: string; revoked_at: string }> {
  return changeAccess(db, async (trx) => {
    const row = await trx.selectFrom('api_keys').select(['id', 'revoked_at']).where('id', '=', args.keyId).executeTakeFirst();
    if (!row) throw new AccessError(`Unknown key: ${args.keyId}`);
    if (row.revoked_at !== null) return { key_id: row.id, revoked_at: new Date(row.revoked_at).toISOString() };
    const now = new Date().toISOString();
    await trx.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', row.id).execute();
    await bumpAccessVersion(trx);
    return { key_id: row.id, revoked_at: now };
  });
}

export type KeyState = 'active' | 'revoked' | 'expired';

export interface KeyInfo {
  readonly key_id: string;
  readonly state: KeyState;
  readonly label: string | null;
  readonly created_at: string;
  readonly last_used_at: string | null;
  readonly expires_at: string | null;
  readonly revoked_at: string | null;
}

const iso = (v: string | null): string | null => (v === null ? null : new Date(v).toISOString());

/** `keys list --email E`: every key of the account (never the key itself), oldest first. */
export async function listKeys(db: Kysely<Database>, args: { email: string }, nowMs = Date.now()): Promise<KeyInfo[]> {
  const accountId = await accountIdByEmail(db, args.email);
  const rows = await db.selectFrom('api_keys').selectAll().where('account_id', '=', accountId).orderBy('created_at').orderBy('id').execute();
  return rows.map((r) => ({
    key_id: r.id,
    state: r.revoked_at !== null ? 'revoked' : r.expires_at !== null && Date.parse(r.expires_at) <= nowMs ? 'expired' : 'active',
    label: r.label,
    created_at: new Date(r.created_at).toISOString(),
    last_used_at: iso(r.last_used_at),
    expires_at: iso(r.expires_at),
    revoked_at: iso(r.revoked_at),
  }));
}
