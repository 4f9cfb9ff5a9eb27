import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { seasonLabel } from '../../domain/season.js';
import { playingTime } from '../../domain/playing-time.js';
import type { HttpDeps } from '../deps.js';
import { playerIdField, seasonField } from '../fields.js';
import { requirePlayer } from '../guards.js';
import { commonErrors, playerIdOut } from '../schemas.js';

const competitionEntrySchema = z
  .object({
    competition: z.string().describe('Competition id'),
    competition_name: z.string().describe('Competition name'),
    competition_type: z.enum(['DOMESTIC_LEAGUE', 'DOMESTIC_CUP', 'INTERNATIONAL_CUP', 'INTERNATIONAL_SUPERCUP', 'NATIONAL_TEAM'])
      .describe('Kind of competition; entries come in this order, then by competition id, then club name'),
    club_id: z.string().describe('The club he played for in it; for NATIONAL_TEAM the senior national team'),
    club_name: z.string().describe('Name of that club or national team'),
    minutes_played: z.number().int().describe('Minutes played in this competition for this club in the season'),
    appearances: z.number().int().describe('Matches he played (matches he did not play are not counted)'),
    starting_xi_count: z.number().int().describe('Appearances he started'),
  })
  .describe('His playing time in one competition for one club');

/** GET /v1/playing_time */
export function playingTimeRoute(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/v1/playing_time', {
    schema: {
      tags: ['players'],
      summary: 'Minutes, appearances and starts per season and competition, newest season first',
      querystring: z.object({ player_id: playerIdField(), season: seasonField().optional().describe('One season, YYYY/YYYY; omit for every season') }),
      response: {
        200: z
          .object({
            player_id: playerIdOut(),
            seasons: z
              .array(
                z.object({
                  season: z.string().describe('YYYY/YYYY'),
                  competitions: z.array(competitionEntrySchema).describe('One entry per competition and club he played for'),
                }),
              )
              .describe('Seasons with minutes, newest first; empty when the season asked has none'),
          })
          .describe('Playing time (youth, reserve, friendly and domestic supercup games left out)'),
        ...commonErrors,
      },
    },
  }, async (req) => {
    const s = deps.snapshot();
    const f = requirePlayer(s, req.principal!, req.query.player_id);
    const seasons = playingTime(s, f.player.id, req.query.season ?? null).map((entry) => ({
      season: seasonLabel(entry.season),
      competitions: entry.competitions,
    }));
    return { player_id: f.player.id, seasons };
  });
}
