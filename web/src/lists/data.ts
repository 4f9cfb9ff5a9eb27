import { api, ApiFailure, unwrap } from '../api/client';
import { csvCell } from '../shortlist/data';
import { currentEmail } from '../session/session';

export const STATUSES = ['watching', 'scouted', 'offer', 'signed', 'dropped'] as const;
export type Status = (typeof STATUSES)[number];
export const ROLES = ['owner', 'scout', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export async function loadLists() {
  return unwrap(await api.GET('/v1/lists')).lists;
}
export type ListSummary = Awaited<ReturnType<typeof loadLists>>[number];

export async function createList(name: string) {
  return unwrap(await api.POST('/v1/lists', { body: { name } }));
}

export async function deleteList(listId: number): Promise<void> {
  const r = await api.DELETE('/v1/lists', { params: { query: { list_id: String(listId) } } });
  if (r.response.status !== 204) unwrap(r as never);
}

export async function loadEntries(listId: number) {
  return unwrap(await api.GET('/v1/lists/entries', { params: { query: { list_id: String(listId) } } }));
}
export type Entry = Awaited<ReturnType<typeof loadEntries>>['entries'][number];

export async function putEntry(body: { list_id: number; player_id: string; status?: Status; note?: string }) {
  return unwrap(await api.POST('/v1/lists/entries', { body }));
}

export async function removeEntry(listId: number, playerId: string): Promise<void> {
  const r = await api.DELETE('/v1/lists/entries', { params: { query: { list_id: String(listId), player_id: playerId } } });
  if (r.response.status !== 204) unwrap(r as never);
}

/** The organisation, its members and the person's own role; null for an account without an organisation. */
export async function loadMembers() {
  const r = await api.GET('/v1/org/members');
  if (r.response.status === 403) return null;
  const data = unwrap(r);
  const me = currentEmail();
  // Unknown after a key sign-in: every control is shown and the API's answer says what the role allows.
  const role: Role | null = (me && data.members.find((m) => m.email === me)?.role) || null;
  return { ...data, role };
}
export type Members = NonNullable<Awaited<ReturnType<typeof loadMembers>>>;

export async function setMember(email: string, role: Role) {
  return unwrap(await api.POST('/v1/org/members', { body: { email, role } }));
}

export async function removeMember(email: string): Promise<void> {
  const r = await api.DELETE('/v1/org/members', { params: { query: { email } } });
  if (r.response.status !== 204) unwrap(r as never);
}

export async function loadActivity() {
  return unwrap(await api.GET('/v1/org/activity')).activity;
}

/** Whether the role may write lists and entries (null: not known, so the API decides). */
export const canWrite = (role: Role | null) => role !== 'viewer';

export interface EntryFilter {
  readonly status: Status | '';
  /** a member's email: who added him or wrote a note on him */
  readonly author: string;
}

export function filterEntries(entries: readonly Entry[], f: EntryFilter): Entry[] {
  return entries.filter((e) => (f.status === '' || e.status === f.status) && (f.author === '' || e.added_by === f.author || e.notes.some((n) => n.author === f.author)));
}

/** Everyone who added a player or wrote a note, for the author filter. */
export function authorsOf(entries: readonly Entry[]): string[] {
  const all = new Set<string>();
  for (const e of entries) {
    all.add(e.added_by);
    for (const n of e.notes) all.add(n.author);
  }
  return [...all].sort();
}

export const LIST_CSV_COLUMNS = ['name', 'status', 'added_by', 'added_at', 'notes', 'player_id'] as const;

/** One row per player; his notes in one cell, each "author: text", oldest first. */
export function listCsv(entries: readonly Entry[]): string {
  const rows = entries.map((e) => [e.name, e.status, e.added_by, e.added_at, e.notes.map((n) => `${n.author}: ${n.text}`).join('\n'), e.player_id]);
  return [[...LIST_CSV_COLUMNS], ...rows].map((line) => line.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

export function failureText(err: unknown): string {
  return err instanceof ApiFailure || err instanceof Error ? err.message : 'Something went wrong.';
}
