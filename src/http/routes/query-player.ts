import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PLAYER_ID_PATTERN } from '../../domain/ids.js';
import type { PlayerRow } from '../../domain/world.js';
import { ApiError, notFound } from '../errors.js';
import type { HttpDeps } from '../deps.js';
import { bodyObject, registryIdField } from '../fields.js';
import { requirePlayer } from '../guards.js';
import { commonErrors, playerProfileSchema } from '../schemas.js';
import { presentPlayerSummary } from '../present/reference.js';

function presentProfile(p: PlayerRow) {
  return {
    ...presentPlayerSummary(p),
    nationality: p.nationality,
    birth_date: p.birth_date,
    height: p.height_cm,
    preferred_foot: p.foot,
  };
}

/** POST /v1/query_player */
export function queryPlayerRoute(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/v1/query_player', {
    schema: {
      tags: ['lookup'],
      summary: 'Resolve a player by registry ids or service id',
      body: bodyObject({
        registry_a_id: registryIdField('registry_a_id').describe('The player\'s registry A id: a JSON number, positive, at most 10^12'),
        registry_b_id: registryIdField('registry_b_id').describe('The player\'s registry B id: a JSON number, positive, at most 10^12'),
        service_id: z.string({ error: 'Invalid service_id' }).regex(PLAYER_ID_PATTERN, { error: 'Invalid service_id' }).nullish()
          .describe('The player\'s service id (P + 26 characters); every id given must name the same player'),
      }),
      response: { 200: playerProfileSchema.describe('The player\'s profile'), ...commonErrors },
    },
  }, async (req) => {
    const { registry_a_id, registry_b_id, service_id } = req.body;
    if (registry_a_id == null && registry_b_id == null && service_id == null) {
      throw new ApiError(400, 'At least one of registry_a_id, registry_b_id or service_id must be provided');
    }
    const s = deps.snapshot();
    const player =
      service_id != null ? s.players.get(service_id) : registry_a_id != null ? s.playerByRegistryA.get(registry_a_id) : s.playerByRegistryB.get(registry_b_id!);
    // Every id given must name the same player.
    if (
      !player ||
      (registry_a_id != null && player.registry_a_id !== registry_a_id) ||
      (registry_b_id != null && player.registry_b_id !== registry_b_id)
    ) {
      throw notFound.player();
    }
    requirePlayer(s, req.principal!, player.id);
    return presentProfile(player);
  });
}
