import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { AuthOutcome, RateDecision } from '../access/interface.js';
import { ApiError } from './errors.js';
import type { HttpDeps } from './deps.js';
import { prependRouteHook } from './route-hooks.js';

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

type Done = (err?: Error) => void;
type Hook = (req: FastifyRequest, reply: FastifyReply, done: Done) => void;

/** Calls `step` once the store's promise settles; a failure in either goes to `done`. */
function whenSettled<T>(value: Promise<T>, step: (v: T) => void, done: Done): void {
  value.then((v) => {
    try {
      step(v);
    } catch (err) {
      done(err as Error);
    }
  }, done);
}

/** The route needs no key: public routes (health, login, the web app) and the docs page. */
function isOpen(route: RouteOptions): boolean {
  const config = route.config as { public?: boolean } | undefined;
  return config?.public === true || route.url.startsWith('/docs');
}

/**
 * Key, account state and rolling rate limit, in that order, before the body is even parsed, so a
 * request is judged 401 -> 403 -> 429 before any 400 (CONVENTIONS check order). Each route that
 * needs a key gets the check as its own first onRequest hook when it is added, so a request pays
 * for no look-up of what its route needs; callback style, so a known key and the in-memory limiter
 * answer without a promise. Call before the routes are added.
 */
export function registerAccessCheck(app: FastifyInstance, deps: HttpDeps): void {
  app.decorateRequest('principal', null);

  const limited = (d: RateDecision, reply: FastifyReply, done: Done): void => {
    reply.header('ratelimit-limit', String(d.limit));
    reply.header('ratelimit-remaining', String(d.remaining));
    reply.header('ratelimit-reset', String(d.resetSeconds));
    if (d.allowed) return done();
    done(new ApiError(
      429,
      'Rate limit exceeded',
      { limit: d.limit, window_seconds: deps.rateWindowSeconds, retry_after_seconds: d.retryAfterSeconds },
      { 'Retry-After': String(d.retryAfterSeconds) },
    ));
  };

  /** Who asks; then, when `metered`, one hit on the caller's rolling window (the plan's own limit travels with it). */
  const check = (metered: boolean): Hook => {
    const authenticated = (req: FastifyRequest, reply: FastifyReply, done: Done, outcome: AuthOutcome): void => {
      if (!outcome.ok) return done(new ApiError(outcome.status, outcome.error));
      req.principal = outcome.principal;
      if (!metered) return done();
      const decision = deps.limiter.hit(outcome.principal.keyId, deps.now(), outcome.principal.rateLimit ?? undefined);
      if (!(decision instanceof Promise)) return limited(decision, reply, done);
      whenSettled(decision, (d) => limited(d, reply, done), done);
    };
    return (req, reply, done) => {
      const key = presentedKey(req);
      if (key === null) return done(new ApiError(401, 'Missing API key'));
      const outcome = deps.authenticator.authenticate(key);
      if (!(outcome instanceof Promise)) return authenticated(req, reply, done, outcome);
      whenSettled(outcome, (o) => authenticated(req, reply, done, o), done);
    };
  };
  const meteredCheck = check(true);
  const unmeteredCheck = check(false);

  app.addHook('onRoute', (route) => {
    if (isOpen(route)) return;
    const unmetered = (route.config as { unmetered?: boolean } | undefined)?.unmetered === true;
    prependRouteHook(route, 'onRequest', unmetered ? unmeteredCheck : meteredCheck);
  });
}
