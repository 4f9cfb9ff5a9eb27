import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './errors.js';
import { prependRouteHook } from './route-hooks.js';

/**
 * Strict parameters (EXTENSIONS.md), once for every API route: a query parameter or top-level body
 * field the route's schema does not define is 400 `Unknown parameter: <name>`, before any other 400
 * (the hook runs after the access hook's 401/403/429 and before validation); a known /v1 path asked
 * with a method it does not have is 405 with an `Allow` header.
 */

const API_PREFIX = '/v1/';

/** The field names a zod object schema defines (through pipes and transforms); null when it is not an object. */
function fieldsOf(schema: unknown): ReadonlySet<string> | null {
  let s = schema as { shape?: Record<string, unknown>; _zod?: { def?: { in?: unknown; innerType?: unknown } } } | undefined;
  for (let depth = 0; s && depth < 8; depth++) {
    if (s.shape && typeof s.shape === 'object') return new Set(Object.keys(s.shape));
    s = (s._zod?.def?.in ?? s._zod?.def?.innerType) as typeof s;
  }
  return null;
}

const NONE: ReadonlySet<string> = new Set();

function firstUnknown(given: unknown, known: ReadonlySet<string>): string | null {
  if (typeof given !== 'object' || given === null || Array.isArray(given)) return null;
  for (const name of Object.keys(given)) if (!known.has(name)) return name;
  return null;
}

/** The methods each API path answers, filled as routes are added (HEAD comes with GET). */
export type MethodTable = Map<string, Set<string>>;

/** Registers the checks; call before the routes are added, so every route is seen. */
export function registerStrictParameters(app: FastifyInstance): MethodTable {
  const methods: MethodTable = new Map();
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(API_PREFIX)) return;
    const list = Array.isArray(route.method) ? route.method : [route.method];
    let set = methods.get(route.url);
    if (!set) methods.set(route.url, (set = new Set()));
    for (const m of list) set.add(m);
    if (list.includes('GET')) set.add('HEAD');
    const schema = route.schema as { querystring?: unknown; body?: unknown; hide?: boolean } | undefined;
    if (schema?.hide) return;
    const query = schema?.querystring ? fieldsOf(schema.querystring) : NONE;
    const body = schema?.body ? fieldsOf(schema.body) : null;
    // the route's own first preValidation hook (a callback, not async: no promise per request)
    prependRouteHook(route, 'preValidation', (req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => {
      const name = (query && firstUnknown(req.query, query)) ?? (body && firstUnknown(req.body, body)) ?? null;
      done(name === null ? undefined : new ApiError(400, `Unknown parameter: ${name}`));
    });
  });
  return methods;
}

/** The not-found answer: 405 with `Allow` for a known API path asked with another method, else 404. */
export function notFoundAnswer(methods: MethodTable) {
  return (req: FastifyRequest, reply: FastifyReply) => {
    let path = req.url.split('?')[0] ?? '';
    // The router ignores a trailing slash; so does this.
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    const allowed = path.startsWith(API_PREFIX) ? methods.get(path) : undefined;
    if (allowed) return reply.code(405).header('Allow', [...allowed].sort().join(', ')).send({ error: 'Method not allowed' });
    return reply.code(404).send({ error: 'Not found' });
  };
}
