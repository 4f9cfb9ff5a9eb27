import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { valueHistory } from '../../discovery/history.js';
import { seasonLabel } from '../../domain/season.js';
import { moneyPair } from '../../money/convert.js';
import type { HttpDeps } from '../deps.js';
import { answerCurrency, currencyField, playerIdField } from '../fields.js';
import { requirePlayer } from '../guards.js';
import { cachedBody, sendJson } from '../json-body.js';
import { commonErrors, currencyOut, playerIdOut } from '../schemas.js';

const responseSchema = z.object({
  player_id: playerIdOut(),
  currency: currencyOut(),
  market_values: z
    .array(
      z.object({
        date: z.string().describe('YYYY-MM-DD'),
        value: z.number().int().describe('In `currency`'),
        value_in_eur: z.number().int().describe('The same value in EUR'),
        club_id: z.string().nullable().describe('His club when the value was published'),
      }),
    )
    .describe('Crowd market values, oldest first, none after the as-of date'),
  ratings: z
    .array(
      z.object({
        season: z.string().describe('YYYY/YYYY'),
        rating: z.number().int().describe('Our rating, 1-99'),
        potential: z.number().int().describe('Our potential, 1-99'),
        position: z.string().describe('Position code that season'),
        source: z.enum(['ea', 'estimated']).describe(
          "`ea`: EA's rating as released (nothing new known since); `estimated`: ours, from the latest EA rating released by then moved by the evidence since (value trend, minutes), or from the data alone",
        ),
      }),
    )
    .describe('Our ratings by season, oldest first, none after the current season'),
}).describe('Market values and ratings over time');

/** GET /v1/market_value_history: a player's value and rating over time. */
export function marketValueHistoryRoute(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/v1/market_value_history', {
    schema: {
      tags: ['discovery'],
      summary: "A player's market value and our rating over time",
      querystring: z.object({ player_id: playerIdField(), currency: currencyField('currency', () => deps.rates()) }),
      response: { 200: responseSchema, ...commonErrors },
    },
  }, async (req, reply) => {
    const s = deps.snapshot();
    const f = requirePlayer(s, req.principal!, req.query.player_id);
    const preferred = req.principal!.preferredCurrency;
    const rates = deps.rates();
    const code = answerCurrency(req.query.currency, preferred, rates);
    // Fixed for a snapshot, a rate table and a currency: made and serialised once.
    const key = `${f.player.id}|${code}|${rates.date}`;
    return sendJson(reply, cachedBody('market_value_history body', s, key, () => {
      const h = valueHistory(s, f.player.id);
      return {
        player_id: f.player.id,
        currency: code,
        market_values: h.marketValues.map((v) => {
          const m = moneyPair(v.value_eur, code, rates);
          return { date: v.date, value: m.amount, value_in_eur: m.amountEur, club_id: v.club_id };
        }),
        ratings: h.ratings.map((r) => ({ season: seasonLabel(r.season), rating: Math.round(r.rating), potential: Math.round(r.potential), position: r.position, source: r.basis ?? 'estimated' })),
      };
    }));
  });
}
