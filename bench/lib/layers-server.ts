/**
 * The server side of bench/request-layers.ts: one bare Fastify instance per layer, in one process,
 * each adding one more of the things a Touchline request pays for to the one before, all answering
 * the same player_info-sized body. Prints `READY {"<layer>": url, ...}`.
 */
import Fastify, { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import pino from 'pino';
import { z } from 'zod';
import { SECURITY_HEADERS } from '../../src/app.js';
import { LAYERS } from './layers.js';

const body = {
  service_id: 'P0123456789ABCDEFGHJKMNPQRS', player_role: 'Ball-playing defender', position: 'CB', nationality: 'England', age: 27,
  agency_name: 'CAA Base', contract_end_date: '2028-06-30', preferred_foot: 'Right', owning_club_id: 'C0123456789ABCDEFGHJKMNPQRS',
  last_active_club_id: 'C0123456789ABCDEFGHJKMNPQRS', current_team_id: 'C0123456789ABCDEFGHJKMNPQRS', registry_a_id: 123456, registry_b_id: 234567,
};
const json = JSON.stringify(body);
const asIs = (x: unknown) => x as string;
// src/app.ts's options
const LOGGER = { loggerInstance: pino({ level: 'silent' }), childLoggerFactory: <T>(l: T) => l, logController: new LogController({ disableRequestLogging: true }) };
const LIMITS = { requestTimeout: 30_000, connectionTimeout: 60_000, http: { connectionsCheckingInterval: 1_000 } };
const PROXY = { trustProxy: 'loopback', routerOptions: { ignoreTrailingSlash: true } };
const query = z.object({ player_id: z.string().regex(/^P[0-9A-Za-z]{26}$/) });
type Done = (err?: Error) => void;

const urls: Record<string, string> = {};
for (let level = 0; level < LAYERS.length; level++) {
  const has = (name: (typeof LAYERS)[number][0]) => LAYERS.findIndex(([n]) => n === name) <= level;
  const app = Fastify({ ...(has('logger') ? LOGGER : {}), ...(has('limits') ? LIMITS : {}), ...(has('proxy') ? PROXY : {}) } as object);
  if (has('validation')) {
    app.setValidatorCompiler(({ schema }) => (data) => {
      const r = (schema as z.ZodType).safeParse(data);
      return r.success ? { value: r.data } : { error: new Error('Bad request') };
    });
  }
  if (has('hooks')) {
    app.addHook('onRequest', (_req, reply, done) => {
      if (has('headers')) reply.headers(SECURITY_HEADERS);
      done();
    });
    app.addHook('onResponse', (_req, _reply, done) => done());
  }
  const routeHooks = has('headers')
    ? {
      onRequest: (_req: FastifyRequest, reply: FastifyReply, done: Done) => {
        reply.header('ratelimit-limit', '60').header('ratelimit-remaining', '59').header('ratelimit-reset', '12');
        done();
      },
      preValidation: (_req: FastifyRequest, _reply: FastifyReply, done: Done) => done(),
    }
    : {};
  app.get('/cpu', async () => process.cpuUsage());
  app.get('/layer', { ...routeHooks, ...(has('validation') ? { schema: { querystring: query } } : {}) }, has('serialised')
    ? async (_req, reply) => reply.type('application/json; charset=utf-8').serializer(asIs).send(json)
    : async () => body);
  if (has('routes')) for (let i = 0; i < 60; i++) app.post(`/v1/route_${i}`, async () => ({ i }));
  urls[LAYERS[level][0]] = await app.listen({ port: 0, host: '127.0.0.1' });
}
process.stdout.write(`READY ${JSON.stringify(urls)}\n`);
