import { api, unwrap } from '../api/client';
import { currencyBody } from '../ui/currency';
import type { SquadEntry } from './whatif';

export async function loadClub(clubId: string) {
  return unwrap(await api.POST('/v1/query_club', { body: { service_id: clubId } }));
}

/** The actual squad when `squad` is null, else the what-if squad; money in `currency` (null: the account's). */
export async function analyseSquad(clubId: string, squad: readonly SquadEntry[] | null, currency: string | null) {
  const body = { club_id: clubId, ...currencyBody(currency), ...(squad === null ? {} : { squad: squad.map((e) => ({ player_id: e.player_id, position: e.position })) }) };
  return unwrap(await api.POST('/v1/squad_analysis', { body }));
}

export type SquadAnswer = Awaited<ReturnType<typeof analyseSquad>>;
