import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CLUB_ID_PATTERN } from '../../domain/ids.js';
import { expectedFee } from '../../valuation/answers.js';
import { notFound } from '../errors.js';
import type { HttpDeps } from '../deps.js';
import { presentFee } from '../present/valuation.js';
import { currencyField, isoDateField, optionalId, playerIdField } from '../fields.js';
import { requirePlayer } from '../guards.js';
import { commonErrors, currencyOut, moneyEurOut, moneyOut, rangeOut, warningsOut } from '../schemas.js';
import { valuationContext } from '../valuation-context.js';

/** GET /v1/expected_transfer_value */
export function expectedTransferValueRoute(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const cache = app.answers;

  r.get('/v1/expected_transfer_value', {
    schema: {
      tags: ['valuation'],
      summary: 'Expected transfer fee now, with an 80% range',
      querystring: z.object({
        player_id: playerIdField(),
        target_club_id: optionalId('target_club_id', CLUB_ID_PATTERN).describe('Prospective buying club'),
        currency: currencyField('currency', () => deps.rates()),
        contract_end_date: isoDateField('contract_end_date').optional().describe('Contract end to assume, YYYY-MM-DD'),
      }),
      response: {
        200: z
          .object({
            currency: currencyOut(),
            expected_transfer_value: moneyOut('Expected fee for a transfer now (to target_club_id when given)'),
            expected_transfer_value_in_eur: moneyEurOut('expected_transfer_value'),
            expected_transfer_value_range: rangeOut('the fee', 'Low end (10th percentile)', 'High end (90th percentile)'),
            contract_end_date: z.string().nullable()
              .describe('The contract end the fee assumes, YYYY-MM-DD: contract_end_date when given, else the registry\'s; null when unknown. Fewer months left never raise the fee; an ended contract is a free transfer (0, warning free_agent)'),
            warnings: warningsOut(),
          })
          .describe('The expected transfer fee'),
        ...commonErrors,
      },
    },
  }, async (req, reply) => {
    const q = req.query;
    const s = deps.snapshot();
    if (!s.players.has(q.player_id)) throw notFound.player();
    if (q.target_club_id && !s.clubs.has(q.target_club_id)) throw notFound.club();
    requirePlayer(s, req.principal!, q.player_id, { analysis: true });
    const ctx = valuationContext(deps, reply, q.currency, req.principal!.preferredCurrency);
    const key = `fee|${q.player_id}|${q.target_club_id ?? ''}|${q.contract_end_date ?? ''}|${ctx.versions}`;
    return cache.get(key, () =>
      presentFee(expectedFee(ctx.bundle, ctx.snapshot, { playerId: q.player_id, targetClubId: q.target_club_id, contractEndDate: q.contract_end_date }), ctx.money),
    );
  });
}
