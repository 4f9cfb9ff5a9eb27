import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { searchIndex } from '../../discovery/index.js';
import { RESULT_TYPES } from '../../discovery/search-index.js';
import type { HttpDeps } from '../deps.js';
import { enumQuery, intRangeQuery } from '../fields.js';
import { scopeOf } from '../guards.js';
import { commonErrors } from '../schemas.js';

export const SEARCH_CONFIG = { minLength: 2, maxLength: 100, defaultLimit: 10, maxLimit: 50 } as const;

const isBlank = (input: unknown) => input === undefined || (typeof input === 'string' && input.trim() === '');

export const searchQuerySchema = z.object({
  q: z
    .string({ error: (iss) => (isBlank(iss.input) ? 'q is required' : 'Invalid q') })
    .transform((q) => q.trim())
    .refine((q) => q !== '', { error: 'q is required' })
    .refine((q) => [...q].length >= SEARCH_CONFIG.minLength && [...q].length <= SEARCH_CONFIG.maxLength, { error: 'Invalid q' })
    .describe(
      'What to find, 2-100 characters after trimming. Case, accents and punctuation do not matter (mbappe finds Mbappé); ' +
        'words may come in any order and each may be a prefix (vini jun); a word of 5 or more letters may carry one typo (haalnd)',
    ),
  type: enumQuery('type', ['player', 'club', 'competition']).optional().describe('player, club or competition; default all three'),
  limit: intRangeQuery('limit', 1, SEARCH_CONFIG.maxLimit).optional().describe('1-50, default 10'),
});

const searchResultSchema = z
  .object({
    type: z.enum(['player', 'club', 'competition']).describe('What the result is'),
    name: z.string().describe('Display name'),
    service_id: z.string().optional().describe('Player or club: its service id'),
    club_id: z.string().nullable().optional().describe('Player: current team'),
    club_name: z.string().nullable().optional().describe('Player: current team name'),
    position: z.string().optional().describe('Player: position code'),
    age: z.number().int().nullable().optional().describe('Player: whole years at the as-of date'),
    nationality: z.string().optional().describe('Player: nationality'),
    market_value_in_eur: z.number().int().nullable().optional().describe('Player: latest crowd value on or before the as-of date, EUR'),
    registry_a_id: z.number().int().nullable().optional().describe('Club: registry A id'),
    competition: z.string().nullable().optional().describe('Club: its current domestic league, or null; competition: its id'),
    competition_type: z.string().optional().describe('Competition: DOMESTIC_LEAGUE, DOMESTIC_CUP, …'),
    country: z.string().nullable().optional().describe('Competition: country, null for international ones'),
  })
  .describe('A player, club or competition; fields by type');

/** GET /v1/search: players, clubs and competitions by name, within the caller's plan. */
export function searchRoute(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/v1/search', {
    schema: {
      tags: ['discovery'],
      summary: 'Find players, clubs and competitions by name',
      description:
        'Best match first: an exact full-name match, then every word matched as a prefix, then matches with a typo; ' +
        'ties go to the higher current market value (a club: its squad\'s total; a competition: its clubs\' total), then the name. ' +
        'Football\'s names are known: club and competition aliases (psg, man utd, barca, bayern munchen, la liga...) name the first team or ' +
        'competition exactly, and a first team ranks above its youth and reserve sides; names may be typed without their spaces (debruyne, vandijk); ' +
        'a player carrying every word typed and worth ten times more than every player of that exact name ranks with them (vinicius). ' +
        'Only what the caller\'s plan covers is returned.',
      querystring: searchQuerySchema,
      response: {
        200: z.object({ results: z.array(searchResultSchema).describe('Best match first, at most `limit`') }).describe('What matched'),
        ...commonErrors,
      },
    },
  }, async (req) => {
    const s = deps.snapshot();
    const { scope } = scopeOf(s, req.principal!);
    const q = req.query;
    const results = searchIndex(s).search({
      q: q.q,
      types: q.type ? [q.type] : RESULT_TYPES,
      limit: q.limit ?? SEARCH_CONFIG.defaultLimit,
      scope,
    });
    return { results };
  });
}
