import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { HttpDeps } from '../deps.js';

/** GET /v1/ready: readiness, beside /v1/health's liveness. */
export function readyRoute(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/v1/ready', {
    config: { public: true },
    schema: {
      tags: ['system'],
      summary: 'Readiness: 200 once the world, the models trained on it and every analysis worker are in force; needs no key and is not rate limited',
      security: [],
      response: {
        200: z.object({ status: z.literal('ready').describe('Analyses answer at full speed') }).describe('Ready'),
        503: z.object({
          status: z.literal('starting').describe('Not ready yet: the models are being trained, or the analysis workers load a new world'),
          reason: z.string().describe('What it waits for, in words'),
        }).describe('Starting: send traffic elsewhere for now'),
      },
    },
  }, async (_req, reply) => {
    const r = deps.readiness();
    if (!r.ready || app.isDraining()) return reply.code(503).header('Retry-After', '5').send({ status: 'starting' as const, reason: app.isDraining() ? 'shutting down' : r.reason });
    return { status: 'ready' as const };
  });
}
