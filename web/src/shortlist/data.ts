import { api, unwrap } from '../api/client';

export async function loadShortlist() {
  return unwrap(await api.GET('/v1/shortlist')).players;
}

export type ShortlistEntry = Awaited<ReturnType<typeof loadShortlist>>[number];

export async function addToShortlist(playerId: string, note?: string) {
  return unwrap(await api.POST('/v1/shortlist', { body: note === undefined ? { player_id: playerId } : { player_id: playerId, note } }));
}

export async function removeFromShortlist(playerId: string): Promise<void> {
  const r = await api.DELETE('/v1/shortlist', { params: { query: { player_id: playerId } } });
  if (r.response.status !== 204 && r.response.status !== 404) unwrap(r as never);
}

/** One row per player for the shortlist page: the list joined with the scouting figures. */
export interface ShortlistRow {
  readonly player_id: string;
  readonly name: string;
  readonly note: string | null;
  readonly added_at: string;
  readonly age: number | null;
  readonly position: string | null;
  readonly club: string | null;
  readonly contract_end: string | null;
  readonly fee: number | null;
  readonly future_value: number | null;
}

export const CSV_COLUMNS: readonly (keyof ShortlistRow)[] = ['name', 'position', 'age', 'club', 'contract_end', 'fee', 'future_value', 'note', 'added_at', 'player_id'];

export function csvCell(v: unknown): string {
  const s = v === null || v === undefined ? '' : String(v);
  // RFC 4180 quoting; a leading = + - @ is prefixed so a spreadsheet never runs it as a formula.
  const safe = /^[=+\-@]/.test(s) && !/^-?\d/.test(s) ? `'${s}` : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function shortlistCsv(rows: readonly ShortlistRow[], currency: string): string {
  const header = CSV_COLUMNS.map((c) => (c === 'fee' || c === 'future_value' ? `${c}_${currency.toLowerCase()}` : c));
  return [header, ...rows.map((r) => CSV_COLUMNS.map((c) => r[c]))].map((line) => line.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
