import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CLUB_ID_PATTERN, PLAYER_ID_PATTERN } from '../../domain/ids.js';
import { daysBetween, seasonLabel } from '../../domain/season.js';
import type { PlayerRow } from '../../domain/world.js';
import { playingTime } from '../../domain/playing-time.js';
import { ApiError, notFound } from '../errors.js';
import type { HttpDeps } from '../deps.js';
import { bodyObject, nonNegativeIntegerQuery, playerIdField, registryIdField, seasonField } from '../fields.js';
import { requirePlayer } from '../guards.js';
import { cachedBody, sendJson } from '../json-body.js';
import type { Snapshot } from '../../domain/snapshot.js';
import type { PlayerFacts } from '../../domain/player-facts.js';
import { clubSchema, commonErrors, playerProfileSchema } from '../schemas.js';
import { presentClub, presentPlayerSummary } from './reference.js';

function presentProfile(p: PlayerRow) {
  return {
    ...presentPlayerSummary(p),
    nationality: p.nationality,
    birth_date: p.birth_date,
    height: p.height_cm,
    preferred_foot: p.foot,
  };
}

const careerStepSchema = z.object({
  club_id: z.string(),
  club_name: z.string(),
  start_date: z.string(),
  start_year: z.number().int(),
  end_date: z.string().nullable(),
  end_year: z.number().int().nullable(),
  is_loan: z.boolean(),
});

const competitionEntrySchema = z.object({
  competition: z.string(),
  competition_name: z.string(),
  competition_type: z.enum(['DOMESTIC_LEAGUE', 'DOMESTIC_CUP', 'INTERNATIONAL_CUP', 'INTERNATIONAL_SUPERCUP', 'NATIONAL_TEAM']),
  club_id: z.string(),
  club_name: z.string(),
  minutes_played: z.number().int(),
  appearances: z.number().int(),
  starting_xi_count: z.number().int(),
});

const infoBodies = new WeakMap<Snapshot, Map<string, string>>();

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

/** Player and club lookups, profile, career path and playing time. */
export function playerRoutes(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/v1/query_club', {
    schema: {
      tags: ['lookup'],
      summary: 'Resolve a club by registry id or service id',
      body: bodyObject({
        registry_a_id: registryIdField('registry_a_id'),
        service_id: z.string({ error: 'Invalid service_id' }).regex(CLUB_ID_PATTERN, { error: 'Invalid service_id' }).nullish(),
      }),
      response: { 200: clubSchema, ...commonErrors },
    },
  }, async (req) => {
    const { registry_a_id, service_id } = req.body;
    if (registry_a_id == null && service_id == null) throw new ApiError(400, 'At least one of registry_a_id or service_id must be provided');
    const s = deps.snapshot();
    const club = service_id != null ? s.clubs.get(service_id) : s.clubByRegistryA.get(registry_a_id!);
    if (!club || (registry_a_id != null && club.registry_a_id !== registry_a_id)) throw notFound.club();
    return presentClub(club);
  });

  r.post('/v1/query_player', {
    schema: {
      tags: ['lookup'],
      summary: 'Resolve a player by registry ids or service id',
      body: bodyObject({
        registry_a_id: registryIdField('registry_a_id'),
        registry_b_id: registryIdField('registry_b_id'),
        service_id: z.string({ error: 'Invalid service_id' }).regex(PLAYER_ID_PATTERN, { error: 'Invalid service_id' }).nullish(),
      }),
      response: { 200: playerProfileSchema, ...commonErrors },
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

  r.get('/v1/player_info', {
    schema: {
      tags: ['players'],
      summary: 'Player info for the current season',
      querystring: z.object({ player_id: playerIdField() }),
      response: {
        200: z.object({
          service_id: z.string(),
          player_role: z.string(),
          position: z.string(),
          nationality: z.string(),
          age: z.number().int().nullable(),
          agency_name: z.string().nullable(),
          contract_end_date: z.string().nullable(),
          preferred_foot: z.string().nullable(),
          owning_club_id: z.string().nullable(),
          last_active_club_id: z.string().nullable(),
          current_team_id: z.string().nullable(),
          registry_a_id: z.number().int().nullable(),
          registry_b_id: z.number().int().nullable(),
        }),
        ...commonErrors,
      },
    },
  }, async (req, reply) => {
    const s = deps.snapshot();
    const f = requirePlayer(s, req.principal!, req.query.player_id);
    // The answer is fixed for a snapshot: made and serialised once per player.
    return sendJson(reply, cachedBody(infoBodies, s, f.player.id, () => playerInfoBody(s, f)));
  });

  r.get('/v1/career_path', {
    schema: {
      tags: ['players'],
      summary: 'Career path, most recent step first',
      querystring: z.object({
        player_id: playerIdField(),
        min_duration_days: nonNegativeIntegerQuery('min_duration_days').optional().describe('Leave out shorter spells'),
      }),
      response: { 200: z.object({ career_path: z.array(careerStepSchema), player_id: z.string() }), ...commonErrors },
    },
  }, async (req) => {
    const s = deps.snapshot();
    const f = requirePlayer(s, req.principal!, req.query.player_id);
    const min = req.query.min_duration_days ?? 0;
    const steps = [...(s.careers.get(f.player.id) ?? [])]
      .filter((st) => daysBetween(st.start_date, st.end_date ?? s.asOf) >= min)
      .reverse()
      .map((st) => ({
        club_id: st.club_id,
        club_name: s.clubs.get(st.club_id)?.name ?? '',
        start_date: st.start_date,
        start_year: Number(st.start_date.slice(0, 4)),
        end_date: st.end_date,
        end_year: st.end_date === null ? null : Number(st.end_date.slice(0, 4)),
        is_loan: st.is_loan,
      }));
    return { career_path: steps, player_id: f.player.id };
  });

  r.get('/v1/playing_time', {
    schema: {
      tags: ['players'],
      summary: 'Minutes, appearances and starts per season and competition, newest season first',
      querystring: z.object({ player_id: playerIdField(), season: seasonField().optional() }),
      response: {
        200: z.object({
          player_id: z.string(),
          seasons: z.array(z.object({ season: z.string(), competitions: z.array(competitionEntrySchema) })),
        }),
        ...commonErrors,
      },
    },
  }, async (req) => {
    const s = deps.snapshot();
    const f = requirePlayer(s, req.principal!, req.query.player_id);
    const seasons = playingTime(s, f.player.id, req.query.season ?? null).map((entry) => ({
      season: seasonLabel(entry.season),
      competitions: entry.competitions,
    }));
    return { player_id: f.player.id, seasons };
  });
}
