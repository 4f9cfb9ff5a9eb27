import { api, unwrap } from '../api/client';
import { currencyBody, currencyQuery } from '../ui/currency';
import type { ShortlistEntry, ShortlistRow } from './data';

/** The scouting figures of one listed player; a figure the API refuses (no club, no analysis) stays empty. */
export async function shortlistRow(e: ShortlistEntry, currency: string | null): Promise<ShortlistRow & { currency: string | null }> {
  const info = await api.GET('/v1/player_info', { params: { query: { player_id: e.player_id } } }).then(unwrap);
  const clubId = info.current_team_id ?? info.owning_club_id;
  const [fee, future, club] = await Promise.all([
    api.GET('/v1/expected_transfer_value', { params: { query: { player_id: e.player_id, ...currencyQuery(currency) } } }).then(unwrap).catch(() => null),
    clubId ? api.POST('/v1/get_future_transfer_value', { body: { player_id: e.player_id, club_id: clubId, ...currencyBody(currency) } }).then(unwrap).catch(() => null) : null,
    clubId ? api.POST('/v1/query_club', { body: { service_id: clubId } }).then(unwrap).catch(() => null) : null,
  ]);
  return {
    ...e,
    age: info.age,
    position: info.position,
    club: club?.name ?? null,
    contract_end: info.contract_end_date,
    fee: fee?.expected_transfer_value ?? null,
    future_value: future?.future_transfer_value ?? null,
    currency: fee?.currency ?? future?.currency ?? null,
  };
}
