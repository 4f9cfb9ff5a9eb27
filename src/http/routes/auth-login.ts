import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError } from '../errors.js';
import type { HttpDeps } from '../deps.js';
import { bodyObject } from '../fields.js';
import { errorResponse } from '../schemas.js';

function requiredString(name: string, max: number) {
  return z
    .string({ error: (iss) => (iss.input === undefined ? `${name} is required` : `${name} must be a string`) })
    .min(1, { error: `${name} is required` })
    .max(max, { error: `${name} is too long` });
}

/** POST /v1/auth/login */
export function authLoginRoute(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/v1/auth/login', {
    config: { public: true },
    schema: {
      tags: ['system'],
      summary: 'Exchange email and password for a new API key valid 24 hours',
      security: [],
      body: bodyObject({
        email: requiredString('email', 320).describe('The account\'s email, e.g. the demo login\'s demo@touchline.local'),
        password: requiredString('password', 1024).describe('The account\'s password'),
      }),
      response: {
        200: z
          .object({
            api_key: z.string().describe('A new API key, shown this once: send it in `x-api-key` or `Authorization: Bearer`'),
            key_id: z.string().describe('Id of the key, for `touchline keys revoke --key-id`'),
            token_type: z.literal('Bearer').describe('Always Bearer'),
            expires_at: z.string().describe('When the key stops working, 24 hours after the login (ISO 8601, UTC)'),
          })
          .describe('Signed in: a new key valid 24 hours'),
        400: errorResponse.describe('`email is required`, `password is required`, `… must be a string`, `… is too long` or `Body must be a JSON object`'),
        401: errorResponse.describe('`Invalid email or password`'),
        429: errorResponse.describe('`Rate limit exceeded`, before the password is checked: 10 failed logins for this email from this address, or 30 from this address, in 15 minutes'),
      },
    },
  }, async (req) => {
    const outcome = await deps.login.login(req.body.email, req.body.password, deps.now(), req.ip);
    if (outcome.ok) return outcome.result;
    if (outcome.status === 429) {
      // The one 429 shape of CONVENTIONS, with the lockout's own limit and window.
      const retry = outcome.retryAfterSeconds;
      throw new ApiError(
        429,
        outcome.error,
        { limit: outcome.limit, window_seconds: outcome.windowSeconds, retry_after_seconds: retry },
        { 'Retry-After': String(retry) },
      );
    }
    throw new ApiError(outcome.status, outcome.error);
  });
}
