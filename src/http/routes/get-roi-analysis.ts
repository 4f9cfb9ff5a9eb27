import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { toEur } from '../../money/convert.js';
import type { RoiResult } from '../../valuation/analysis.js';
import { engineAnswer } from '../engine-answer.js';
import type { HttpDeps } from '../deps.js';
import { bodyObject, clubIdField, currencyField, moneyInputField, playerIdField } from '../fields.js';
import { requirePlayerAndClub } from '../guards.js';
import { commonErrors, currencyOut, moneyEurOut, moneyOut, warningsOut } from '../schemas.js';
import { presentRoi } from '../present/analysis.js';
import { valuationContext } from '../valuation-context.js';
import { futureValueSchema } from './get-future-transfer-value.schema.js';
import { sportiveImpactSchema } from './get-sportive-impact.schema.js';

export const MAX_SQUAD = 60;

/** POST /v1/get_roi_analysis */
export function getRoiAnalysisRoute(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const cache = app.answers;

  r.post('/v1/get_roi_analysis', {
    schema: {
      tags: ['analysis'],
      summary: 'Whether a signing pays back: sportive impact plus future value against fee and wages over 3 years',
      body: bodyObject({
        player_id: playerIdField(),
        club_id: clubIdField(),
        annual_wage: moneyInputField('annual_wage').describe('In currency_code; omitted means no wage cost'),
        expected_transfer_value: moneyInputField('expected_transfer_value').describe('Fee in currency_code; computed when omitted'),
        currency_code: currencyField('currency_code', () => deps.rates()),
      }),
      response: {
        200: z
          .object({
            currency: currencyOut(),
            expected_transfer_value: moneyOut('The fee counted as cost: the one given, else the expected fee for a move to club_id'),
            expected_transfer_value_in_eur: moneyEurOut('expected_transfer_value'),
            annual_wage: z.number().int().nullable().describe('The yearly wage counted as cost, in `currency`; null when none was given'),
            annual_wage_in_eur: z.number().int().nullable().describe('annual_wage in EUR; null when none was given'),
            total_value_created: moneyOut('Value created over the 3 years: sportive_impact.on_field_value + future_transfer_value.future_transfer_value'),
            total_value_created_in_eur: moneyEurOut('total_value_created'),
            return_on_investment: z.number().nullable().describe(
              'Value created ÷ cost = total_value_created ÷ (expected_transfer_value + 3 × annual_wage), 4 decimals; ' +
                'above 1 the signing creates more than it costs; null when the cost is 0',
            ),
            sportive_impact: sportiveImpactSchema.describe('Exactly what /v1/get_sportive_impact answers for this player, club and currency'),
            future_transfer_value: futureValueSchema.describe(
              'Exactly what /v1/get_future_transfer_value answers for this player, club and currency with no fee given (the fee here is a cost, not his worth)',
            ),
            player_info: z
              .object({
                age: z.number().int().nullable().describe('Whole years at the as-of date; null when unknown'),
                position: z.string().describe('Position code from our latest rating'),
                best_role: z.string().describe('Best role from our latest rating'),
                current_rating: z.number().int().nullable().describe('Our latest rating, 1-99; null when he has none'),
                current_potential: z.number().int().nullable().describe('Our latest potential, 1-99; null when he has none'),
              })
              .describe('The player as rated today'),
            warnings: warningsOut(),
          })
          .describe('Whether the signing pays back over 3 years'),
        ...commonErrors,
      },
    },
  }, async (req, reply) => {
    const b = req.body;
    requirePlayerAndClub(deps.snapshot(), req.principal!, b.player_id, b.club_id);
    const ctx = valuationContext(deps, reply, b.currency_code, req.principal!.preferredCurrency);
    const wage = b.annual_wage ?? null;
    const fee = b.expected_transfer_value ?? null;
    return cache.getAsync(`roi|${b.player_id}|${b.club_id}|${wage}|${fee}|${ctx.versions}`, async () => {
      const eur = (amount: number | null) => (amount === null ? null : toEur(amount, ctx.money.code, ctx.money.rates));
      const result = await engineAnswer<RoiResult>(deps, ctx, {
        kind: 'roi', playerId: b.player_id, clubId: b.club_id, feeEur: eur(fee), annualWageEur: eur(wage),
      });
      return presentRoi(result, { expectedTransferValue: fee, annualWage: wage }, ctx.money);
    });
  });
}
