import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CLUB_ID_PATTERN } from '../../domain/ids.js';
import type { MatchForecastResult } from '../../valuation/analysis.js';
import { engineAnswer } from '../engine-answer.js';
import { ApiError, notFound } from '../errors.js';
import type { HttpDeps } from '../deps.js';
import { queryBoolean, requiredId } from '../fields.js';
import { requireClub } from '../guards.js';
import { presentMatch } from '../present/analysis.js';
import { commonErrors, warningsOut } from '../schemas.js';
import { valuationContext } from '../valuation-context.js';

export const SAME_CLUB = 'home_club_id and away_club_id must be different clubs';

const probability = (what: string) => z.number().min(0).max(1).describe(`Probability of ${what}, 4 decimals`);

/** GET /v1/match_forecast: one fixture of the analysis season as the league simulation plays it. */
export function matchForecastRoute(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const cache = app.answers;

  r.get('/v1/match_forecast', {
    schema: {
      tags: ['analysis'],
      summary: 'One fixture of the analysis season: win, draw and loss probabilities, expected goals and the likeliest scores, from the match model every simulation plays',
      querystring: z.object({
        home_club_id: requiredId('home_club_id', CLUB_ID_PATTERN).describe('The home club\'s service id'),
        away_club_id: requiredId('away_club_id', CLUB_ID_PATTERN).describe('The away club\'s service id'),
        neutral: queryBoolean('neutral').describe('true/false/1/0; true: a neutral venue, no home advantage; default false'),
      }),
      response: {
        200: z.object({
          home_club_id: z.string().describe('The home club'),
          away_club_id: z.string().describe('The away club'),
          season: z.string().describe('The analysis season, YYYY/YYYY: each club plays with its squad and strength of that season'),
          home_win: probability('a home win'),
          draw: probability('a draw'),
          away_win: probability('an away win'),
          expected_goals: z.object({
            home: z.number().describe('Expected goals of the home club (its Poisson goal rate), 2 decimals'),
            away: z.number().describe('Expected goals of the away club, 2 decimals'),
          }).describe('The two goal rates of the match model'),
          likely_scores: z.array(z.object({
            home: z.number().int().describe('Home goals'),
            away: z.number().int().describe('Away goals'),
            probability: probability('this exact score'),
          })).describe('The five likeliest scores, most likely first'),
          warnings: warningsOut(),
        }).describe('The match forecast; home_win + draw + away_win = 1 (to rounding)'),
        ...commonErrors,
      },
    },
  }, async (req, reply) => {
    const q = req.query;
    if (q.home_club_id === q.away_club_id) throw new ApiError(400, SAME_CLUB);
    const s = deps.snapshot();
    // every 404 before any coverage 403
    for (const id of [q.home_club_id, q.away_club_id]) if (!s.clubs.has(id)) throw notFound.club();
    requireClub(s, req.principal!, q.home_club_id);
    requireClub(s, req.principal!, q.away_club_id);
    const neutral = q.neutral ?? false;
    const ctx = valuationContext(deps, reply, undefined, null);
    const query = { homeClubId: q.home_club_id, awayClubId: q.away_club_id };
    return cache.getAsync(`match|${q.home_club_id}|${q.away_club_id}|${neutral}|${ctx.versions}`, async () =>
      presentMatch(await engineAnswer<MatchForecastResult>(deps, ctx, { kind: 'match', ...query, neutral }), query),
    );
  });
}
