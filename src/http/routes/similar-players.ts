import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { similarIndex } from '../../discovery/index.js';
import type { RateTable } from '../../money/rates.js';
import type { HttpDeps } from '../deps.js';
import { forbidden, notFound } from '../errors.js';
import { amountQuery, answerCurrency, currencyField, intRangeQuery, playerIdField } from '../fields.js';
import { competitionCovered, requirePlayer, scopeOf } from '../guards.js';
import { commonErrors, currencyOut, playerIdOut } from '../schemas.js';
import { positionList } from './players.schema.js';

/** The endpoint's settings, read in one place. */
export const SIMILAR_PLAYERS_CONFIG = { defaultLimit: 10, maxLimit: 50, ages: { min: 14, max: 50 } } as const;

/** The query, in the order of EXTENSIONS.md's table (the first failing field answers). */
function similarPlayersQuery(rates: () => RateTable) {
  const { ages, maxLimit } = SIMILAR_PLAYERS_CONFIG;
  return z.object({
    player_id: playerIdField(),
    position: positionList
      .optional()
      .describe('Only players at these positions: one or more position codes, comma-separated (e.g. CB,CDM); default any'),
    max_age: intRangeQuery('max_age', ages.min, ages.max).optional().describe('Whole years at the as-of date, 14-50'),
    max_expected_transfer_value: amountQuery('max_expected_transfer_value').optional()
      .describe('In `currency`: expected transfer fee at most this (players without analysis data have none and are left out)'),
    competition_id: z.string({ error: 'Invalid competition_id' }).min(1, { error: 'Invalid competition_id' }).optional()
      .describe('Only players whose current team plays in this competition this season'),
    limit: intRangeQuery('limit', 1, maxLimit).optional().describe('1-50, default 10'),
    currency: currencyField('currency', rates),
  });
}

const itemSchema = z.object({
  service_id: z.string().describe('Player service id'),
  name: z.string().describe('Full display name'),
  age: z.number().int().nullable().describe('Whole years at the as-of date'),
  club_id: z.string().nullable().describe('Current team'),
  club_name: z.string().nullable().describe('Current team name'),
  position: z.string().describe('Position code'),
  player_role: z.string().describe('Role, see /v1/role_description'),
  similarity: z.number().describe('0-1, three decimals: 1 is the same profile'),
  market_value_in_eur: z.number().int().nullable().describe('Latest crowd value on or before the as-of date, EUR; null when unknown'),
  expected_transfer_value: z.number().int().nullable()
    .describe('What /v1/expected_transfer_value answers with no target club and no contract date, in `currency`; null without analysis data'),
  expected_transfer_value_in_eur: z.number().int().nullable().describe('The same fee in EUR'),
  shared_traits: z.array(z.string()).describe('Up to three short phrases on what he shares with the player asked (e.g. "press-resistant passer", "left-footed")'),
}).describe('A player like the one asked');

const responseSchema = z.object({
  player_id: playerIdOut(),
  currency: currencyOut(),
  players: z.array(itemSchema).describe('Most similar first, at most `limit`; never the player asked'),
}).describe('Players like this one');

/** GET /v1/similar_players: players who play like him, at his level, within the caller's plan. */
export function similarPlayersRoute(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/v1/similar_players', {
    schema: {
      tags: ['discovery'],
      summary: 'Players like this one: how he plays and at what level',
      description:
        'Players at a club at the as-of date that the caller\'s plan covers, other than him, most similar first. Similarity compares ' +
        'where on the pitch they play and their role, their level (our rating and the crowd value), the EA attribute profile where both ' +
        'have one (a style: each attribute relative to the player\'s own level, within his position group), foot, height, age and ' +
        'share of starts; the data holds no per-90 output (goals, assists), so none is used. A like-for-like replacement ranks above ' +
        'a player who only shares the position. The player asked must exist (404) and be covered (403).',
      querystring: similarPlayersQuery(() => deps.rates()),
      response: { 200: responseSchema, ...commonErrors },
    },
  }, async (req) => {
    const { player_id: playerId, position, max_age: maxAge, max_expected_transfer_value: maxFee, competition_id: competitionId, limit, currency } = req.query;
    const s = deps.snapshot();
    const principal = req.principal!;
    // 404s before 403s: the player, then the competition; then the player's coverage, then the competition's.
    if (!s.players.has(playerId)) throw notFound.player();
    if (competitionId !== undefined && !s.competitions.has(competitionId)) throw notFound.competition();
    requirePlayer(s, principal, playerId);
    if (competitionId !== undefined && !competitionCovered(principal, competitionId)) throw forbidden.competition();

    const code = answerCurrency(currency, principal.preferredCurrency, deps.rates());
    const players = similarIndex(s, deps.models()).similar({
      playerId,
      filter: { positions: position, maxAge, maxExpectedTransferValue: maxFee, competitionId },
      limit: limit ?? SIMILAR_PLAYERS_CONFIG.defaultLimit,
      scope: scopeOf(s, principal).scope,
      money: { code, rates: deps.rates() },
    });
    return { player_id: playerId, currency: code, players };
  });
}
