import { api, unwrap } from '../api/client';

export async function loadCompetitions(): Promise<string[]> {
  return unwrap(await api.GET('/v1/competitions')).competitions;
}

export async function loadClubs(competitionId: string) {
  const clubs = unwrap(await api.GET('/v1/get_clubs_in_competition', { params: { query: { competition_id: competitionId } } })).clubs;
  return [...clubs].sort((a, b) => a.name.localeCompare(b.name));
}

export async function loadPlayers(clubId: string) {
  const answer = unwrap(await api.GET('/v1/get_players_at_club', { params: { query: { club_id: clubId, analysis_available_only: 'true' } } }));
  return { ...answer, players: [...answer.players].sort((a, b) => a.name.localeCompare(b.name)) };
}

/**
 * A club's current domestic league, or null (a national team, a club outside every league). The API
 * names it only in a club's search result, so the club is looked up by its name.
 */
export async function loadClubLeague(clubId: string, clubName: string): Promise<string | null> {
  const q = clubName.trim().slice(0, 100);
  if (q.length < 2) return null;
  const { results } = unwrap(await api.GET('/v1/search', { params: { query: { q, type: 'club', limit: '10' } } }));
  return results.find((r) => r.service_id === clubId)?.competition ?? null;
}
