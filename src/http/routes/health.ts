import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { HttpDeps } from '../deps.js';

/** GET /v1/health */
export function healthRoute(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/v1/health', {
    config: { public: true },
    schema: {
      tags: ['system'],
      summary: 'Liveness and dependencies; needs no key and is not rate limited',
      security: [],
      response: {
        200: z
          .object({
            status: z.literal('ok').describe('ok: this instance answers and its database does'),
            version: z.string().describe('Version of the data and models in force'),
            database: z.literal('ok').describe('ok: the database answered a ping'),
            rate_limit: z.enum(['ok', 'degraded']).describe('degraded: Redis is configured but not answering, so each instance limits on its own'),
            data_as_of: z.string().describe('The as-of date of the data served (YYYY-MM-DD): TOUCHLINE_AS_OF, or unset the data\'s own latest date'),
          })
          .describe('Healthy'),
        503: z
          .object({
            status: z.enum(['degraded', 'draining']).describe('degraded: the database does not answer; draining: this instance is shutting down'),
            version: z.string().describe('Version of the data and models in force'),
            database: z.enum(['ok', 'unavailable']).describe('unavailable: the database did not answer a ping'),
            rate_limit: z.enum(['ok', 'degraded']).describe('degraded: Redis is configured but not answering'),
          })
          .describe('Not able to serve: the database is down, or the instance is draining'),
      },
    },
  }, async (_req, reply) => {
    const rateLimit = deps.limiter.health();
    const database = await deps.pingDatabase().then(() => 'ok' as const, () => 'unavailable' as const);
    if (app.isDraining()) return reply.code(503).send({ status: 'draining', version: deps.version, database, rate_limit: rateLimit });
    if (database === 'unavailable') return reply.code(503).send({ status: 'degraded', version: deps.version, database, rate_limit: rateLimit });
    return { status: 'ok' as const, version: deps.version, database, rate_limit: rateLimit, data_as_of: deps.snapshot().asOf };
  });
}
