import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError, forbidden, notFound } from '../errors.js';
import type { HttpDeps } from '../deps.js';
import { competitionCovered } from '../guards.js';
import { clubSchema, commonErrors } from '../schemas.js';
import { presentClub } from '../present/reference.js';

/** GET /v1/get_clubs_in_competition */
export function getClubsInCompetitionRoute(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/v1/get_clubs_in_competition', {
    schema: {
      tags: ['reference'],
      summary: 'Clubs playing in a competition in the current season',
      querystring: z.object({
        competition_id: z.string({ error: 'competition_id is required' }).optional().describe('Competition id from /v1/competitions'),
        competition: z.string({ error: 'competition_id is required' }).optional().describe('Alias of competition_id'),
      }),
      response: {
        200: z
          .object({ clubs: z.array(clubSchema).describe('Clubs playing in it in the current season (a cup: those that played in it), by name') })
          .describe('The competition\'s clubs'),
        ...commonErrors,
      },
    },
  }, async (req) => {
    const id = req.query.competition_id || req.query.competition;
    if (!id) throw new ApiError(400, 'competition_id is required');
    const s = deps.snapshot();
    if (!s.competitions.has(id)) throw notFound.competition();
    if (!competitionCovered(req.principal!, id)) throw forbidden.competition();
    const clubs = (s.clubsOfCompetition.get(id) ?? []).map((c) => presentClub(s.clubs.get(c)!));
    return { clubs };
  });
}
