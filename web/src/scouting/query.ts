/** The scouting list's filters, as kept in the page's address and sent to /v1/players. */
export const FILTERS = [
  'competition_id',
  'club_id',
  'position',
  'min_age',
  'max_age',
  'nationality',
  'preferred_foot',
  'min_market_value',
  'max_market_value',
  'max_expected_transfer_value',
  'contract_expires_before',
  'min_rating',
  'min_potential',
  'analysis_available_only',
] as const;
export type Filter = (typeof FILTERS)[number];

export const SORTS = ['market_value', 'expected_transfer_value', 'rating', 'potential', 'age', 'name', 'contract_end_date'] as const;
export const DEFAULT_SORT = '-market_value';

/** Only known, non-empty parameters: what the URL holds is what the API gets. */
export function listQuery(q: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of FILTERS) {
    const v = q.get(f)?.trim();
    if (v) out[f] = v;
  }
  const sort = q.get('sort');
  if (sort && SORTS.includes(sort.replace(/^-/, '') as (typeof SORTS)[number])) out.sort = sort;
  const cursor = q.get('cursor');
  if (cursor) out.cursor = cursor;
  return out;
}

/** Clicking a column: sort by it descending first (best first), then flip. */
export function nextSort(current: string, column: string): string {
  return current === `-${column}` ? column : `-${column}`;
}
