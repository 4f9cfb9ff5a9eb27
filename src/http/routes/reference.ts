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

const roleSchema = z.object({ role: z.string(), name: z.string(), description: z.string(), positions: z.array(z.string()) });

/** Competitions, clubs, squads, positions and roles. */
export function referenceRoutes(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/v1/competitions', {
    schema: {
      tags: ['reference'],
      summary: 'Competitions in the caller\'s coverage',
      response: { 200: z.object({ competitions: z.array(z.string()) }), ...commonErrors },
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
      response: { 200: z.object({ clubs: z.array(clubSchema) }), ...commonErrors },
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
      response: { 200: z.object({ season: z.string(), club: clubSchema, players: z.array(playerSummarySchema) }), ...commonErrors },
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
      querystring: z.object({ player_id: z.unknown().optional() }),
      response: { 200: z.object({ positions: z.array(z.object({ id: z.string(), name: z.string() })) }), ...commonErrors },
    },
  }, async () => ({ positions: POSITIONS.map((p) => ({ id: p.id, name: p.name })) }));

  r.get('/v1/role_description', {
    schema: {
      tags: ['reference'],
      summary: 'The role catalogue, or one role',
      querystring: z.object({ role: z.union([z.string(), z.array(z.string())]).optional().describe('A role id; omit for all roles') }),
      response: { 200: z.union([z.object({ roles: z.array(roleSchema) }), roleSchema]), ...commonErrors },
    },
  }, async (req) => {
    const present = (role: (typeof ROLES)[number]) => ({ role: role.role, name: role.name, description: role.description, positions: [...role.positions] });
    if (req.query.role === undefined) return { roles: ROLES.map(present) };
    const role = typeof req.query.role === 'string' ? findRole(req.query.role) : undefined;
    if (!role) throw new ApiError(400, 'Invalid role', { allowed_roles: ROLES.map((x) => x.role) });
    return present(role);
  });
}
