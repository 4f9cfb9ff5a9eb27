import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { daysBetween } from '../../domain/season.js';
import type { HttpDeps } from '../deps.js';
import { nonNegativeIntegerQuery, playerIdField } from '../fields.js';
import { requirePlayer } from '../guards.js';
import { clubIdOut, commonErrors, playerIdOut } from '../schemas.js';

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

/** GET /v1/career_path */
export function careerPathRoute(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

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
}
