import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Database } from '../data/schema.js';
import type { AuthOutcome, KeyAuthenticator, Principal } from './interface.js';
import { hashApiKey, hashesEqual, isValidKeyLength } from './keys.js';
import { MSG } from './messages.js';
import { coverageOfPlan, isEmptyCoverage } from './plans.js';
import { AccessChangeFeed, type FeedLogger } from './change-feed.js';
import { onAccessChange } from './changes.js';
import { readAccessVersion } from './version.js';

/**
 * Answers "whose key is this?" from memory after the first look-up.
 *
 * Freshness: every change that can alter an answer bumps `meta.access_version` in its transaction.
 * - Made through this process (its admin channel, a login, a test on the same handle): the cache is
 *   dropped right after the commit, before the change's promise resolves (changes.ts), so the next
 *   request gets the new answer.
 * - Made by another process, with `listenUrl` (PostgreSQL): the commit is announced by NOTIFY and the
 *   cache dropped when it arrives, a few milliseconds later (change-feed.ts, bench/access-propagation.ts).
 * - Always, as the fallback for a lost notification or connection: the version is read every `pollMs`
 *   (500 ms) and the cache dropped when it moved, so any change is in force everywhere within pollMs
 *   plus one query. If the poll query fails the cache is dropped too, so a database outage can never
 *   keep a revoked key alive. Entries also expire after `maxEntryAgeMs` as a backstop for changes
 *   written without a bump (manual SQL).
 */
export interface AuthenticatorOptions {
  pollMs?: number;
  maxEntryAgeMs?: number;
  /** last_used_at is written at most once per key per this interval, off the request path. */
  lastUsedEveryMs?: number;
  /** Cache size bounds: past them the least recently used entries leave first. */
  maxEntries?: number;
  maxUnknownEntries?: number;
  /** Injectable clock (milliseconds since the epoch) for key expiry. */
  now?: () => number;
  /** PostgreSQL URL to LISTEN on for other processes' changes; unset relies on the poll alone. */
  listenUrl?: string;
  logger?: FeedLogger;
}

/** What the database says about a key, minus time: the outcome is computed at each use. */
interface KnownKey {
  readonly keyId: string;
  readonly keyHash: string;
  readonly revoked: boolean;
  readonly expiresAtMs: number | null;
  /** The account-level answer: a principal, or the 403 for the account's state. */
  readonly account: AuthOutcome;
  readonly cachedAtMs: number;
}

const INVALID: AuthOutcome = Object.freeze({ ok: false, status: 401, error: MSG.invalidKey });
const REVOKED: AuthOutcome = Object.freeze({ ok: false, status: 401, error: MSG.revokedKey });
const deny = (error: string): AuthOutcome => Object.freeze({ ok: false, status: 403, error });

/** Parses a timestamptz as PostgreSQL prints it (`2026-01-02 03:04:05.678+00`) or ISO. */
export function parseTimestamp(value: string): number {
  const ms = Date.parse(value);
  if (!Number.isNaN(ms)) return ms;
  const iso = value.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00');
  return Date.parse(iso);
}

export class DbKeyAuthenticator implements KeyAuthenticator {
  /**
   * Keys found lately, by the key as presented: a request with a known key costs one map look-up,
   * not a SHA-256 (about a microsecond, a tenth of a cached request's own work). The raw keys of
   * the last `maxEntryAgeMs` stay in this process's memory, as the requests carrying them do; the
   * database still holds only digests.
   */
  private readonly known: LRUCache<string, KnownKey>;
  /** Hashes of keys no row matches, with the time they were looked up. */
  private readonly unknown: LRUCache<string, number>;
  /** key id -> when last_used_at was last scheduled; pending holds the writes not yet flushed. */
  private readonly lastUsedMark: LRUCache<string, number>;
  private readonly pendingLastUsed = new Map<string, number>();
  private version = '';
  /** Bumped whenever the caches are dropped, so a look-up that raced a drop does not refill them. */
  private generation = 0;
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private feed: AccessChangeFeed | undefined;
  private polling: Promise<void> | undefined;
  private readonly pollMs: number;
  private readonly maxEntryAgeMs: number;
  private readonly lastUsedEveryMs: number;
  private readonly now: () => number;
  /** Keys answered from memory and looked up in the database, since the start (the metrics read them). */
  readonly cacheCounts = { hits: 0, misses: 0 };

  private constructor(
    private readonly db: Kysely<Database>,
    opts: AuthenticatorOptions,
  ) {
    this.pollMs = opts.pollMs ?? 500;
    this.maxEntryAgeMs = opts.maxEntryAgeMs ?? 60_000;
    this.lastUsedEveryMs = opts.lastUsedEveryMs ?? 60_000;
    const maxEntries = opts.maxEntries ?? 100_000;
    this.known = new LRUCache({ max: maxEntries });
    this.unknown = new LRUCache({ max: opts.maxUnknownEntries ?? 10_000 });
    this.lastUsedMark = new LRUCache({ max: maxEntries });
    this.now = opts.now ?? Date.now;
  }

  /** Reads the current access version, then polls it until `close()`. */
  static async create(db: Kysely<Database>, opts: AuthenticatorOptions = {}): Promise<DbKeyAuthenticator> {
    const a = new DbKeyAuthenticator(db, opts);
    a.version = await readAccessVersion(db);
    a.unsubscribe = onAccessChange(db, (v) => a.changed(v));
    if (opts.listenUrl) a.feed = await AccessChangeFeed.start(opts.listenUrl, (v) => a.changed(v), { logger: opts.logger });
    a.timer = setInterval(() => void a.tick(), a.pollMs);
    a.timer.unref();
    return a;
  }

  /** From memory when the key was looked up lately (the hot path: no promise); else from the database. */
  authenticate(rawKey: string): AuthOutcome | Promise<AuthOutcome> {
    if (!isValidKeyLength(rawKey)) return INVALID;
    const now = this.now();
    const entry = this.known.get(rawKey);
    if (entry && now - entry.cachedAtMs <= this.maxEntryAgeMs) {
      this.cacheCounts.hits++;
      return this.outcomeOf(entry, now);
    }
    const hash = hashApiKey(rawKey);
    const seenUnknown = this.unknown.get(hash);
    if (seenUnknown !== undefined && now - seenUnknown <= this.maxEntryAgeMs) {
      this.cacheCounts.hits++;
      return INVALID;
    }
    this.cacheCounts.misses++;
    return this.lookUp(rawKey, hash, now).then((found) => (found ? this.outcomeOf(found, now) : INVALID));
  }

  private outcomeOf(entry: KnownKey, now: number): AuthOutcome {
    if (entry.revoked) return REVOKED;
    if (entry.expiresAtMs !== null && entry.expiresAtMs <= now) return INVALID;
    if (entry.account.ok) this.markUsed(entry.keyId, now);
    return entry.account;
  }

  private async lookUp(rawKey: string, hash: string, now: number): Promise<KnownKey | undefined> {
    const generation = this.generation;
    const row = await this.db
      .selectFrom('api_keys as k')
      .innerJoin('accounts as a', 'a.id', 'k.account_id')
      .leftJoin('plans as p', 'p.id', 'a.plan_id')
      .select([
        'k.id as key_id',
        'k.key_hash',
        'k.revoked_at',
        'k.expires_at',
        'a.id as account_id',
        'a.email',
        'a.status',
        'a.preferred_currency',
        'p.id as plan_id',
        'p.all_competitions',
        'p.competitions',
        'p.clubs',
        'p.rate_limit',
      ])
      .where('k.key_hash', '=', hash)
      .executeTakeFirst();
    // The index look-up already matched the digest; the constant-time check keeps the comparison
    // itself free of timing differences should the store ever match on a prefix or collation.
    if (!row || !hashesEqual(row.key_hash, hash)) {
      if (generation === this.generation) {
        this.unknown.set(hash, now);
      }
      return undefined;
    }
    let account: AuthOutcome;
    if (row.status === 'inactive') account = deny(MSG.accountInactive);
    else if (row.status === 'registered') account = deny(MSG.accountNotActivated);
    else if (row.status !== 'active') account = deny(MSG.accountInactive);
    else if (row.plan_id === null) account = deny(MSG.noPlan);
    else {
      const coverage = coverageOfPlan({ all_competitions: row.all_competitions ?? false, competitions: row.competitions ?? [], clubs: row.clubs ?? [] });
      if (isEmptyCoverage(coverage)) account = deny(MSG.noPlan);
      else {
        const principal: Principal = Object.freeze({
          accountId: row.account_id,
          email: row.email,
          keyId: row.key_id,
          coverage,
          preferredCurrency: row.preferred_currency,
          rateLimit: row.rate_limit ?? null,
        });
        account = Object.freeze({ ok: true, principal });
      }
    }
    const entry: KnownKey = {
      keyId: row.key_id,
      keyHash: row.key_hash,
      revoked: row.revoked_at !== null,
      expiresAtMs: row.expires_at === null ? null : parseTimestamp(row.expires_at),
      account,
      cachedAtMs: now,
    };
    if (generation === this.generation) {
      this.known.set(rawKey, entry);
    }
    return entry;
  }

  private markUsed(keyId: string, now: number): void {
    const last = this.lastUsedMark.get(keyId);
    if (last !== undefined && now - last < this.lastUsedEveryMs) return;
    this.lastUsedMark.set(keyId, now);
    this.pendingLastUsed.set(keyId, now);
  }

  /** Drops every cached answer; the next request per key reads the database again. */
  invalidate(): void {
    this.generation++;
    this.known.clear();
    this.unknown.clear();
  }

  /**
   * An access change was committed: `version` is the access version it set (the cache is dropped
   * unless that version was taken in already), or null when it is not known (always dropped).
   */
  changed(version: string | null): void {
    if (version !== null) {
      if (version === this.version) return;
      this.version = version;
    }
    this.invalidate();
  }

  /** True while PostgreSQL notifications of other processes' changes are being received. */
  isListening(): boolean {
    return this.feed?.isListening() ?? false;
  }

  /** One poll: compare the access version, then write pending last-use times. Never throws. */
  tick(): Promise<void> {
    this.polling ??= this.pollOnce().finally(() => {
      this.polling = undefined;
    });
    return this.polling;
  }

  private async pollOnce(): Promise<void> {
    try {
      const v = await readAccessVersion(this.db);
      if (v !== this.version) {
        this.version = v;
        this.invalidate();
      }
    } catch {
      this.invalidate();
    }
    await this.flushLastUsed();
  }

  private async flushLastUsed(): Promise<void> {
    if (this.pendingLastUsed.size === 0) return;
    const batch = [...this.pendingLastUsed];
    this.pendingLastUsed.clear();
    try {
      for (const [keyId, at] of batch) {
        await this.db.updateTable('api_keys').set({ last_used_at: new Date(at).toISOString() }).where('id', '=', keyId).execute();
      }
    } catch {
      // Last use is informative only; a failed write is retried on a later use of the key.
      for (const [keyId] of batch) this.lastUsedMark.delete(keyId);
    }
  }

  /** Stops polling and listening, and writes the pending last-use times. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.unsubscribe?.();
    await this.feed?.close();
    await this.polling;
    await this.flushLastUsed();
  }
}

export function createKeyAuthenticator(db: Kysely<Database>, opts?: AuthenticatorOptions): Promise<DbKeyAuthenticator> {
  return DbKeyAuthenticator.create(db, opts);
}
