import { api, unwrap } from '../api/client';
import { currencyQuery } from '../ui/currency';

/** What the compare page shows of one player: profile, value, fee and his latest rating. */
export async function loadCompared(playerId: string, currency: string | null) {
  const [profile, info, fee, history] = await Promise.all([
    api.POST('/v1/query_player', { body: { service_id: playerId } }).then(unwrap),
    api.GET('/v1/player_info', { params: { query: { player_id: playerId } } }).then(unwrap),
    api.GET('/v1/expected_transfer_value', { params: { query: { player_id: playerId, ...currencyQuery(currency) } } }).then(unwrap).catch(() => null),
    api.GET('/v1/market_value_history', { params: { query: { player_id: playerId, ...currencyQuery(currency) } } }).then(unwrap),
  ]);
  const rating = history.ratings.at(-1) ?? null;
  return {
    id: playerId,
    name: profile.name,
    age: info.age,
    position: info.position,
    nationality: info.nationality,
    foot: info.preferred_foot,
    height: profile.height,
    contract: info.contract_end_date,
    currency: fee?.currency ?? history.currency,
    market_value: history.market_values.at(-1)?.value ?? null,
    fee: fee?.expected_transfer_value ?? null,
    rating: rating?.rating ?? null,
    potential: rating?.potential ?? null,
  };
}

export type Compared = Awaited<ReturnType<typeof loadCompared>>;

/** The compared ids as kept in the address: up to four, no repeats. */
export function comparedIds(q: URLSearchParams): string[] {
  return [...new Set((q.get('players') ?? '').split(',').filter((s) => /^P[0-9A-Z]{26}$/.test(s)))].slice(0, 4);
}
