import { api, unwrap } from '../api/client';
import { currencyQuery } from '../ui/currency';

/** The analysis season's simulated table of a domestic league, ordered by expected position, money in `currency` (null: the account's). */
export async function loadForecast(competitionId: string, currency: string | null) {
  return unwrap(await api.GET('/v1/league_forecast', { params: { query: { competition_id: competitionId, ...currencyQuery(currency) } } }));
}

export type Forecast = Awaited<ReturnType<typeof loadForecast>>;
