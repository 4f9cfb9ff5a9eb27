/**
 * A recruitment department's shared work (EXTENSIONS "Organisations, roles and shared lists",
 * "Shadow squad"): its vocabulary, stored by data/, with roles checked by access/ and served by http/.
 */

export const ORG_ROLES = ['owner', 'scout', 'viewer'] as const;
export type OrgRole = (typeof ORG_ROLES)[number];

export const ENTRY_STATUSES = ['watching', 'scouted', 'offer', 'signed', 'dropped'] as const;
export type EntryStatus = (typeof ENTRY_STATUSES)[number];

/** At most this many players on one list, as on the shortlist. */
export const LIST_ENTRIES_MAX = 500;
/** At most this many lists per owner (an organisation, or an account without one). */
export const LISTS_MAX = 100;
/** The activity feed answers this many changes, newest first. */
export const ACTIVITY_SHOWN = 200;

/** Who owns a list: an organisation, or an account that belongs to none. */
export type ListOwner = { readonly orgId: number } | { readonly accountId: number };

export interface ListSummary {
  readonly listId: number;
  readonly name: string;
  readonly players: number;
  /** ISO 8601, UTC: the last change to the list or one of its entries */
  readonly updatedAt: string;
}

export interface EntryNote {
  readonly author: string;
  readonly text: string;
  readonly at: string;
}

export interface ListEntry {
  readonly playerId: string;
  readonly status: EntryStatus;
  readonly addedBy: string;
  readonly addedAt: string;
  /** oldest first */
  readonly notes: readonly EntryNote[];
}

export interface Activity {
  readonly at: string;
  readonly actor: string;
  readonly action: string;
  readonly listId: number | null;
  readonly playerId: string | null;
  readonly detail: string;
}

/** Who makes a change, and which organisation's feed records it (null: an account without one). */
export interface Actor {
  readonly email: string;
  readonly orgId: number | null;
}

export interface ShadowSale {
  readonly playerId: string;
  readonly askingFeeEur: number;
}
export interface ShadowTarget {
  readonly playerId: string;
  readonly feeEur: number;
  readonly annualWageEur: number;
}
export interface ShadowSquad {
  readonly clubId: string;
  readonly sell: readonly ShadowSale[];
  readonly targets: readonly ShadowTarget[];
}

export type EntryChange = { readonly status?: EntryStatus; readonly note?: string; readonly playerName: string };

export type AddEntryOutcome = { readonly ok: true; readonly entry: ListEntry } | { readonly ok: false; readonly reason: 'no_list' | 'full' };

export interface WorkspaceStore {
  /** An account without an organisation always holds its Shortlist (the one /v1/shortlist serves), first. */
  lists(owner: ListOwner, actor: Actor): Promise<ListSummary[]>;
  /** null when the owner holds LISTS_MAX lists already. */
  createList(owner: ListOwner, name: string, actor: Actor): Promise<ListSummary | null>;
  /** false when the owner has no such list. */
  deleteList(owner: ListOwner, listId: number, actor: Actor): Promise<boolean>;
  /** null when the owner has no such list. */
  list(owner: ListOwner, listId: number): Promise<{ summary: ListSummary; entries: ListEntry[] } | null>;
  /** Adds the player (status watching unless given) or updates his status; a note is appended with its author. */
  putEntry(owner: ListOwner, listId: number, playerId: string, change: EntryChange, actor: Actor): Promise<AddEntryOutcome>;
  /** 'no_list', 'not_listed' or 'removed'. */
  removeEntry(owner: ListOwner, listId: number, playerId: string, playerName: string, actor: Actor): Promise<'no_list' | 'not_listed' | 'removed'>;
  /** The organisation's last ACTIVITY_SHOWN changes, newest first. */
  activity(orgId: number): Promise<Activity[]>;
  shadowSquad(orgId: number): Promise<ShadowSquad | null>;
  saveShadowSquad(orgId: number, squad: ShadowSquad, actor: Actor): Promise<ShadowSquad>;
}
