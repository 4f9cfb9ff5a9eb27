import { api, unwrap } from '../api/client';
import type { SquadEntry } from './whatif';

export async function loadClub(clubId: string) {
  return unwrap(await api.POST('/v1/query_club', { body: { service_id: clubId } }));
}

/** The actual squad when `squad` is null, else the what-if squad. */
export async function analyseSquad(clubId: string, squad: readonly SquadEntry[] | null, currency: string) {
  const body = squad === null ? { club_id: clubId, currency_code: currency } : { club_id: clubId, currency_code: currency, squad: squad.map((e) => ({ player_id: e.player_id, position: e.position })) };
  return unwrap(await api.POST('/v1/squad_analysis', { body }));
}

export type SquadAnswer = Awaited<ReturnType<typeof analyseSquad>>;
