import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './errors.js';
import type { HttpDeps } from './deps.js';

function presentedKey(req: FastifyRequest): string | null {
  const header = req.headers['x-api-key'];
  const direct = Array.isArray(header) ? header[0] : header;
  if (direct && direct.trim() !== '') return direct.trim();
  const auth = req.headers.authorization;
  if (auth) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (m) return m[1];
  }
  return null;
}

/**
 * Key, account state and rolling rate limit, in that order, before the body is even parsed, so a
 * request is judged 401 -> 403 -> 429 before any 400 (CONVENTIONS check order).
 */
export function registerAccessHook(app: FastifyInstance, deps: HttpDeps): void {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (req, reply) => {
    // Unknown routes answer 404 whoever asks; public routes and the docs page need no key.
    const url = req.routeOptions.url;
    if (!url || req.routeOptions.config?.public || url.startsWith('/docs')) return;
    const key = presentedKey(req);
    if (key === null) throw new ApiError(401, 'Missing API key');
    const outcome = await deps.authenticator.authenticate(key);
    if (!outcome.ok) throw new ApiError(outcome.status, outcome.error);
    req.principal = outcome.principal;
    if (req.routeOptions.config?.unmetered) return;
    // The plan's own limit travels with each hit, so a shared store needs no setting of its own.
    const d = await deps.limiter.hit(outcome.principal.keyId, deps.now(), outcome.principal.rateLimit ?? undefined);
    reply.header('RateLimit-Limit', String(d.limit));
    reply.header('RateLimit-Remaining', String(d.remaining));
    reply.header('RateLimit-Reset', String(d.resetSeconds));
    if (!d.allowed) {
      throw new ApiError(
        429,
        'Rate limit exceeded',
        { limit: d.limit, window_seconds: deps.rateWindowSeconds, retry_after_seconds: d.retryAfterSeconds },
        { 'Retry-After': String(d.retryAfterSeconds) },
      );
    }
  });
}
