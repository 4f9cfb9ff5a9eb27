import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isPositionCode, POSITION_CODES } from '../../domain/positions.js';
import { PLAYER_ID_PATTERN } from '../../domain/ids.js';
import type { SquadValue } from '../../valuation/analysis.js';
import { engineAnswer } from '../engine-answer.js';
import { notFound } from '../errors.js';
import type { HttpDeps } from '../deps.js';
import { bodyObject, clubIdField, currencyField } from '../fields.js';
import { requireClub, requirePlayer } from '../guards.js';
import { clubIdOut, commonErrors, currencyOut, moneyEurOut, moneyOut, playerIdOut, warningsOut } from '../schemas.js';
import { presentSquad } from '../present/analysis.js';
import { valuationContext } from '../valuation-context.js';

export const MAX_SQUAD = 60;

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

/** POST /v1/squad_analysis */
export function squadAnalysisRoute(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const cache = app.answers;

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
        currency_code: currencyField('currency_code', () => deps.rates()),
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
    return cache.getAsync(`squad|${b.club_id}|${JSON.stringify(entries)}|${ctx.versions}`, async () =>
      presentSquad(await engineAnswer<SquadValue>(deps, ctx, { kind: 'squad', clubId: b.club_id, squad: entries }), ctx.money),
    );
  });
}
