import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { MaybePromise } from '../access/interface.js';
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

/** Runs `then` on a value now, or when its promise settles; any failure goes to `fail`. */
function settle<T>(value: MaybePromise<T>, then: (v: T) => void, fail: (err: unknown) => void): void {
  if (value instanceof Promise) {
    value.then((v) => {
      try {
        then(v);
      } catch (err) {
        fail(err);
      }
    }, fail);
    return;
  }
  try {
    then(value);
  } catch (err) {
    fail(err);
  }
}

export type AccessCheck = (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => void;

/**
 * Key, account state and rolling rate limit, in that order, before the body is even parsed, so a
 * request is judged 401 -> 403 -> 429 before any 400 (CONVENTIONS check order). The app runs it in
 * its one onRequest hook, callback style: a known key and the in-memory limiter answer at once, so
 * the common request makes no promise.
 */
export function accessCheck(app: FastifyInstance, deps: HttpDeps): AccessCheck {
  app.decorateRequest('principal', null);
  return (req, reply, done) => {
    // Unknown routes answer 404 whoever asks; public routes and the docs page need no key.
    const url = req.routeOptions.url;
    if (!url || req.routeOptions.config?.public || url.startsWith('/docs')) return done();
    const key = presentedKey(req);
    if (key === null) return done(new ApiError(401, 'Missing API key'));
    const fail = (err: unknown) => done(err as Error);
    settle(deps.authenticator.authenticate(key), (outcome) => {
      if (!outcome.ok) return done(new ApiError(outcome.status, outcome.error));
      req.principal = outcome.principal;
      if (req.routeOptions.config?.unmetered) return done();
      // The plan's own limit travels with each hit, so a shared store needs no setting of its own.
      settle(deps.limiter.hit(outcome.principal.keyId, deps.now(), outcome.principal.rateLimit ?? undefined), (d) => {
        reply.header('RateLimit-Limit', String(d.limit));
        reply.header('RateLimit-Remaining', String(d.remaining));
        reply.header('RateLimit-Reset', String(d.resetSeconds));
        if (d.allowed) return done();
        done(new ApiError(
          429,
          'Rate limit exceeded',
          { limit: d.limit, window_seconds: deps.rateWindowSeconds, retry_after_seconds: d.retryAfterSeconds },
          { 'Retry-After': String(d.retryAfterSeconds) },
        ));
      }, fail);
    }, fail);
  };
}
