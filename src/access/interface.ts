/**
 * The seam between transport and access: http/ asks these questions, access/ answers them.
 * Implementations live beside this file; the HTTP layer knows only these types.
 */

/** What a plan lets an account see. A player is covered when his current team or owning club is. */
export interface Coverage {
  readonly all: boolean;
  readonly competitions: ReadonlySet<string>;
  readonly clubs: ReadonlySet<string>;
}

export interface Principal {
  readonly accountId: number;
  readonly email: string;
  readonly keyId: string;
  readonly coverage: Coverage;
  readonly preferredCurrency: string | null;
  /** The plan's own rolling limit (requests per window), or null for the `RATE_LIMIT` setting. */
  readonly rateLimit: number | null;
}

export type AuthOutcome =
  | { readonly ok: true; readonly principal: Principal }
  | { readonly ok: false; readonly status: 401 | 403; readonly error: string };

/**
 * A value, or a promise of it: the access checks answer at once from memory on the hot path (no
 * promise, no microtask per request) and only go to a store when they must.
 */
export type MaybePromise<T> = T | Promise<T>;

export interface KeyAuthenticator {
  /** Checks a presented key: 401 strings for the key, 403 `Account access denied: …` for the account; at once when it is known. */
  authenticate(rawKey: string): MaybePromise<AuthOutcome>;
}

export interface RateDecision {
  readonly allowed: boolean;
  readonly limit: number;
  /** Requests still allowed in the window after this one. */
  readonly remaining: number;
  /** Whole seconds until the oldest counted request leaves the window (0 when none is counted). */
  readonly resetSeconds: number;
  /** When rejected: whole seconds until a retry can pass, at least 1. */
  readonly retryAfterSeconds: number;
}

export interface RateLimiter {
  /**
   * Counts the request if it is allowed; a rejected request is not counted. `limit` is this subject's
   * limit for this call (a plan's own); unset, the store's configured one. It travels with every call
   * so instances sharing a store agree, and a changed plan applies from the next request.
   */
  hit(subject: string, nowMs: number, limit?: number): MaybePromise<RateDecision>;
  /** `degraded` while a shared store is configured but not answering. */
  health(): 'ok' | 'degraded';
  close(): Promise<void>;
}

export interface LoginResult {
  readonly api_key: string;
  readonly key_id: string;
  readonly token_type: 'Bearer';
  readonly expires_at: string;
}

export type LoginOutcome =
  | { readonly ok: true; readonly result: LoginResult }
  | { readonly ok: false; readonly status: 401; readonly error: string }
  /** Throttled: `limit` failures (per email and client address, or per client address) in any `windowSeconds`. */
  | { readonly ok: false; readonly status: 429; readonly error: string; readonly limit: number; readonly windowSeconds: number; readonly retryAfterSeconds: number };

export interface LoginService {
  /** `client` is the request's address (`request.ip`); failures are counted by it. */
  login(email: string, password: string, nowMs: number, client: string): Promise<LoginOutcome>;
  /** Revokes the key with this id (`POST /auth/logout`), at once. */
  logout(keyId: string): Promise<void>;
}

/** What a workspace route needs the caller to hold (the table is access/roles.ts). */
export type WorkspaceRight =
  | 'lists.read'
  | 'lists.create'
  | 'lists.delete'
  | 'entries.write'
  | 'members.read'
  | 'members.manage'
  | 'activity.read'
  | 'shadow.read'
  | 'shadow.write'
  | 'shadow.analyse';

/** The caller's workspace: an organisation with the caller's role, or (org null) the account's own. */
export interface Workspace {
  readonly accountId: number;
  readonly email: string;
  readonly org: { readonly id: number; readonly name: string; readonly role: 'owner' | 'scout' | 'viewer' } | null;
}

export type WorkspaceOutcome = { readonly ok: true; readonly workspace: Workspace } | { readonly ok: false; readonly status: 403; readonly error: string };

export interface OrgMemberList {
  readonly organisation: string;
  readonly members: readonly { readonly email: string; readonly role: 'owner' | 'scout' | 'viewer' }[];
}

/** An owner's change to the members: the list after it, or the refusal's status and exact string. */
export type MemberChangeOutcome = { readonly ok: true; readonly members: OrgMemberList } | { readonly ok: false; readonly status: 404 | 409; readonly error: string };

export interface WorkspaceAccess {
  /** 403 `Not allowed for your role`, or `Not a member of an organisation` for an organisation's own resources. */
  check(principal: Principal, right: WorkspaceRight): Promise<WorkspaceOutcome>;
  members(orgId: number): Promise<OrgMemberList>;
  /** Adds the account, or changes its role; `actor` is the owner's email, for the activity feed. */
  setMember(orgId: number, email: string, role: 'owner' | 'scout' | 'viewer', actor: string): Promise<MemberChangeOutcome>;
  removeMember(orgId: number, email: string, actor: string): Promise<MemberChangeOutcome>;
}
