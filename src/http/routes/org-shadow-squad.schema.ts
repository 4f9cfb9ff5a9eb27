import { z } from 'zod';
import { PLAYER_ID_PATTERN } from '../../domain/ids.js';
import { bodyObject, clubIdField, MONEY_INPUT_MAX } from '../fields.js';
import { clubIdOut, currencyOut, moneyEurOut, moneyOut, playerIdOut, warningsOut } from '../schemas.js';

/** As many as a squad analysis takes. */
export const SHADOW_MAX = 60;

const amount = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= MONEY_INPUT_MAX;
const playerId = (v: unknown) => typeof v === 'string' && PLAYER_ID_PATTERN.test(v);

function validEntry(e: unknown, fields: readonly string[]): boolean {
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return false;
  const o = e as Record<string, unknown>;
  const keys = Object.keys(o);
  return playerId(o.player_id) && fields.every((f) => amount(o[f])) && keys.every((k) => k === 'player_id' || fields.includes(k));
}

/** An array of `{player_id, ...amounts}`: the first bad entry is `Invalid <name> entry at index <i>`, a player twice too. */
function entries<T>(name: string, fields: readonly string[], description: string) {
  return z
    .array(z.unknown(), { error: `${name} must be an array` })
    .max(SHADOW_MAX, { error: `${name} must have at most ${SHADOW_MAX} players` })
    .superRefine((list, ctx) => {
      const seen = new Set<unknown>();
      const bad = list.findIndex((e) => {
        const ok = validEntry(e, fields) && !seen.has((e as { player_id: string }).player_id);
        if (ok) seen.add((e as { player_id: string }).player_id);
        return !ok;
      });
      if (bad >= 0) ctx.addIssue({ code: 'custom', message: `Invalid ${name} entry at index ${bad}` });
    })
    .transform((list) => list as T[])
    .optional()
    .describe(description);
}

export interface SaleBody { player_id: string; asking_fee: number }
export interface TargetBody { player_id: string; fee: number; annual_wage: number }

export const shadowSquadBody = bodyObject({
  club_id: clubIdField(),
  sell: entries<SaleBody>('sell', ['asking_fee'], `Up to ${SHADOW_MAX} players of the club to sell, each {player_id, asking_fee} (EUR); omitted: none`),
  targets: entries<TargetBody>('targets', ['fee', 'annual_wage'], `Up to ${SHADOW_MAX} players to sign, each {player_id, fee, annual_wage} (EUR); omitted: none`),
});

export const shadowSquadOut = z
  .object({
    club_id: clubIdOut(),
    sell: z
      .array(z.object({ player_id: playerIdOut(), asking_fee: z.number().describe('The fee asked, in EUR') }).describe('A player to sell'))
      .describe('The players to sell; the club\'s other players are kept'),
    targets: z
      .array(
        z
          .object({ player_id: playerIdOut(), fee: z.number().describe('The fee to pay, in EUR'), annual_wage: z.number().describe('His yearly wage, in EUR') })
          .describe('A player to sign'),
      )
      .describe('The players to sign'),
  })
  .describe('The organisation\'s shadow squad: a club\'s planned sales and signings');

export const shadowAnalysisOut = z
  .object({
    club_id: clubIdOut(),
    season: z.string().describe('The analysis season simulated, YYYY/YYYY'),
    currency: currencyOut(),
    original_expected_position: z.number().describe('Expected final place with the actual squad (2 decimals, 1 is best): /v1/squad_analysis\'s expected_league_rank for the actual squad'),
    new_expected_position: z.number().describe('Expected final place with the planned squad: /v1/squad_analysis\'s expected_league_rank for that squad'),
    place_probabilities: z
      .array(
        z
          .object({
            position: z.number().int().describe('Final place, 1 is first'),
            before: z.number().describe('Its probability with the actual squad (4 decimals)'),
            after: z.number().describe('Its probability with the planned squad (4 decimals)'),
          })
          .describe('One final place'),
      )
      .describe('Every place of the league, first to last'),
    fees_in: moneyOut('The asking fees of the players sold'),
    fees_in_in_eur: moneyEurOut('fees_in'),
    fees_out: moneyOut('The fees paid for the targets'),
    fees_out_in_eur: moneyEurOut('fees_out'),
    wages_three_years: moneyOut('The targets\' wages over the 3 seasons simulated'),
    wages_three_years_in_eur: moneyEurOut('wages_three_years'),
    squad_value_in_three_years: moneyOut('The planned squad\'s value in 3 years: the sum of its future transfer values at the club (as /v1/get_future_transfer_value)'),
    squad_value_in_three_years_in_eur: moneyEurOut('squad_value_in_three_years'),
    warnings: warningsOut(),
  })
  .describe('The shadow squad as a squad what-if');
