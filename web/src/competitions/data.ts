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
