import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { LeagueForecastResult } from '../../valuation/analysis.js';
import { engineAnswer } from '../engine-answer.js';
import { presentForecast } from '../present/analysis.js';
import type { HttpDeps } from '../deps.js';
import { forbidden, notFound } from '../errors.js';
import { currencyField } from '../fields.js';
import { competitionCovered } from '../guards.js';
import { commonErrors, warningsOut } from '../schemas.js';
import { valuationContext } from '../valuation-context.js';

const NOT_A_LEAGUE = 'Competition is not a domestic league';

const forecastClubSchema = z.object({
  club_id: z.string().describe('Club service id'),
  name: z.string().describe('Club name'),
  expected_position: z.number().describe('Expected final place in the analysis season (the mean over the simulated runs), 2 decimals, 1 is best; one simulation of the whole league, so the clubs\' expected positions average (n+1)/2; equals /squad_analysis expected_league_rank for the actual squad'),
  expected_points: z.number().describe('Expected points at the end of the season (3 a win, 1 a draw), 1 decimal'),
  position_probabilities: z.array(z.number()).describe('Probability of each final place, place 1 first; one per club of the league, summing to 1'),
  expected_revenue: z.number().int().describe('Expected money the league pays for the final place (merit and prize money by place, and the value of the European place it leads to) over the place distribution, in currency; never negative: relegation\'s cost (next season\'s smaller income) is not league revenue and is left out here, while sportive impact counts it'),
  expected_revenue_in_eur: z.number().int().describe('expected_revenue in EUR'),
});

/** GET /v1/league_forecast: the analysis season's table of a domestic league, simulated. */
export function leagueForecastRoute(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const cache = app.answers;

  r.get('/v1/league_forecast', {
    schema: {
      tags: ['analysis'],
      summary: 'The analysis season\'s table of a domestic league, simulated: expected place, points, place probabilities and league money per club',
      querystring: z.object({
        competition_id: z
          .string({ error: 'competition_id is required' })
          .min(1, { error: 'competition_id is required' })
          // A known competition of another kind is a bad value (400); an unknown one is 404 after validation.
          .superRefine((id, ctx) => {
            const c = deps.snapshot().competitions.get(id);
            if (c && c.type !== 'DOMESTIC_LEAGUE') ctx.addIssue({ code: 'custom', message: NOT_A_LEAGUE });
          })
          .describe('A domestic league id from /v1/competitions'),
        currency: currencyField('currency', () => deps.rates()),
      }),
      response: {
        200: z.object({
          competition: z.string().describe('The competition id'),
          season: z.string().describe('The analysis season, YYYY/YYYY'),
          currency: z.string().describe('Currency of the money fields'),
          clubs: z.array(forecastClubSchema).describe('The league\'s clubs in the analysis season (set by `touchline leagues set-clubs`, else the current season\'s), ordered by expected position'),
          warnings: warningsOut(),
        }).describe('The simulated table'),
        ...commonErrors,
      },
    },
  }, async (req, reply) => {
    const q = req.query;
    const s = deps.snapshot();
    if (!s.competitions.has(q.competition_id)) throw notFound.competition();
    if (!competitionCovered(req.principal!, q.competition_id)) throw forbidden.competition();
    const ctx = valuationContext(deps, reply, q.currency, req.principal!.preferredCurrency);
    return cache.getAsync(`forecast|${q.competition_id}|${ctx.versions}`, async () =>
      presentForecast(await engineAnswer<LeagueForecastResult>(deps, ctx, { kind: 'forecast', league: q.competition_id }), ctx.snapshot, ctx.money),
    );
  });
}
