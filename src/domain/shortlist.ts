/** The shortlist's vocabulary (EXTENSIONS "Shortlists"): stored by data/, served by http/. */

export interface ShortlistEntry {
  readonly playerId: string;
  readonly note: string | null;
  /** ISO 8601, UTC */
  readonly addedAt: string;
}

/** At most this many players per account. */
export const SHORTLIST_MAX = 500;

export type AddOutcome = { readonly ok: true; readonly entry: ShortlistEntry } | { readonly ok: false; readonly reason: 'full' };

export interface ShortlistStore {
  /** The account's entries, newest first. */
  list(accountId: number): Promise<ShortlistEntry[]>;
  /** Adds the player, or updates his note when he is on the list already (an absent note keeps the old one). */
  add(accountId: number, playerId: string, note: string | undefined): Promise<AddOutcome>;
  /** false when he was not on the list. */
  remove(accountId: number, playerId: string): Promise<boolean>;
}
