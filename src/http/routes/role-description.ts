import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findRole, ROLES } from '../../domain/roles.js';
import { ApiError } from '../errors.js';
import type { HttpDeps } from '../deps.js';
import { commonErrors } from '../schemas.js';

const positionCodes = () => z.array(z.string()).describe('Position codes of the 17-entry catalogue (/v1/player_positions) the role is played from');

const roleSchema = z
  .object({
    role: z.string().describe('Role id, as in `player_role` and `best_role` (e.g. DEEP_LYING_PLAYMAKER)'),
    name: z.string().describe('Display name'),
    description: z.string().describe('What a player in this role does'),
    positions: positionCodes(),
  })
  .describe('A role');

/** GET /v1/role_description */
export function roleDescriptionRoute(app: FastifyInstance, _deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/v1/role_description', {
    schema: {
      tags: ['reference'],
      summary: 'The role catalogue, or one role',
      querystring: z.object({ role: z.union([z.string(), z.array(z.string())]).optional().describe('A role id; omit for all roles') }),
      response: {
        200: z
          .union([z.object({ roles: z.array(roleSchema).describe('Every role the service gives a player') }), roleSchema])
          .describe('Without `role`: `{"roles": [...]}`; with it: that one role'),
        ...commonErrors,
      },
    },
  }, async (req) => {
    const present = (role: (typeof ROLES)[number]) => ({ role: role.role, name: role.name, description: role.description, positions: [...role.positions] });
    if (req.query.role === undefined) return { roles: ROLES.map(present) };
    const role = typeof req.query.role === 'string' ? findRole(req.query.role) : undefined;
    if (!role) throw new ApiError(400, 'Invalid role', { allowed_roles: ROLES.map((x) => x.role) });
    return present(role);
  });
}
