import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { HttpDeps } from '../deps.js';
import { ApiError } from '../errors.js';
import { commonErrors } from '../schemas.js';
import { MODEL_VERSION_HEADER } from '../valuation-context.js';
import { modelCardSchema } from './model-card.schema.js';

/** GET /v1/model_card: what the backtests at training measured, for the models in force. */
export function modelCardRoute(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/v1/model_card', {
    schema: {
      tags: ['models'],
      summary: 'How good the numbers are: each model\'s backtest at training, against its baselines, and the coverage of its ranges',
      querystring: z.object({}),
      response: { 200: modelCardSchema, ...commonErrors },
    },
  }, async (_req, reply) => {
    const bundle = deps.models();
    if (!bundle) throw new ApiError(503, 'Models are being trained; try again shortly');
    if (!bundle.card) throw new ApiError(404, 'Not found');
    reply.header(MODEL_VERSION_HEADER, bundle.version);
    // as stored: a figure the backtest could not compute is null, as in the artifact's JSON
    return JSON.parse(JSON.stringify(bundle.card)) as z.infer<typeof modelCardSchema>;
  });
}
