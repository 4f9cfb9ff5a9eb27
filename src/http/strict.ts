import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './errors.js';

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

interface Known {
  /** null: the route takes no query parameters */
  query: ReadonlySet<string> | null;
  /** null: the route's body is not an object schema, so it is not checked here */
  body: ReadonlySet<string> | null;
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
  const known = new Map<string, Known>();
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(API_PREFIX)) return;
    const list = Array.isArray(route.method) ? route.method : [route.method];
    let set = methods.get(route.url);
    if (!set) methods.set(route.url, (set = new Set()));
    for (const m of list) set.add(m);
    if (list.includes('GET')) set.add('HEAD');
    const schema = route.schema as { querystring?: unknown; body?: unknown; hide?: boolean } | undefined;
    if (schema?.hide) return;
    const entry: Known = { query: schema?.querystring ? fieldsOf(schema.querystring) : NONE, body: schema?.body ? fieldsOf(schema.body) : null };
    for (const m of list) known.set(`${m} ${route.url}`, entry);
    if (list.includes('GET')) known.set(`HEAD ${route.url}`, entry);
  });
  // a callback hook, not an async one: no promise and microtask on every request
  app.addHook('preValidation', (req: FastifyRequest, _reply, done) => {
    const url = req.routeOptions.url;
    const k = url ? known.get(`${req.method} ${url}`) : undefined;
    const name = k ? ((k.query && firstUnknown(req.query, k.query)) ?? (k.body && firstUnknown(req.body, k.body)) ?? null) : null;
    done(name === null ? undefined : new ApiError(400, `Unknown parameter: ${name}`));
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
