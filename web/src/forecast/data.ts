import { api, unwrap } from '../api/client';

/** The analysis season's simulated table of a domestic league, ordered by expected position, money in `currency`. */
export async function loadForecast(competitionId: string, currency: string) {
  return unwrap(await api.GET('/v1/league_forecast', { params: { query: { competition_id: competitionId, currency } } }));
}

export type Forecast = Awaited<ReturnType<typeof loadForecast>>;
