import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { POSITIONS } from '../../domain/positions.js';
import { findRole, ROLES } from '../../domain/roles.js';
import { seasonLabel } from '../../domain/season.js';
import type { ClubRow, PlayerRow } from '../../domain/world.js';
import { ApiError, forbidden, notFound } from '../errors.js';
import type { HttpDeps } from '../deps.js';
import { clubIdField, queryBoolean } from '../fields.js';
import { competitionCovered, requireClub } from '../guards.js';
import { clubSchema, commonErrors, playerSummarySchema } from '../schemas.js';

const positionCodes = () => z.array(z.string()).describe('Position codes of the 17-entry catalogue (/v1/player_positions) the role is played from');

export function presentClub(c: ClubRow) {
  return { service_id: c.id, registry_a_id: c.registry_a_id, name: c.name };
}

export function presentPlayerSummary(p: PlayerRow) {
  return {
    service_id: p.id,
    registry_a_id: p.registry_a_id,
    registry_b_id: p.registry_b_id,
    name: p.name,
    first_name: p.first_name,
    last_name: p.last_name,
    alias: p.alias,
  };
}

const roleSchema = z
  .object({
    role: z.string().describe('Role id, as in `player_role` and `best_role` (e.g. DEEP_LYING_PLAYMAKER)'),
    name: z.string().describe('Display name'),
    description: z.string().describe('What a player in this role does'),
    positions: positionCodes(),
  })
  .describe('A role');

/** Competitions, clubs, squads, positions and roles. */
export function referenceRoutes(app: FastifyInstance, deps: HttpDeps): void {
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
