import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CLUB_ID_PATTERN } from '../../domain/ids.js';
import { ApiError, notFound } from '../errors.js';
import type { HttpDeps } from '../deps.js';
import { bodyObject, registryIdField } from '../fields.js';
import { clubSchema, commonErrors } from '../schemas.js';
import { presentClub } from '../present/reference.js';

/** POST /v1/query_club */
export function queryClubRoute(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/v1/query_club', {
    schema: {
      tags: ['lookup'],
      summary: 'Resolve a club by registry id or service id',
      body: bodyObject({
        registry_a_id: registryIdField('registry_a_id').describe('The club\'s registry A id: a JSON number, positive, at most 10^12'),
        service_id: z.string({ error: 'Invalid service_id' }).regex(CLUB_ID_PATTERN, { error: 'Invalid service_id' }).nullish()
          .describe('The club\'s service id (C + 26 characters); when both are given they must name the same club'),
      }),
      response: { 200: clubSchema.describe('The club'), ...commonErrors },
    },
  }, async (req) => {
    const { registry_a_id, service_id } = req.body;
    if (registry_a_id == null && service_id == null) throw new ApiError(400, 'At least one of registry_a_id or service_id must be provided');
    const s = deps.snapshot();
    const club = service_id != null ? s.clubs.get(service_id) : s.clubByRegistryA.get(registry_a_id!);
    if (!club || (registry_a_id != null && club.registry_a_id !== registry_a_id)) throw notFound.club();
    return presentClub(club);
  });
}
