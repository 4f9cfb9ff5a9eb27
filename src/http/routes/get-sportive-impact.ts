import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { SportiveImpactResult } from '../../valuation/analysis.js';
import { engineAnswer } from '../engine-answer.js';
import type { HttpDeps } from '../deps.js';
import { bodyObject, clubIdField, currencyField, playerIdField } from '../fields.js';
import { requirePlayerAndClub } from '../guards.js';
import { commonErrors } from '../schemas.js';
import { presentImpact } from '../present/analysis.js';
import { valuationContext } from '../valuation-context.js';
import { sportiveImpactSchema } from './get-sportive-impact.schema.js';

export const MAX_SQUAD = 60;

/** POST /v1/get_sportive_impact */
export function getSportiveImpactRoute(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const cache = app.answers;

  r.post('/v1/get_sportive_impact', {
    schema: {
      tags: ['analysis'],
      summary: 'What the player adds on the pitch for a club: expected league position with and without him over 3 seasons, playing time, money',
      body: bodyObject({ player_id: playerIdField(), club_id: clubIdField(), currency_code: currencyField('currency_code', () => deps.rates()) }),
      response: { 200: sportiveImpactSchema, ...commonErrors },
    },
  }, async (req, reply) => {
    const b = req.body;
    requirePlayerAndClub(deps.snapshot(), req.principal!, b.player_id, b.club_id);
    const ctx = valuationContext(deps, reply, b.currency_code, req.principal!.preferredCurrency);
    return cache.getAsync(`impact|${b.player_id}|${b.club_id}|${ctx.versions}`, async () => {
      const impact = await engineAnswer<SportiveImpactResult>(deps, ctx, { kind: 'impact', playerId: b.player_id, clubId: b.club_id });
      return presentImpact(impact, ctx.money);
    });
  });
}
