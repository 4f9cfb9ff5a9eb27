import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isPositionCode, POSITION_CODES } from '../../domain/positions.js';
import { PLAYER_ID_PATTERN } from '../../domain/ids.js';
import { resolveCurrency } from '../../money/currencies.js';
import { roiAnswer, sportiveImpactAnswer, squadAnswer } from '../../valuation/analysis.js';
import { ImpactError } from '../../valuation/impact/index.js';
import { AnswerCache } from '../answer-cache.js';
import { ApiError, forbidden, notFound } from '../errors.js';
import type { HttpDeps } from '../deps.js';
import { bodyObject, clubIdField, currencyField, moneyInputField, playerIdField } from '../fields.js';
import { requireClub, requirePlayer, requirePlayerAndClub } from '../guards.js';
import { clubIdOut, commonErrors, currencyOut, moneyEurOut, moneyOut, playerIdOut, warningsOut } from '../schemas.js';
import { futureValueSchema, valuationContext } from './valuation.js';

export const MAX_SQUAD = 60;

const sportiveImpactSchema = z.object({
  currency: currencyOut(),
  on_field_value: moneyOut(
    'Extra league money (prize and TV money by final place) the club expects with him, summed over the 3 simulated seasons, floored at 0',
  ),
  on_field_value_in_eur: moneyEurOut('on_field_value'),
  simulation: z.object({
    increase_in_expected_position: z.number()
      .describe('original_expected_position minus new_expected_position, floored at 0'),
    new_expected_position: z.number()
      .describe('Expected league position with the player, averaged over the 3 simulated seasons (the analysis season and the two after it); 1 is best'),
    original_expected_position: z.number()
      .describe('Expected league position without the player, averaged over the 3 simulated seasons (the analysis season and the two after it), ' +
        'so it differs from squad_analysis\'s expected_league_rank, which is the analysis season alone; 1 is best'),
  }).describe('The club\'s expected league position without and with him'),
  playing_time_percentage: z.number().min(0).max(0.9)
    .describe('Expected share of the club\'s league matches he starts in the analysis season (0 to 0.9); what he adds to the club\'s strength comes from those matches only'),
  warnings: warningsOut(),
}).describe('What he adds on the pitch for the club over the 3 simulated seasons');

interface SquadEntryBody {
  player_id: string;
  position: (typeof POSITION_CODES)[number];
  name?: string | null;
}

function validSquadEntry(e: unknown): boolean {
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return false;
  const o = e as Record<string, unknown>;
  return typeof o.player_id === 'string' && PLAYER_ID_PATTERN.test(o.player_id) && isPositionCode(o.position) && (o.name === undefined || o.name === null || typeof o.name === 'string');
}

/** The impact model's own refusals, as API answers. */
export function mapImpactError<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (!(err instanceof ImpactError)) throw err;
    switch (err.code) {
      case 'unknown_club':
        throw notFound.club();
      case 'unknown_player':
        throw notFound.player();
      case 'invalid_squad_entry':
        throw new ApiError(400, `Invalid squad entry at index ${err.index ?? 0}`);
      case 'player_not_rated':
      case 'club_without_league':
      case 'no_training_data':
        throw forbidden.analysis();
    }
  }
}

/** Sportive impact, ROI and squad analysis over the 3-season simulation. */
export function analysisRoutes(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const cache = new AnswerCache(2_000);
  const acceptsCurrency = (code: string) => resolveCurrency(code, deps.rates()).ok;

  r.post('/v1/get_sportive_impact', {
    schema: {
      tags: ['analysis'],
      summary: 'What the player adds on the pitch for a club: expected league position with and without him over 3 seasons, playing time, money',
      body: bodyObject({ player_id: playerIdField(), club_id: clubIdField(), currency_code: currencyField('currency_code', acceptsCurrency) }),
      response: { 200: sportiveImpactSchema, ...commonErrors },
    },
  }, async (req, reply) => {
    const b = req.body;
    requirePlayerAndClub(deps.snapshot(), req.principal!, b.player_id, b.club_id);
    const ctx = valuationContext(deps, reply, b.currency_code, req.principal!.preferredCurrency);
    return cache.get(`impact|${b.player_id}|${b.club_id}|${ctx.versions}`, () =>
      mapImpactError(() => sportiveImpactAnswer(ctx.bundle, ctx.snapshot, ctx.money, { playerId: b.player_id, clubId: b.club_id }).body),
    );
  });

  r.post('/v1/get_roi_analysis', {
    schema: {
      tags: ['analysis'],
      summary: 'Whether a signing pays back: sportive impact plus future value against fee and wages over 3 years',
      body: bodyObject({
        player_id: playerIdField(),
        club_id: clubIdField(),
        annual_wage: moneyInputField('annual_wage').describe('In currency_code; omitted means no wage cost'),
        expected_transfer_value: moneyInputField('expected_transfer_value').describe('Fee in currency_code; computed when omitted'),
        currency_code: currencyField('currency_code', acceptsCurrency),
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
    return cache.get(`roi|${b.player_id}|${b.club_id}|${wage}|${fee}|${ctx.versions}`, () =>
      mapImpactError(() => roiAnswer(ctx.bundle, ctx.snapshot, ctx.money, { playerId: b.player_id, clubId: b.club_id, annualWage: wage, expectedTransferValue: fee })),
    );
  });

  r.post('/v1/squad_analysis', {
    schema: {
      tags: ['analysis'],
      summary: 'Expected league rank and squad money totals, for the actual squad or a what-if squad',
      body: bodyObject({
        club_id: clubIdField(),
        squad: z
          .array(z.unknown(), { error: 'squad must be an array' })
          .max(MAX_SQUAD, { error: `squad must have at most ${MAX_SQUAD} players` })
          .superRefine((entries, ctx) => {
            const bad = entries.findIndex((e) => !validSquadEntry(e));
            if (bad >= 0) ctx.addIssue({ code: 'custom', message: `Invalid squad entry at index ${bad}` });
          })
          .transform((entries) => entries as SquadEntryBody[])
          .nullish()
          .describe(`Up to ${MAX_SQUAD} entries {player_id, position, name?}; omit for the actual squad`),
        currency_code: currencyField('currency_code', acceptsCurrency),
      }),
      response: {
        200: z.object({
          club_id: clubIdOut(),
          currency: currencyOut(),
          expected_league_rank: z.number()
            .describe('Expected final place in the analysis season alone (2 decimals, 1 is best); sportive impact\'s positions average 3 seasons'),
          squad: z
            .array(
              z.object({
                name: z.string().describe('Player name'),
                player_id: playerIdOut(),
                position: z.string().describe('The position he was simulated at'),
              }),
            )
            .describe('The squad simulated; an actual squad\'s echo is a valid custom squad to edit and send back'),
          squad_size: z.number().int().describe('Players in the squad simulated'),
          squad_source: z.enum(['actual', 'custom']).describe('actual: the club\'s own squad (its players with analysis data); custom: the squad sent'),
          total_expected_transfer_fee: moneyOut('Sum of the squad\'s expected fees (each a sale by his own club)'),
          total_expected_transfer_fee_in_eur: moneyEurOut('total_expected_transfer_fee'),
          total_future_transfer_value: moneyOut('Sum of the squad\'s future transfer values at this club (as /v1/get_future_transfer_value)'),
          total_future_transfer_value_in_eur: moneyEurOut('total_future_transfer_value'),
          warnings: warningsOut(),
        }).describe('The squad\'s expected league rank and money totals'),
        ...commonErrors,
      },
    },
  }, async (req, reply) => {
    const b = req.body;
    const s = deps.snapshot();
    if (!s.clubs.has(b.club_id)) throw notFound.club();
    const squad = b.squad ?? null;
    // Every named player must exist (404), then be covered and analysable (403), in entry order.
    if (squad) {
      for (const e of squad) if (!s.players.has(e.player_id)) throw notFound.player();
    }
    requireClub(s, req.principal!, b.club_id);
    if (squad) for (const e of squad) requirePlayer(s, req.principal!, e.player_id, { analysis: true });
    const ctx = valuationContext(deps, reply, b.currency_code, req.principal!.preferredCurrency);
    const entries = squad?.map((e) => ({ playerId: e.player_id, position: e.position })) ?? null;
    return cache.get(`squad|${b.club_id}|${JSON.stringify(entries)}|${ctx.versions}`, () =>
      mapImpactError(() => squadAnswer(ctx.bundle, ctx.snapshot, ctx.money, { clubId: b.club_id, squad: entries })),
    );
  });
}
