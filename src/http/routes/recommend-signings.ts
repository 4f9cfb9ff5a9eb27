import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isPositionCode, POSITION_CODES, type PositionCode } from '../../domain/positions.js';
import { toEur } from '../../money/convert.js';
import { MAX_EXACT_EXTRA, RECOMMEND_SORTS, SHORTLIST, type Recommendation } from '../../valuation/recommend/index.js';
import { engineAnswer, NO_DOMESTIC_LEAGUE } from '../engine-answer.js';
import { presentRecommendation } from '../present/recommend.js';
import { forbidden, notFound } from '../errors.js';
import type { HttpDeps } from '../deps.js';
import { bodyObject, clubIdField, currencyField, MONEY_INPUT_MAX, moneyInputField } from '../fields.js';
import { competitionCovered, coveredClubsOf, requireClub } from '../guards.js';
import { commonErrors, warningsOut } from '../schemas.js';
import { valuationContext } from '../valuation-context.js';

export const RECOMMEND_LIMIT = { default: 10, max: 25 } as const;
/** Whole years; a limit below any player's age is valid and answers an empty list. */
export const RECOMMEND_AGES = { min: 0, max: 150 } as const;
const MAX_COMPETITIONS = 50;
export const MIN_PLAYING_TIME_DEFAULT = 25;

const invalid = (name: string) => ({ error: `Invalid ${name}` });

const positionField = z
  .string({ error: (iss) => (iss.input === undefined ? 'position is required' : 'Invalid position') })
  .transform((s) => s.trim().toUpperCase())
  .refine(isPositionCode, invalid('position'))
  .transform((s) => s as PositionCode)
  .describe(`Position code, any case: ${POSITION_CODES.join(', ')}`);

const money = (what: string) => z.number().int().describe(`${what}, in \`currency\``);
const moneyEur = (what: string) => z.number().int().describe(`${what}, EUR`);

const candidateSchema = z.object({
  player_id: z.string().describe('Player service id'),
  name: z.string().describe('Full name'),
  age: z.number().int().nullable().describe('Whole years at the as-of date (as /get_roi_analysis player_info.age); null when the birth date is unknown'),
  club_id: z.string().nullable().describe('His current team; null without one'),
  club_name: z.string().nullable().describe('Name of his current team'),
  market_value_in_eur: z.number().int().nullable().describe('His latest crowd value on or before the as-of date, EUR; null without one'),
  contract_end_date: z.string().nullable().describe('End of his contract in force (YYYY-MM-DD); null when unknown'),
  expected_transfer_value: money('The fee: the expected fee of his move to the signing club (/get_roi_analysis with no fee given)'),
  expected_transfer_value_in_eur: moneyEur('The fee'),
  future_transfer_value: money('Median of his predicted value in 3 years at the signing club (/get_future_transfer_value)'),
  future_transfer_value_in_eur: moneyEur('Future value'),
  on_field_value: money('Extra league revenue the signing club expects with him over the 3 simulated seasons (/get_sportive_impact)'),
  on_field_value_in_eur: moneyEur('On-field value'),
  increase_in_expected_position: z.number()
    .describe('Places the club gains in its expected league position with him, averaged over the 3 simulated seasons; small when the club is already strong there'),
  playing_time_percentage: z.number().min(0).max(0.9).describe('Expected share of the club\'s league matches he starts in the analysis season (0 to 0.9)'),
  total_value_created: money('on_field_value + future_transfer_value'),
  total_value_created_in_eur: moneyEur('Total value created'),
  net_value_created: money('What the signing leaves the club: total_value_created - expected_transfer_value - 3 x annual_wage (no wage when none was given)'),
  net_value_created_in_eur: moneyEur('Net value created'),
  return_on_investment: z.number().nullable()
    .describe('total_value_created / (expected_transfer_value + 3 x annual_wage), 4 decimals; null when that cost is 0'),
  warnings: warningsOut(),
  reasons: z.array(z.string()).max(3).describe('Up to three plain sentences from the numbers: playing time, what he adds, what he will be worth'),
}).describe('Each number equals what /v1/get_roi_analysis answers for this player and club with no fee and the same annual_wage, in the same currency');

const answerSchema = z.object({
  club_id: z.string().describe('The signing club'),
  position: z.string().describe('The position searched'),
  season: z.string().describe('The analysis season, the first of the 3 simulated (YYYY/YYYY)'),
  currency: z.string().describe('ISO 4217 code of every money field without the _in_eur suffix: currency_code, else the account\'s preferred currency, else EUR'),
  candidates_considered: z.number().int()
    .describe('Players who met every condition: covered by the plan, with analysis data, at a club now but neither this one nor one of its youth or reserve sides, ' +
      'at that position, within the limits, and expected by the screen to play near min_playing_time_percentage at least'),
  candidates: z.array(candidateSchema)
    .describe('Best first by `sort` (highest first; a null return_on_investment last), ties by player_id; at most `limit`, each expected to start at least min_playing_time_percentage'),
}).describe('The best signings for the position, by what each leaves the club (or the sort asked)');

/** POST /v1/recommend_signings: who to sign at a position, ranked by the value each leaves the club (or the sort asked). */
export function recommendSigningsRoute(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // one cache for answers and for the exact ROI results, shared by requests for the same club with other filters, limits or plans
  const cache = app.answers;

  r.post('/v1/recommend_signings', {
    schema: {
      tags: ['analysis'],
      summary: 'Who to sign at a position: eligible players who would play, ranked by the value each signing leaves the club',
      description:
        'Covered players with analysis data, not at the club nor at its youth or reserve sides, at that position and within the limits, ' +
        'whom the club would start at least min_playing_time_percentage of its league matches, ranked by `sort` (default net_value_created: ' +
        'total_value_created less the fee and three years of annual_wage). Every number is what /v1/get_roi_analysis gives each for the club ' +
        'with no fee and the same annual_wage (the fee is then his expected fee for a move to the club). No open data holds wages: without ' +
        'annual_wage no wage is counted. A screen estimates every eligible player\'s on-field value and playing time; the exact simulation runs ' +
        `in the screen's order until max(limit, ${SHORTLIST}) candidates reach the minimum (at most ${MAX_EXACT_EXTRA} runs more), and those are ranked by ` +
        `it, so a limit up to ${SHORTLIST} answers the first candidates of a larger one. ` +
        'A club without a domestic league is 400 `' + NO_DOMESTIC_LEAGUE + '`.',
      body: bodyObject({
        club_id: clubIdField().describe('The signing club: C + 26 characters'),
        position: positionField,
        max_expected_transfer_value: z
          .number(invalid('max_expected_transfer_value'))
          .min(0, invalid('max_expected_transfer_value'))
          .max(MONEY_INPUT_MAX, invalid('max_expected_transfer_value'))
          .nullish()
          .describe('In currency_code: only players whose expected fee, as shown, is at most this'),
        max_age: z
          .number(invalid('max_age'))
          .int(invalid('max_age'))
          .min(RECOMMEND_AGES.min, invalid('max_age'))
          .max(RECOMMEND_AGES.max, invalid('max_age'))
          .nullish()
          .describe(`Whole years at the as-of date (${RECOMMEND_AGES.min}-${RECOMMEND_AGES.max}): only players this old or younger; players without a birth date are left out`),
        competitions: z
          .array(z.string(invalid('competitions')).min(1, invalid('competitions')), invalid('competitions'))
          .min(1, invalid('competitions'))
          .max(MAX_COMPETITIONS, invalid('competitions'))
          .nullish()
          .describe(`Competition ids (1-${MAX_COMPETITIONS}): only players whose current team plays in one of them this season; default everything the plan covers`),
        limit: z
          .number(invalid('limit'))
          .int(invalid('limit'))
          .min(1, invalid('limit'))
          .max(RECOMMEND_LIMIT.max, invalid('limit'))
          .nullish()
          .describe(`Candidates returned, 1-${RECOMMEND_LIMIT.max}; default ${RECOMMEND_LIMIT.default}`),
        currency_code: currencyField('currency_code', () => deps.rates()),
        sort: z
          .enum(RECOMMEND_SORTS, invalid('sort'))
          .nullish()
          .describe(`What the list is ordered by, highest first, ties by player_id: ${RECOMMEND_SORTS.join(', ')}; default net_value_created`),
        min_playing_time_percentage: z
          .number(invalid('min_playing_time_percentage'))
          .min(0, invalid('min_playing_time_percentage'))
          .max(100, invalid('min_playing_time_percentage'))
          .nullish()
          .describe(`0-100, default ${MIN_PLAYING_TIME_DEFAULT}: only players whose playing_time_percentage at the club, as a percentage, reaches it`),
        annual_wage: moneyInputField('annual_wage')
          .describe('In currency_code: the yearly wage assumed for every candidate, counted as /v1/get_roi_analysis counts it; omitted: no wage (no open data holds wages)'),
      }),
      response: { 200: answerSchema, ...commonErrors },
    },
  }, async (req, reply) => {
    const b = req.body;
    const principal = req.principal!;
    const s = deps.snapshot();
    const competitions = b.competitions ? [...new Set(b.competitions)].sort() : null;
    // 404s before coverage: the club, then each competition; then the club's and each competition's 403
    if (!s.clubs.has(b.club_id)) throw notFound.club();
    for (const c of competitions ?? []) if (!s.competitions.has(c)) throw notFound.competition();
    requireClub(s, principal, b.club_id);
    for (const c of competitions ?? []) if (!competitionCovered(principal, c)) throw forbidden.competition();
    const ctx = valuationContext(deps, reply, b.currency_code, principal.preferredCurrency);
    const covered = coveredClubsOf(s, principal);
    const maxFee = b.max_expected_transfer_value ?? null;
    const maxAge = b.max_age ?? null;
    const limit = b.limit ?? RECOMMEND_LIMIT.default;
    const sort = b.sort ?? 'net_value_created';
    const minPlaying = b.min_playing_time_percentage ?? MIN_PLAYING_TIME_DEFAULT;
    const wage = b.annual_wage ?? null;
    const key = `rec|${b.club_id}|${b.position}|${maxFee}|${maxAge}|${competitions?.join(',') ?? '*'}|${limit}|${sort}|${minPlaying}|${wage}|${covered.key}|${ctx.versions}`;
    return cache.getAsync(key, async () => {
      const rec = await engineAnswer<Recommendation>(deps, ctx, {
        kind: 'recommend',
        clubId: b.club_id,
        position: b.position,
        maxFee: maxFee === null ? null : { amount: maxFee, code: ctx.money.code, rates: ctx.money.rates },
        maxAge,
        competitions,
        limit,
        coveredClubs: covered.clubs,
        annualWageEur: wage === null ? null : toEur(wage, ctx.money.code, ctx.money.rates),
        minPlayingTimePercentage: minPlaying,
        sort,
      });
      return presentRecommendation(rec, ctx.snapshot, ctx.money, { limit, sort, annualWage: wage });
    });
  });
}
