import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { listIndex } from '../../discovery/index.js';
import { UnknownCursorPlayer } from '../../discovery/list-index.js';
import { cursorBinding, decodeCursor, encodeCursor, INVALID_CURSOR } from '../cursor.js';
import type { HttpDeps } from '../deps.js';
import { answerCurrency } from '../fields.js';
import { ApiError, forbidden, notFound } from '../errors.js';
import { clubCovered, competitionCovered, scopeOf } from '../guards.js';
import { commonErrors } from '../schemas.js';
import { PLAYER_LIST_CONFIG, parseSort, playerListQuery, playerListResponseSchema } from './players.schema.js';

/** GET /v1/players: the scouting list, filtered, sorted and paged by cursor, within the caller's plan. */
export function playersRoute(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/v1/players', {
    schema: {
      tags: ['discovery'],
      summary: 'The scouting list: filter, sort and page through players',
      description:
        'Players at a club at the as-of date that the caller\'s plan covers (players who retired or left the leagues the data ' +
        'follows are found by /v1/search and /v1/player_info, not listed here). `total` counts every match; following `next_cursor` until it is null visits each ' +
        'match exactly once. A cursor made for other filters or another sort is 400 `Invalid cursor`.',
      querystring: playerListQuery(() => deps.rates()),
      response: { 200: playerListResponseSchema, ...commonErrors },
    },
  }, async (req) => {
    const { cursor, limit, currency, sort, ...filters } = req.query;
    const s = deps.snapshot();
    const principal = req.principal!;
    // The account's preferred currency applies when the request names none, as on the valuation routes.
    const preferred = principal.preferredCurrency;
    const code = answerCurrency(currency, preferred, deps.rates());
    const sortLabel = sort ?? PLAYER_LIST_CONFIG.defaultSort;
    const binding = cursorBinding('players', { ...filters, currency: code, sort: sortLabel });
    const after = cursor === undefined ? null : decodeCursor(cursor, binding);

    if (filters.competition_id !== undefined && !s.competitions.has(filters.competition_id)) throw notFound.competition();
    if (filters.club_id !== undefined && !s.clubs.has(filters.club_id)) throw notFound.club();
    if (filters.competition_id !== undefined && !competitionCovered(principal, filters.competition_id)) throw forbidden.competition();
    if (filters.club_id !== undefined && !clubCovered(s, principal, filters.club_id)) throw forbidden.club();

    const { scope, key } = scopeOf(s, principal);
    let page;
    try {
      page = listIndex(s, deps.models()).list({
        filter: {
          competitionId: filters.competition_id,
          clubId: filters.club_id,
          positions: filters.position,
          minAge: filters.min_age,
          maxAge: filters.max_age,
          nationality: filters.nationality,
          preferredFoot: filters.preferred_foot,
          contractExpiresBefore: filters.contract_expires_before,
          minMarketValue: filters.min_market_value,
          maxMarketValue: filters.max_market_value,
          maxExpectedTransferValue: filters.max_expected_transfer_value,
          minRating: filters.min_rating,
          minPotential: filters.min_potential,
          analysisAvailableOnly: filters.analysis_available_only,
        },
        sort: parseSort(sortLabel),
        limit: limit ?? PLAYER_LIST_CONFIG.defaultLimit,
        after,
        scope,
        scopeKey: key,
        money: { code, rates: deps.rates() },
      });
    } catch (err) {
      // A cursor naming a player this data no longer holds.
      if (err instanceof UnknownCursorPlayer) throw new ApiError(400, INVALID_CURSOR);
      throw err;
    }
    return {
      currency: code,
      total: page.total,
      players: page.items,
      next_cursor: page.lastOfPage === null ? null : encodeCursor(binding, page.lastOfPage),
    };
  });
}
