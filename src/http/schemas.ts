import { z } from 'zod';

/** Response shapes, for the OpenAPI document (responses are serialised as plain JSON). */
export const errorResponse = z.object({ error: z.string() }).passthrough().describe('Error');

export const clubSchema = z.object({
  service_id: z.string(),
  registry_a_id: z.number().int().nullable(),
  name: z.string(),
});

export const playerSummarySchema = z.object({
  service_id: z.string(),
  registry_a_id: z.number().int().nullable(),
  registry_b_id: z.number().int().nullable(),
  name: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  alias: z.string().nullable(),
});

export const playerProfileSchema = playerSummarySchema.extend({
  nationality: z.string(),
  birth_date: z.string().nullable(),
  height: z.number().nullable(),
  preferred_foot: z.string().nullable(),
});

/** Error statuses every authenticated route can answer, for the document. */
export const commonErrors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  429: errorResponse,
  500: errorResponse,
};
