import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CLUB_ID_PATTERN } from '../../domain/ids.js';
import { resolveCurrency } from '../../money/currencies.js';
import { toEur } from '../../money/convert.js';
import type { Snapshot } from '../../domain/snapshot.js';
import type { ModelBundle } from '../../valuation/bundle.js';
import { expectedFeeAnswer, futureValueAnswer, type Money } from '../../valuation/answers.js';
import { AnswerCache } from '../answer-cache.js';
import { ApiError, notFound } from '../errors.js';
import type { HttpDeps } from '../deps.js';
import { bodyObject, clubIdField, currencyField, isoDateField, moneyInputField, optionalId, playerIdField } from '../fields.js';
import { requirePlayer, requirePlayerAndClub } from '../guards.js';
import { commonErrors } from '../schemas.js';

const range = z.object({ low: z.number().int(), high: z.number().int() }).describe('80% range, requested currency');

export const futureValueSchema = z.object({
  currency: z.string(),
  future_transfer_value: z.number().int(),
  future_transfer_value_in_eur: z.number().int(),
  future_transfer_value_range: range,
  value_category: z.enum(['Elite Prospect', 'Excellent Opportunity', 'Steady Grower', 'Stable Value', 'Decline', 'Major decline']),
  probabilities_of_different_outcomes: z.object({ probabilities: z.record(z.string(), z.number()), sample_size: z.number().int().nullable() }),
  explanations: z.object({
    simulation_years: z.literal(3),
    over_thirthy_years: z.boolean(),
    similar_players: z.array(
      z.object({
        name: z.string(),
        initial_value: z.number().int(),
        initial_rating: z.number().int(),
        initial_potential: z.number().int(),
        later_transfer_value: z.number().int(),
        age: z.number().int(),
        season: z.string(),
        position: z.string(),
        best_role: z.string(),
      }),
    ),
  }),
});

export const MODEL_VERSION_HEADER = 'Touchline-Model-Version';

/** What every valuation request needs: data, models, money, and the header naming the models. */
export function valuationContext(deps: HttpDeps, reply: FastifyReply, currency: string | undefined, preferred: string | null) {
  const bundle: ModelBundle | null = deps.models();
  if (!bundle) throw new ApiError(503, 'Models are being trained; try again shortly');
  reply.header(MODEL_VERSION_HEADER, bundle.version);
  const rates = deps.rates();
  // The account's preferred currency applies when the request names none.
  const fallback = preferred && resolveCurrency(preferred, rates).ok ? preferred.toUpperCase() : 'EUR';
  const money: Money = { code: currency ?? fallback, rates };
  const snapshot: Snapshot = deps.snapshot();
  const versions = `${snapshot.dataVersion}|${snapshot.ratingsVersion}|${snapshot.membershipVersion}|${bundle.version}|${rates.date}|${money.code}`;
  return { bundle, money, snapshot, versions };
}

/** Expected transfer fee and 3-year future value. */
export function valuationRoutes(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const cache = new AnswerCache();
  const acceptsCurrency = (code: string) => resolveCurrency(code, deps.rates()).ok;

  r.get('/v1/expected_transfer_value', {
    schema: {
      tags: ['valuation'],
      summary: 'Expected transfer fee now, with an 80% range',
      querystring: z.object({
        player_id: playerIdField(),
        target_club_id: optionalId('target_club_id', CLUB_ID_PATTERN).describe('Prospective buying club'),
        currency: currencyField('currency', acceptsCurrency),
        contract_end_date: isoDateField('contract_end_date').optional().describe('Contract end to assume, YYYY-MM-DD'),
      }),
      response: {
        200: z.object({ currency: z.string(), expected_transfer_value: z.number().int(), expected_transfer_value_in_eur: z.number().int(), expected_transfer_value_range: range }),
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
      expectedFeeAnswer(ctx.bundle, ctx.snapshot, ctx.money, { playerId: q.player_id, targetClubId: q.target_club_id, contractEndDate: q.contract_end_date }).body,
    );
  });

  r.post('/v1/get_future_transfer_value', {
    schema: {
      tags: ['valuation'],
      summary: 'Market value in 3 years: category probabilities, comparables, 80% range',
      body: bodyObject({
        player_id: playerIdField(),
        club_id: clubIdField(),
        expected_transfer_value: moneyInputField('expected_transfer_value').describe('Baseline fee in currency_code; computed when omitted'),
        currency_code: currencyField('currency_code', acceptsCurrency),
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
    return cache.get(key, () => futureValueAnswer(ctx.bundle, ctx.snapshot, ctx.money, { playerId: b.player_id, clubId: b.club_id, baselineValueEur: baseline }).body);
  });
}
