import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { toEur } from '../../money/convert.js';
import { futureValue } from '../../valuation/answers.js';
import type { HttpDeps } from '../deps.js';
import { presentFuture } from '../present/valuation.js';
import { bodyObject, clubIdField, currencyField, moneyInputField, playerIdField } from '../fields.js';
import { requirePlayerAndClub } from '../guards.js';
import { commonErrors } from '../schemas.js';
import { valuationContext } from '../valuation-context.js';
import { futureValueSchema } from './get-future-transfer-value.schema.js';

/** POST /v1/get_future_transfer_value */
export function getFutureTransferValueRoute(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const cache = app.answers;

  r.post('/v1/get_future_transfer_value', {
    schema: {
      tags: ['valuation'],
      summary: 'Market value in 3 years: category probabilities, comparables, 80% range',
      body: bodyObject({
        player_id: playerIdField(),
        club_id: clubIdField(),
        expected_transfer_value: moneyInputField('expected_transfer_value').describe('Baseline fee in currency_code; computed when omitted'),
        currency_code: currencyField('currency_code', () => deps.rates()),
      }),
      response: { 200: futureValueSchema, ...commonErrors },
    },
  }, async (req, reply) => {
    const b = req.body;
    const s = deps.snapshot();
    requirePlayerAndClub(s, req.principal!, b.player_id, b.club_id);
    const ctx = valuationContext(deps, reply, b.currency_code, req.principal!.preferredCurrency);
    const baseline = b.expected_transfer_value == null ? null : toEur(b.expected_transfer_value, ctx.money.code, ctx.money.rates);
    const key = `future|${b.player_id}|${b.club_id}|${baseline ?? ''}|${ctx.versions}`;
    return cache.get(key, () => presentFuture(futureValue(ctx.bundle, ctx.snapshot, { playerId: b.player_id, clubId: b.club_id, baselineValueEur: baseline }), ctx.money));
  });
}
