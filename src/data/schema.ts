import type { ColumnType, Generated } from 'kysely';
import type { WorldTables } from '../domain/world.js';

/**
 * Tables of the database: the world's tables (their rows are the domain's shapes) and the access
 * tables. Dates are ISO `YYYY-MM-DD` strings (the drivers are told not to turn them into Date objects).
 */
export interface MetaRow {
  key: string;
  value: string;
}

export interface PlanRow {
  id: Generated<number>;
  name: string;
  all_competitions: boolean;
  competitions: string[];
  clubs: string[];
  /** Accepted requests per key in the rolling window; null: the RATE_LIMIT setting. */
  rate_limit: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: ColumnType<string, string | undefined, never>;
}

export type AccountStatus = 'active' | 'inactive' | 'registered';

export interface AccountRow {
  id: Generated<number>;
  email: string;
  password_hash: string | null;
  status: AccountStatus;
  plan_id: number | null;
  preferred_currency: string | null;
  created_at: ColumnType<string, string | undefined, never>;
}

export interface ApiKeyRow {
  id: string;
  account_id: number;
  key_hash: string;
  label: string | null;
  created_at: ColumnType<string, string | undefined, never>;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
}

/** Failed (and in-flight) logins from one client address; see migration 007. */
export interface LoginThrottleRow {
  client: string;
  attempts: ColumnType<LoginAttempt[], string, string>;
  /** Milliseconds since the epoch of the newest attempt, for pruning idle rows. */
  last_at: ColumnType<number, number, number>;
}

export interface LoginAttempt {
  /** Email, normalized. */
  readonly e: string;
  /** Milliseconds since the epoch. */
  readonly t: number;
  /** The attempt's own id, so a right password can take back exactly its count. */
  readonly n: string;
}

export interface Database extends WorldTables {
  meta: MetaRow;
  plans: PlanRow;
  accounts: AccountRow;
  api_keys: ApiKeyRow;
  login_throttle: LoginThrottleRow;
}

