import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { POSITIONS } from '../../domain/positions.js';
import type { HttpDeps } from '../deps.js';
import { commonErrors } from '../schemas.js';

/** GET /v1/player_positions */
export function playerPositionsRoute(app: FastifyInstance, _deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/v1/player_positions', {
    schema: {
      tags: ['reference'],
      summary: 'The 17-entry position catalogue (player_id is accepted and ignored)',
      querystring: z.object({ player_id: z.unknown().optional().describe('Accepted and ignored: the catalogue is the same for every player') }),
      response: {
        200: z
          .object({
            positions: z
              .array(z.object({ id: z.string().describe('Position code, e.g. CDM'), name: z.string().describe('Display name, e.g. Defensive Midfielder') }))
              .describe('The 17 positions, goalkeeper first'),
          })
          .describe('The position catalogue'),
        ...commonErrors,
      },
    },
  }, async () => ({ positions: POSITIONS.map((p) => ({ id: p.id, name: p.name })) }));
}
