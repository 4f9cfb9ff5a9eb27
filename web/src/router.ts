/**
 * Pages live in the URL's fragment (#/player/P…?club=C…): the server serves one file at `/`, and a
 * page or a what-if can be shared by its URL. Never the key.
 */
export type Route =
  | { readonly page: 'competitions' }
  | { readonly page: 'competition'; readonly id: string }
  | { readonly page: 'club'; readonly id: string; readonly query: URLSearchParams }
  | { readonly page: 'player'; readonly id: string; readonly query: URLSearchParams }
  | { readonly page: 'scouting'; readonly query: URLSearchParams }
  | { readonly page: 'forecast'; readonly id: string; readonly query: URLSearchParams }
  | { readonly page: 'recommend' }
  | { readonly page: 'shortlist' }
  | { readonly page: 'lists'; readonly query: URLSearchParams }
  | { readonly page: 'shadow' }
  | { readonly page: 'compare'; readonly query: URLSearchParams }
  | { readonly page: 'squads' }
  | { readonly page: 'forecasts' }
  | { readonly page: 'accuracy' }
  | { readonly page: 'not-found' };

export function parseRoute(hash: string): Route {
  const raw = hash.replace(/^#/, '') || '/';
  const [path, search = ''] = raw.split('?', 2);
  const query = new URLSearchParams(search);
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0) return { page: 'competitions' };
  if (parts.length === 1 && parts[0] === 'scouting') return { page: 'scouting', query };
  if (parts.length === 1 && parts[0] === 'recommend') return { page: 'recommend' };
  if (parts.length === 1 && parts[0] === 'shortlist') return { page: 'shortlist' };
  if (parts.length === 1 && parts[0] === 'lists') return { page: 'lists', query };
  if (parts.length === 1 && parts[0] === 'shadow') return { page: 'shadow' };
  if (parts.length === 1 && parts[0] === 'compare') return { page: 'compare', query };
  if (parts.length === 1 && parts[0] === 'squad') return { page: 'squads' };
  if (parts.length === 1 && parts[0] === 'forecast') return { page: 'forecasts' };
  if (parts.length === 1 && parts[0] === 'accuracy') return { page: 'accuracy' };
  if (parts.length === 2 && parts[0] === 'competition') return { page: 'competition', id: parts[1] };
  if (parts.length === 2 && parts[0] === 'forecast') return { page: 'forecast', id: parts[1], query };
  if (parts.length === 2 && parts[0] === 'club') return { page: 'club', id: parts[1], query };
  if (parts.length === 2 && parts[0] === 'player') return { page: 'player', id: parts[1], query };
  return { page: 'not-found' };
}

export function href(path: string, query?: URLSearchParams | Record<string, string>): string {
  const q = query instanceof URLSearchParams ? query : new URLSearchParams(query);
  const s = q.toString();
  return `#${path}${s ? `?${s}` : ''}`;
}

export const links = {
  competitions: () => href('/'),
  scouting: (query?: URLSearchParams) => href('/scouting', query),
  recommend: () => href('/recommend'),
  shortlist: () => href('/shortlist'),
  lists: (listId?: number) => href('/lists', listId === undefined ? undefined : { list: String(listId) }),
  shadowSquad: () => href('/shadow'),
  compare: (ids?: readonly string[]) => href('/compare', ids?.length ? { players: ids.join(',') } : undefined),
  squads: () => href('/squad'),
  forecasts: () => href('/forecast'),
  accuracy: () => href('/accuracy'),
  competition: (id: string) => href(`/competition/${encodeURIComponent(id)}`),
  /** `club` is marked in the table and the heat map. */
  forecast: (competitionId: string, club?: string) => href(`/forecast/${encodeURIComponent(competitionId)}`, club ? { club } : undefined),
  club: (id: string, query?: URLSearchParams) => href(`/club/${encodeURIComponent(id)}`, query),
  player: (id: string, query?: Record<string, string>) => href(`/player/${encodeURIComponent(id)}`, query),
};
