import type { RateTable } from '../../money/rates.js';
import { z } from 'zod';
import { FEET, SORT_KEYS, type ListSort, type SortKey } from '../../discovery/list-index.js';
import { CLUB_ID_PATTERN } from '../../domain/ids.js';
import { isPositionCode } from '../../domain/positions.js';
import { amountQuery, currencyField, intRangeQuery, isoDateField, optionalId, queryBoolean } from '../fields.js';

/** The scouting list's settings, read in one place: page sizes, the default sort and the sorts allowed. */
export const PLAYER_LIST_CONFIG = {
  defaultLimit: 25,
  maxLimit: 100,
  defaultSort: '-market_value',
  sorts: SORT_KEYS,
  ages: { min: 14, max: 50 },
  ratings: { min: 1, max: 99 },
} as const;

const SORTS = SORT_KEYS.flatMap((k) => [k, `-${k}`]) as [string, ...string[]];

export function parseSort(sort: string): ListSort {
  const descending = sort.startsWith('-');
  return { key: (descending ? sort.slice(1) : sort) as SortKey, descending };
}

/** One or more position codes, comma-separated; shared with /similar_players. */
export const positionList = z
  .string({ error: 'Invalid position' })
  .transform((s) => s.split(',').map((p) => p.trim().toUpperCase()))
  .refine((codes) => codes.every(isPositionCode), { error: 'Invalid position' })
  .describe('One or more position codes, comma-separated (e.g. LB,LWB)');

const foot = z
  .string({ error: 'Invalid preferred_foot' })
  .transform((s) => FEET.find((f) => f.toLowerCase() === s.trim().toLowerCase()))
  .refine((f) => f !== undefined, { error: 'Invalid preferred_foot' })
  .describe('Right, Left or Both');

/** The query of GET /v1/players, in the order of EXTENSIONS.md's table (the first failing field answers). */
export function playerListQuery(rates: () => RateTable) {
  const { ages, ratings } = PLAYER_LIST_CONFIG;
  return z.object({
    competition_id: z.string({ error: 'Invalid competition_id' }).min(1, { error: 'Invalid competition_id' }).optional()
      .describe('Only players whose current team plays in this competition this season'),
    club_id: optionalId('club_id', CLUB_ID_PATTERN).describe('Only players whose current team is this club'),
    position: positionList.optional(),
    min_age: intRangeQuery('min_age', ages.min, ages.max).optional().describe('Whole years at the as-of date, 14-50'),
    max_age: intRangeQuery('max_age', ages.min, ages.max).optional().describe('Whole years at the as-of date, 14-50'),
    nationality: z.string({ error: 'Invalid nationality' }).min(1, { error: 'Invalid nationality' }).optional().describe('Exact, case-insensitive'),
    preferred_foot: foot.optional(),
    contract_expires_before: isoDateField('contract_expires_before').optional().describe('YYYY-MM-DD: contracts ending on or before it'),
    min_market_value: amountQuery('min_market_value').optional().describe('In `currency`: market value at least this'),
    max_market_value: amountQuery('max_market_value').optional().describe('In `currency`: market value at most this'),
    max_expected_transfer_value: amountQuery('max_expected_transfer_value').optional().describe('In `currency`: expected transfer fee at most this'),
    min_rating: intRangeQuery('min_rating', ratings.min, ratings.max).optional().describe('Our rating at least this, 1-99'),
    min_potential: intRangeQuery('min_potential', ratings.min, ratings.max).optional().describe('Our potential at least this, 1-99'),
    analysis_available_only: queryBoolean('analysis_available_only').describe('true/false/1/0: only players the analysis endpoints accept'),
    currency: currencyField('currency', rates),
    sort: z.enum(SORTS, { error: 'Invalid sort' }).optional()
      .describe(`${SORT_KEYS.join(', ')}; a leading - sorts descending; default ${PLAYER_LIST_CONFIG.defaultSort}; nulls last; ties by service_id`),
    limit: intRangeQuery('limit', 1, PLAYER_LIST_CONFIG.maxLimit).optional().describe('1-100, default 25'),
    cursor: z.string({ error: 'Invalid cursor' }).optional().describe('next_cursor of the previous page, with the same filters and sort'),
  });
}

const money = (what: string) => z.number().int().nullable().describe(`${what}, in \`currency\`; null when unknown`);
const moneyEur = (what: string) => z.number().int().nullable().describe(`${what}, EUR`);

export const playerListItemSchema = z.object({
  service_id: z.string().describe('Player service id'),
  name: z.string().describe('Full display name'),
  age: z.number().int().nullable().describe('Whole years at the as-of date'),
  position: z.string().describe('Position code'),
  player_role: z.string().describe('Role, see /v1/role_description'),
  nationality: z.string().describe('Country of citizenship (of birth when that is unknown)'),
  club_id: z.string().nullable().describe('Current team'),
  club_name: z.string().nullable().describe('Current team name'),
  competition: z.string().nullable().describe("The current team's domestic league this season"),
  contract_end_date: z.string().nullable().describe('YYYY-MM-DD'),
  market_value: money('Latest crowd value on or before the as-of date'),
  market_value_in_eur: moneyEur('Latest crowd value'),
  expected_transfer_value: money('What /v1/expected_transfer_value answers with no target club and no contract date; null when analysis is not available'),
  expected_transfer_value_in_eur: moneyEur('Expected transfer fee'),
  rating: z.number().int().nullable().describe('Our latest rating, 1-99'),
  potential: z.number().int().nullable().describe('Our latest potential, 1-99'),
  analysis_available: z.boolean().describe('true when the analysis endpoints (fee, future value, impact, ROI, squads) accept him'),
}).describe('A player of the scouting list');

export const playerListResponseSchema = z.object({
  currency: z.string().describe('ISO 4217 code of the money fields without `_in_eur`: the one requested, else EUR'),
  total: z.number().int().describe('Every match, on all pages'),
  players: z.array(playerListItemSchema).describe('This page, in the order of `sort`'),
  next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page'),
}).describe('One page of the scouting list');
