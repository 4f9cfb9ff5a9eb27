/** The layers of bench/request-layers.ts, in order: each adds to the one before. */
export const LAYERS = [
  ['bare', 'a bare Fastify route returning the object'],
  ['serialised', '+ the body serialised once, sent as is'],
  ['logger', '+ a pino logger (silent), one for all requests'],
  ['limits', '+ the slow-client limits (request, headers, connection)'],
  ['proxy', '+ trustProxy loopback, trailing slashes ignored'],
  ['hooks', '+ an onRequest and an onResponse hook for every request'],
  ['validation', '+ the query validated by a zod schema'],
  ['headers', '+ 4 security and 3 rate-limit headers, 2 route hooks'],
  ['routes', '+ 60 more routes'],
] as const;
