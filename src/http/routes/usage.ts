import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { HttpDeps } from '../deps.js';
import { commonErrors } from '../schemas.js';

const int = (what: string) => z.number().int().min(0).describe(what);

/** GET /v1/usage: the asking key's rolling window, as its RateLimit-* headers say it (this request counted). */
export function usageRoute(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/v1/usage', {
    schema: {
      tags: ['system'],
      summary: 'The key\'s rolling window: its limit, what it used and what is left; this request counts',
      querystring: z.object({}),
      response: {
        200: z.object({
          limit: int('Accepted requests per window for this key (its plan\'s own limit, else RATE_LIMIT)'),
          window_seconds: int('Length of the rolling window'),
          used: int('Requests counted in the window now, this one included'),
          remaining: int('Requests left in the window (RateLimit-Remaining)'),
          reset_seconds: int('Seconds until the oldest counted request leaves the window (RateLimit-Reset)'),
        }).describe('The key\'s usage'),
        ...commonErrors,
      },
    },
  }, async (_req, reply) => {
    // the access check counted this request and wrote its decision in the headers: the same figures
    const limit = Number(reply.getHeader('ratelimit-limit'));
    const remaining = Number(reply.getHeader('ratelimit-remaining'));
    return { limit, window_seconds: deps.rateWindowSeconds, used: limit - remaining, remaining, reset_seconds: Number(reply.getHeader('ratelimit-reset')) };
  });
}
