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
import { commonErrors } from '../schemas.js';
import { futureValueSchema, valuationContext } from './valuation.js';

export const MAX_SQUAD = 60;

const sportiveImpactSchema = z.object({
  currency: z.string(),
  on_field_value: z.number().int(),
  on_field_value_in_eur: z.number().int(),
  simulation: z.object({
    increase_in_expected_position: z.number()
      .describe('original_expected_position minus new_expected_position, floored at 0'),
    new_expected_position: z.number()
      .describe('Expected league position with the player, averaged over the 3 simulated seasons (the analysis season and the two after it); 1 is best'),
    original_expected_position: z.number()
      .describe('Expected league position without the player, averaged over the 3 simulated seasons (the analysis season and the two after it), ' +
        'so it differs from squad_analysis\'s expected_league_rank, which is the analysis season alone; 1 is best'),
  }),
  playing_time_percentage: z.number().min(0).max(0.9)
    .describe('Expected share of the club\'s league matches he starts in the analysis season (0 to 0.9); what he adds to the club\'s strength comes from those matches only'),
});

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
        200: z.object({
          currency: z.string(),
          expected_transfer_value: z.number().int(),
          expected_transfer_value_in_eur: z.number().int(),
          annual_wage: z.number().int().nullable(),
          annual_wage_in_eur: z.number().int().nullable(),
          total_value_created: z.number().int(),
          total_value_created_in_eur: z.number().int(),
          return_on_investment: z.number().nullable(),
          sportive_impact: sportiveImpactSchema,
          future_transfer_value: futureValueSchema,
          player_info: z.object({
            age: z.number().int().nullable(),
            position: z.string(),
            best_role: z.string(),
            current_rating: z.number().int().nullable(),
            current_potential: z.number().int().nullable(),
          }),
        }),
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
          club_id: z.string(),
          currency: z.string(),
          expected_league_rank: z.number()
            .describe('Expected final place in the analysis season alone (2 decimals, 1 is best); sportive impact\'s positions average 3 seasons'),
          squad: z.array(z.object({ name: z.string(), player_id: z.string(), position: z.string() })),
          squad_size: z.number().int(),
          squad_source: z.enum(['actual', 'custom']),
          total_expected_transfer_fee: z.number().int(),
          total_expected_transfer_fee_in_eur: z.number().int(),
          total_future_transfer_value: z.number().int(),
          total_future_transfer_value_in_eur: z.number().int(),
        }),
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
