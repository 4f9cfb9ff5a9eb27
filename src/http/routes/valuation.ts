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
import { commonErrors, currencyOut, moneyEurOut, moneyOut, warningsOut } from '../schemas.js';

const range = (what: string, low: string, high: string) =>
  z
    .object({
      low: z.number().int().describe(`${low}, in \`currency\``),
      high: z.number().int().describe(`${high}, in \`currency\``),
    })
    .describe(`80% range of ${what}: 8 in 10 outcomes fall inside it`);

const CATEGORY_BANDS =
  'the band of future value ÷ baseline: Elite Prospect ≥ 2.5, Excellent Opportunity 1.5–2.5, Steady Grower 1.1–1.5, ' +
  'Stable Value 0.8–1.1, Decline 0.5–0.8, Major decline < 0.5 (the baseline is the fee given, else the expected fee)';

export const futureValueSchema = z
  .object({
    currency: currencyOut(),
    future_transfer_value: moneyOut('Median of the predicted market value 3 years after the as-of date (by default the eve of the analysis season)'),
    future_transfer_value_in_eur: moneyEurOut('future_transfer_value'),
    future_transfer_value_range: range('the value in 3 years', '10th percentile of the same distribution', '90th percentile'),
    value_category: z.enum(['Elite Prospect', 'Excellent Opportunity', 'Steady Grower', 'Stable Value', 'Decline', 'Major decline'])
      .describe(`The band that holds future_transfer_value: ${CATEGORY_BANDS}`),
    probabilities_of_different_outcomes: z
      .object({
        probabilities: z.record(z.string(), z.number())
          .describe('Each of the six categories to the share of the predicted distribution in its band; they sum to 1'),
        sample_size: z.number().int().nullable().describe('How many comparable historical player-seasons the comparison drew on'),
      })
      .describe('How likely each category is'),
    explanations: z
      .object({
        simulation_years: z.literal(3).describe('Years simulated: always 3'),
        over_thirthy_years: z.boolean().describe('Spelled so by the contract: true when he is over 30 at some point of the 3 years (age + 3 > 30); he is then compared with players on that side of 30'),
        similar_players: z
          .array(
            z
              .object({
                name: z.string().describe('The comparable player'),
                initial_value: z.number().int().describe('His market value when the comparison starts, in `currency`'),
                initial_rating: z.number().int().describe('His rating then, 1-99'),
                initial_potential: z.number().int().describe('His potential then, 1-99'),
                later_transfer_value: z.number().int().describe('His market value 3 years later, in `currency`'),
                age: z.number().int().describe('His age then, whole years'),
                season: z.string().describe('The season the comparison starts, YYYY/YYYY'),
                position: z.string().describe('His position code then'),
                best_role: z.string().describe('His best role then'),
              })
              .describe('A historical player-season like this one, and how his value went'),
          )
          .describe('Up to 10 nearest comparables: same position group and side of 30, close in rating, potential, age, value and club'),
      })
      .describe('What the prediction rests on'),
    baseline_value_in_eur: z.number().int()
      .describe('What value_category compares to, in EUR: expected_transfer_value when given, else his expected fee today on a neutral market (no buyer named)'),
    drivers: z
      .array(
        z
          .object({
            factor: z.enum(['age', 'current_level', 'form', 'playing_time', 'club_level', 'league', 'contract']).describe('What moves the value'),
            effect: z.number().describe('Multiplier on the baseline, 3 decimals (0.85 = -15%)'),
          })
          .describe('One driver'),
      )
      .describe('Why: multipliers whose product times baseline_value_in_eur is future_transfer_value_in_eur (within 1%); factors whose effect rounds to 1 are left out, age always shown'),
    warnings: warningsOut(),
  })
  .describe('The player\'s market value in 3 years, as one predicted distribution');

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
        200: z
          .object({
            currency: currencyOut(),
            expected_transfer_value: moneyOut('Expected fee for a transfer now (to target_club_id when given)'),
            expected_transfer_value_in_eur: moneyEurOut('expected_transfer_value'),
            expected_transfer_value_range: range('the fee', 'Low end (10th percentile)', 'High end (90th percentile)'),
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
