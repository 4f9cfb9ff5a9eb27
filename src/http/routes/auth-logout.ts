import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { HttpDeps } from '../deps.js';
import { errorResponse } from '../schemas.js';

/** `POST /v1/auth/logout`: revokes the key the request carries (EXTENSIONS "Sign-out and login keys"). */
export function authLogoutRoute(app: FastifyInstance, deps: HttpDeps): void {
  void app.register(async (scope) => {
    // Nothing is read from the body, so none, an empty one or any JSON is fine (clients differ).
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, _body, done) => done(null, undefined));
    logoutRoute(scope, deps);
  });
}

function logoutRoute(app: FastifyInstance, deps: HttpDeps): void {
  app.withTypeProvider<ZodTypeProvider>().post('/v1/auth/logout', {
    // Not counted: a key that spent its budget can still be signed out.
    config: { unmetered: true },
    schema: {
      tags: ['system'],
      summary: 'Sign out: revoke the key this request carries, at once',
      description: 'The key answers 401 `API key is revoked` from then on, on every instance. Other keys of the account are untouched. Not counted in the rate limit.',
      response: {
        204: z.null().describe('Revoked'),
        401: errorResponse.describe('`Missing API key`, `Invalid API key` or `API key is revoked`'),
        403: errorResponse.describe('`Account access denied: …`'),
      },
    },
  }, async (req, reply) => {
    // The access hook has authenticated the key: the principal names it.
    await deps.login.logout(req.principal!.keyId);
    return reply.code(204).send(null);
  });
}
