import { z } from 'zod';
import { WEBHOOK_EVENTS, WEBHOOKS_MAX } from '../../domain/webhooks.js';
import { bodyObject, requiredId, storable } from '../fields.js';

/** wh_ + 16 base64url characters, as the store makes them. */
export const WEBHOOK_ID_PATTERN = /^wh_[A-Za-z0-9_-]{16}$/;
export const URL_MAX = 2048;

const eventsField = () => z.array(z.enum(WEBHOOK_EVENTS)).describe(`The events it receives: ${WEBHOOK_EVENTS.map((e) => `\`${e}\``).join(', ')}`);
const webhookIdOut = () => z.string().describe('The webhook\'s id (wh_ + 16 characters)');

export const webhookRegisterBody = bodyObject({
  url: z
    .string({ error: (iss) => (iss.input === undefined ? 'url is required' : 'Invalid url') })
    .min(1, { error: 'url is required' })
    .max(URL_MAX, { error: 'Invalid url' })
    .refine(storable, { error: 'Invalid url' })
    .describe('Where deliveries are POSTed: https to a public address (http to loopback only when WEBHOOKS_ALLOW_HTTP_LOOPBACK=1)'),
  events: z
    .array(z.enum(WEBHOOK_EVENTS, { error: 'Invalid events' }), { error: (iss) => (iss.input === undefined ? 'events is required' : 'Invalid events') })
    .min(1, { error: 'events is required' })
    .max(WEBHOOK_EVENTS.length * 2, { error: 'Invalid events' })
    .describe(`One or more of ${WEBHOOK_EVENTS.map((e) => `\`${e}\``).join(', ')}`),
});

export const webhookOut = z
  .object({
    webhook_id: webhookIdOut(),
    url: z.string().describe('Where deliveries are POSTed'),
    events: eventsField(),
    created_at: z.string().describe('When it was registered (ISO 8601, UTC)'),
  })
  .describe('A webhook');

export const webhookCreatedOut = z
  .object({
    webhook_id: webhookIdOut(),
    url: z.string().describe('Where deliveries are POSTed'),
    events: eventsField(),
    secret: z.string().describe('The signing secret (whsec_…), shown this once: deliveries carry `Touchline-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with it>`'),
  })
  .describe('The webhook registered, with its secret');

export const webhooksOut = z
  .object({ webhooks: z.array(webhookOut).describe(`Oldest first, at most ${WEBHOOKS_MAX}`) })
  .describe('The account\'s webhooks');

export const webhookIdQuery = z.object({ webhook_id: requiredId('webhook_id', WEBHOOK_ID_PATTERN).describe('The webhook\'s id') });

export const deliveriesOut = z
  .object({
    webhook_id: webhookIdOut(),
    deliveries: z
      .array(
        z.object({
          delivery_id: z.string().describe('The delivery\'s id'),
          event_id: z.string().describe('The event\'s id: the `id` of the body POSTed'),
          event: z.enum(WEBHOOK_EVENTS).describe('The event\'s type'),
          status: z.enum(['pending', 'delivered', 'failed']).describe('`pending` until a 2xx answer (`delivered`) or its 24 hours of retries are spent (`failed`)'),
          status_code: z.number().int().nullable().describe('The receiver\'s last HTTP status; null before the first attempt or when it did not answer'),
          attempts: z.number().int().min(0).describe('Attempts made so far'),
          error: z.string().nullable().describe('Why the last attempt failed, in words; null when it succeeded or none was made'),
          created_at: z.string().describe('When the event happened (ISO 8601, UTC)'),
          last_attempt_at: z.string().nullable().describe('The last attempt (ISO 8601, UTC); null before the first'),
          next_attempt_at: z.string().nullable().describe('The next attempt of a pending delivery (ISO 8601, UTC); null otherwise'),
        }).describe('One event sent (or to send) to the webhook'),
      )
      .describe('The last 100, newest first'),
  })
  .describe('The webhook\'s deliveries');
