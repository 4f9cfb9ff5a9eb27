import { api, unwrap } from '../api/client';
import { currencyBody, currencyQuery } from '../ui/currency';

export async function loadProfile(playerId: string) {
  const [profile, info] = await Promise.all([
    api.POST('/v1/query_player', { body: { service_id: playerId } }).then(unwrap),
    api.GET('/v1/player_info', { params: { query: { player_id: playerId } } }).then(unwrap),
  ]);
  return { profile, info };
}

export async function loadCareer(playerId: string) {
  return unwrap(await api.GET('/v1/career_path', { params: { query: { player_id: playerId } } })).career_path;
}

export async function loadPlayingTime(playerId: string) {
  return unwrap(await api.GET('/v1/playing_time', { params: { query: { player_id: playerId } } })).seasons;
}

/** Market value so far, today's expected fee and the value in three years at his own club, in one currency. */
export async function loadValues(playerId: string, clubId: string, currency: string | null) {
  const [fee, future, history] = await Promise.all([
    api.GET('/v1/expected_transfer_value', { params: { query: { player_id: playerId, ...currencyQuery(currency) } } }).then(unwrap),
    api.POST('/v1/get_future_transfer_value', { body: { player_id: playerId, club_id: clubId, ...currencyBody(currency) } }).then(unwrap),
    api.GET('/v1/market_value_history', { params: { query: { player_id: playerId, ...currencyQuery(currency) } } }).then(unwrap),
  ]);
  return { fee, future, history };
}

export interface RoiInput {
  readonly playerId: string;
  readonly clubId: string;
  readonly fee: number | null;
  readonly wage: number | null;
  /** null: the account's own. */
  readonly currency: string | null;
}

export async function loadRoi(i: RoiInput) {
  return unwrap(
    await api.POST('/v1/get_roi_analysis', {
      body: {
        player_id: i.playerId,
        club_id: i.clubId,
        ...currencyBody(i.currency),
        ...(i.fee !== null ? { expected_transfer_value: i.fee } : {}),
        ...(i.wage !== null ? { annual_wage: i.wage } : {}),
      },
    }),
  );
}

/** The six outcome categories, best first, as the API names them. */
export const CATEGORIES = ['Elite Prospect', 'Excellent Opportunity', 'Steady Grower', 'Stable Value', 'Decline', 'Major decline'] as const;
