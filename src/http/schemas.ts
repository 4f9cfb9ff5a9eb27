import { z } from 'zod';

/**
 * Response shapes, for the OpenAPI document (responses are serialised as plain JSON). Every field
 * carries its description here, once: /v1/openapi.json and /docs both read it.
 */
export const errorResponse = z
  .object({
    error: z.string().describe('What went wrong, one of the fixed strings listed in docs/api.md (for example `Player not found`)'),
  })
  .passthrough()
  .describe('Error: `{"error": "…"}`; a 429 adds `limit`, `window_seconds` and `retry_after_seconds`, an unknown role adds `allowed_roles`');

export const playerIdOut = () => z.string().describe('Player service id: P + 26 characters');
export const clubIdOut = () => z.string().describe('Club service id: C + 26 characters');
export const currencyOut = () => z.string().describe('ISO 4217 code of the money fields without `_in_eur`: the one requested, else EUR');

/** A whole amount in the answer's currency and its EUR twin, both rounded half away from zero. */
export const moneyOut = (what: string) => z.number().int().describe(`${what}, in \`currency\`, a whole number`);
export const moneyEurOut = (what: string) => z.number().int().describe(`${what}, in EUR, a whole number`);

export const clubSchema = z
  .object({
    service_id: clubIdOut(),
    registry_a_id: z.number().int().nullable().describe('The club\'s id in registry A (Transfermarkt\'s numbering for imported data); null when none is recorded'),
    name: z.string().describe('Display name'),
  })
  .describe('A club');

export const playerSummarySchema = z
  .object({
    service_id: playerIdOut(),
    registry_a_id: z.number().int().nullable().describe('The player\'s id in registry A; null when not linked'),
    registry_b_id: z.number().int().nullable().describe('The player\'s id in registry B (the EA ratings\' numbering for imported data); null when not linked'),
    name: z.string().describe('Full display name'),
    first_name: z.string().describe('First name'),
    last_name: z.string().describe('Last name'),
    alias: z.string().nullable().describe('Name he is known by (e.g. a single name), or null'),
  })
  .describe('A player in a squad list');

export const playerProfileSchema = playerSummarySchema
  .extend({
    nationality: z.string().describe('Country of citizenship (of birth when that is unknown)'),
    birth_date: z.string().nullable().describe('YYYY-MM-DD, or null when unknown'),
    height: z.number().nullable().describe('Height in centimetres, or null when unknown'),
    preferred_foot: z.string().nullable().describe('Right, Left or Both; null when unknown'),
  })
  .describe('A player\'s profile');

/** Error statuses every authenticated route can answer, for the document. */
export const commonErrors = {
  400: errorResponse.describe('A parameter or the body is invalid: the first failing field, in the order the endpoint lists them'),
  401: errorResponse.describe('`Missing API key`, `Invalid API key` or `API key is revoked`'),
  403: errorResponse.describe('Account not allowed, player/club/competition outside the plan, or player not available for analysis'),
  404: errorResponse.describe('`Player not found`, `Club not found` or `Competition not found`'),
  429: errorResponse.describe('`Rate limit exceeded`: 60 requests per key in any rolling 60 seconds (or the plan\'s own limit); wait `retry_after_seconds`'),
  500: errorResponse.describe('`Unexpected server error. Please try again later.`'),
};

/** An 80% range in `currency`. */
export const rangeOut = (what: string, low: string, high: string) =>
  z
    .object({
      low: z.number().int().describe(`${low}, in \`currency\``),
      high: z.number().int().describe(`${high}, in \`currency\``),
    })
    .describe(`80% range of ${what}: 8 in 10 outcomes fall inside it`);

/** `warnings` of an analysis answer: empty when nothing applies. */
export const warningsOut = () =>
  z
    .array(
      z
        .object({
          code: z.enum(['season_clubs_assumed', 'thin_squad', 'already_at_club', 'free_agent', 'stale_value', 'leagues_differ'])
            .describe('already_at_club: he plays for the club named; free_agent: his contract has ended on or before the transfer date, no fee is due; stale_value: his latest crowd value is more than 12 months older than the as-of date; season_clubs_assumed / thin_squad: see the league simulation; leagues_differ (match forecast): the two clubs play in different leagues, whose strengths are each measured within the league'),
          message: z.string().describe('One plain sentence with the numbers'),
        })
        .describe('A warning'),
    )
    .describe('What the answer should be read with; an empty array when nothing applies');
