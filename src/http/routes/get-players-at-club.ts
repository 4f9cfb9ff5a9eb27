import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { seasonLabel } from '../../domain/season.js';
import type { HttpDeps } from '../deps.js';
import { clubIdField, queryBoolean } from '../fields.js';
import { requireClub } from '../guards.js';
import { clubSchema, commonErrors, playerSummarySchema } from '../schemas.js';
import { presentClub, presentPlayerSummary } from '../present/reference.js';

/** GET /v1/get_players_at_club */
export function getPlayersAtClubRoute(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/v1/get_players_at_club', {
    schema: {
      tags: ['reference'],
      summary: 'Players of a club in the current season',
      querystring: z.object({
        club_id: clubIdField(),
        analysis_available_only: queryBoolean('analysis_available_only').describe('true/false/1/0; default false'),
      }),
      response: {
        200: z
          .object({
            season: z.string().describe('The current season, YYYY/YYYY (the one containing TOUCHLINE_AS_OF)'),
            club: clubSchema.describe('The club asked for'),
            players: z.array(playerSummarySchema).describe('Players whose current team is this club'),
          })
          .describe('The club\'s squad'),
        ...commonErrors,
      },
    },
  }, async (req) => {
    const s = deps.snapshot();
    const club = requireClub(s, req.principal!, req.query.club_id);
    const onlyAnalysable = req.query.analysis_available_only ?? false;
    const players = (s.squads.get(club.id) ?? [])
      .map((id) => s.players.get(id)!)
      .filter((p) => !onlyAnalysable || p.analysis_available)
      .map(presentPlayerSummary);
    return { season: seasonLabel(s.currentSeason), club: presentClub(club), players };
  });
}
