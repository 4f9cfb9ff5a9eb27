import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { WEBHOOKS_MAX, WebhookUrlRefused, type Webhook } from '../../domain/webhooks.js';
import type { HttpDeps } from '../deps.js';
import { ApiError } from '../errors.js';
import { commonErrors, errorResponse } from '../schemas.js';
import { deliveriesOut, webhookCreatedOut, webhookIdQuery, webhookRegisterBody, webhooksOut } from './webhooks.schema.js';

const present = (w: Webhook) => ({ webhook_id: w.id, url: w.url, events: [...w.events], created_at: w.createdAt });
const notFound = () => new ApiError(404, 'Webhook not found');

/** POST, GET and DELETE /v1/webhooks, GET /v1/webhooks/deliveries (EXTENSIONS "Webhooks"): the account's own. */
export function webhooksRoute(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/v1/webhooks', {
    schema: {
      tags: ['webhooks'],
      summary: 'Register a webhook: the events it receives and where',
      description: `Per account, at most ${WEBHOOKS_MAX}. \`data.updated\`: after a data update or rollback is served, its report's summary. \`list.value_changed\`: after an update, for each player on one of the lists the account sees (its Shortlist and own lists, or its organisation's shared lists) whose market value or expected fee moved 10% or more, both figures before and after. A delivery is a POST of \`{"id", "type", "created_at", "data"}\` signed in \`Touchline-Signature\`; any 2xx is success, anything else is retried with backoff (30 s doubling, at most 2 h apart) for 24 hours.`,
      body: webhookRegisterBody,
      response: {
        201: webhookCreatedOut,
        ...commonErrors,
        400: errorResponse.describe('`Webhook URL not allowed` (not https, or a private, link-local or loopback address), or a field\'s message'),
        409: errorResponse.describe(`\`Too many webhooks\`: ${WEBHOOKS_MAX} already; delete one first`),
      },
    },
  }, async (req, reply) => {
    let outcome;
    try {
      outcome = await deps.webhooks.register(req.principal!.accountId, req.body.url, req.body.events);
    } catch (err) {
      if (err instanceof WebhookUrlRefused) throw new ApiError(400, 'Webhook URL not allowed');
      throw err;
    }
    if (!outcome.ok) throw new ApiError(409, 'Too many webhooks');
    const { webhook, secret } = outcome;
    return reply.code(201).send({ webhook_id: webhook.id, url: webhook.url, events: [...webhook.events], secret });
  });

  r.get('/v1/webhooks', {
    schema: { tags: ['webhooks'], summary: 'The account\'s webhooks (their secrets are not shown again)', querystring: z.object({}), response: { 200: webhooksOut, ...commonErrors } },
  }, async (req) => ({ webhooks: (await deps.webhooks.list(req.principal!.accountId)).map(present) }));

  r.delete('/v1/webhooks', {
    schema: {
      tags: ['webhooks'],
      summary: 'Delete a webhook, and its pending deliveries',
      querystring: webhookIdQuery,
      response: { 204: z.null().describe('Deleted'), ...commonErrors, 404: errorResponse.describe('`Webhook not found`') },
    },
  }, async (req, reply) => {
    if (!(await deps.webhooks.remove(req.principal!.accountId, req.query.webhook_id))) throw notFound();
    return reply.code(204).send(null);
  });

  r.get('/v1/webhooks/deliveries', {
    schema: {
      tags: ['webhooks'],
      summary: 'A webhook\'s last 100 deliveries: event, status code, attempts, times',
      querystring: webhookIdQuery,
      response: { 200: deliveriesOut, ...commonErrors, 404: errorResponse.describe('`Webhook not found`') },
    },
  }, async (req) => {
    const list = await deps.webhooks.deliveries(req.principal!.accountId, req.query.webhook_id);
    if (!list) throw notFound();
    return {
      webhook_id: req.query.webhook_id,
      deliveries: list.map((d) => ({
        delivery_id: d.id, event_id: d.eventId, event: d.event, status: d.status, status_code: d.statusCode, attempts: d.attempts, error: d.error,
        created_at: d.createdAt, last_attempt_at: d.lastAttemptAt, next_attempt_at: d.nextAttemptAt,
      })),
    };
  });
}
