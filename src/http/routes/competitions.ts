import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { HttpDeps } from '../deps.js';
import { competitionCovered } from '../guards.js';
import { commonErrors } from '../schemas.js';

/** GET /v1/competitions */
export function competitionsRoute(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/v1/competitions', {
    schema: {
      tags: ['reference'],
      summary: 'Competitions in the caller\'s coverage',
      response: {
        200: z
          .object({ competitions: z.array(z.string()).describe('Ids of the domestic leagues of the current season that the caller\'s plan covers, sorted (e.g. PREMIER_DIVISION)') })
          .describe('The covered competitions'),
        ...commonErrors,
      },
    },
  }, async (req) => {
    const s = deps.snapshot();
    const ids = [...s.clubsOfLeague.keys()].filter((id) => competitionCovered(req.principal!, id)).sort();
    return { competitions: ids };
  });
}
