import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { HttpDeps } from '../deps.js';
import { playerIdField } from '../fields.js';
import { requirePlayer } from '../guards.js';
import { cachedBody, sendJson } from '../json-body.js';
import type { Snapshot } from '../../domain/snapshot.js';
import type { PlayerFacts } from '../../domain/player-facts.js';
import { commonErrors, playerIdOut } from '../schemas.js';

function playerInfoBody(s: Snapshot, f: PlayerFacts) {
  const contract = s.contracts.get(f.player.id);
  return {
    service_id: f.player.id,
    player_role: f.role,
    position: f.position,
    nationality: f.player.nationality,
    age: f.age,
    agency_name: contract?.agency_name ?? null,
    contract_end_date: contract?.end_date ?? null,
    preferred_foot: f.player.foot,
    owning_club_id: f.owningClubId,
    last_active_club_id: f.lastActiveClubId,
    current_team_id: f.currentTeamId,
    registry_a_id: f.player.registry_a_id,
    registry_b_id: f.player.registry_b_id,
  };
}

/** GET /v1/player_info */
export function playerInfoRoute(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/v1/player_info', {
    schema: {
      tags: ['players'],
      summary: 'Player info for the current season',
      querystring: z.object({ player_id: playerIdField() }),
      response: {
        200: z
          .object({
            service_id: playerIdOut(),
            player_role: z.string().describe('His best role from our latest rating (see /v1/role_description)'),
            position: z.string().describe('His position code from our latest rating'),
            nationality: z.string().describe('Country of citizenship (of birth when that is unknown)'),
            age: z.number().int().nullable().describe('Whole years at the as-of date; null when his birth date is unknown'),
            agency_name: z.string().nullable().describe('His agency; null when unknown'),
            contract_end_date: z.string().nullable().describe('End of his current contract, YYYY-MM-DD; null when unknown'),
            preferred_foot: z.string().nullable().describe('Right, Left or Both; null when unknown'),
            owning_club_id: z.string().nullable().describe('Club holding his registration: the parent club while he is on loan, else his current team'),
            last_active_club_id: z.string().nullable().describe('Club where he played the most minutes in his latest season with minutes (national teams aside)'),
            current_team_id: z.string().nullable().describe('Club of his running spell (the loan club while on loan); null when he has none'),
            registry_a_id: z.number().int().nullable().describe('His registry A id; null when not linked'),
            registry_b_id: z.number().int().nullable().describe('His registry B id; null when not linked'),
          })
          .describe('The player in the current season'),
        ...commonErrors,
      },
    },
  }, async (req, reply) => {
    const s = deps.snapshot();
    const f = requirePlayer(s, req.principal!, req.query.player_id);
    // The answer is fixed for a snapshot: made and serialised once per player.
    return sendJson(reply, cachedBody('player_info body', s, f.player.id, () => playerInfoBody(s, f)));
  });
}
