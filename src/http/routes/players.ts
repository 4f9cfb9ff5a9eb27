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
import { clubIdOut, clubSchema, commonErrors, playerIdOut, playerProfileSchema } from '../schemas.js';
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

const careerStepSchema = z
  .object({
    club_id: clubIdOut(),
    club_name: z.string().describe('Club name'),
    start_date: z.string().describe('First day at the club, YYYY-MM-DD'),
    start_year: z.number().int().describe('Year of start_date'),
    end_date: z.string().nullable().describe('Last day at the club, YYYY-MM-DD; null while the spell runs'),
    end_year: z.number().int().nullable().describe('Year of end_date; null while the spell runs'),
    is_loan: z.boolean().describe('true when he was on loan at the club'),
  })
  .describe('A spell at one club');

const competitionEntrySchema = z
  .object({
    competition: z.string().describe('Competition id'),
    competition_name: z.string().describe('Competition name'),
    competition_type: z.enum(['DOMESTIC_LEAGUE', 'DOMESTIC_CUP', 'INTERNATIONAL_CUP', 'INTERNATIONAL_SUPERCUP', 'NATIONAL_TEAM'])
      .describe('Kind of competition; entries come in this order, then by competition id, then club name'),
    club_id: z.string().describe('The club he played for in it; for NATIONAL_TEAM the senior national team'),
    club_name: z.string().describe('Name of that club or national team'),
    minutes_played: z.number().int().describe('Minutes played in this competition for this club in the season'),
    appearances: z.number().int().describe('Matches he played (matches he did not play are not counted)'),
    starting_xi_count: z.number().int().describe('Appearances he started'),
  })
  .describe('His playing time in one competition for one club');

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
    return sendJson(reply, cachedBody(infoBodies, s, f.player.id, () => playerInfoBody(s, f)));
  });

  r.get('/v1/career_path', {
    schema: {
      tags: ['players'],
      summary: 'Career path, most recent step first',
      querystring: z.object({
        player_id: playerIdField(),
        min_duration_days: nonNegativeIntegerQuery('min_duration_days').optional().describe('Leave out spells shorter than this many days (a running spell counts up to the as-of date)'),
      }),
      response: {
        200: z
          .object({
            career_path: z.array(careerStepSchema).describe('His spells at clubs, most recent first'),
            player_id: playerIdOut(),
          })
          .describe('The career path'),
        ...commonErrors,
      },
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
      querystring: z.object({ player_id: playerIdField(), season: seasonField().optional().describe('One season, YYYY/YYYY; omit for every season') }),
      response: {
        200: z
          .object({
            player_id: playerIdOut(),
            seasons: z
              .array(
                z.object({
                  season: z.string().describe('YYYY/YYYY'),
                  competitions: z.array(competitionEntrySchema).describe('One entry per competition and club he played for'),
                }),
              )
              .describe('Seasons with minutes, newest first; empty when the season asked has none'),
          })
          .describe('Playing time (youth, reserve, friendly and domestic supercup games left out)'),
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
