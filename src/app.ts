import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, {
  LogController,
  type ConnectionError,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyServerOptions,
} from 'fastify';
import swagger from '@fastify/swagger';
import { jsonSchemaTransform, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';
import { registerAccessCheck } from './http/access-hook.js';
import { registerWorkspaceCheck } from './http/workspace-hook.js';
import { AnswerCache, ANSWERS_KEPT } from './http/answer-cache.js';
import { registerMetrics } from './http/metrics.js';
import { registerDocsPage, withoutSafeIntegerBounds } from './http/docs-page.js';
import { notFoundAnswer, registerStrictParameters } from './http/strict.js';
import type { HttpDeps } from './http/deps.js';
import { ApiError, BODY_NOT_OBJECT, UNEXPECTED } from './http/errors.js';
import { webAppRoutes } from './http/web-app.js';
import { apiRoutes } from './http/routes/index.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Starts a graceful shutdown: /v1/health answers 503 "draining" so a balancer stops sending, and
     * the promise resolves once no request has been in flight for `quietMs` (at most `maxMs`), so
     * requests on accepted connections that a busy process has not read yet are answered, not reset.
     */
    drain(quietMs?: number, maxMs?: number): Promise<void>;
    isDraining(): boolean;
  }
}

export interface AppOptions {
  readonly logger?: FastifyServerOptions['loggerInstance'] | boolean;
  /** How long a request may take to arrive whole (headers and body); default REQUEST_TIMEOUT_MS. */
  readonly requestTimeoutMs?: number;
  /** How long its headers may take to arrive; default HEADERS_TIMEOUT_MS. */
  readonly headersTimeoutMs?: number;
  /** How often Node looks for connections past those limits; default TIMEOUT_CHECK_MS. */
  readonly timeoutCheckMs?: number;
  /** Fastify's trustProxy: whose X-Forwarded-For to believe for `request.ip` (the TRUST_PROXY setting; default loopback). */
  readonly trustProxy?: boolean | string;
}

/** Documented in docs/api.md: headers within 30 s, the whole request within 30 s. */
export const HEADERS_TIMEOUT_MS = 30_000;
export const REQUEST_TIMEOUT_MS = 30_000;
/**
 * Node checks the two limits only every `connectionsCheckingInterval` (30 s by default), so a client
 * sending a byte every few seconds was cut 30 to 60 s in; checked each second, it is cut by 31 s.
 */
export const TIMEOUT_CHECK_MS = 1_000;

/** On every answer: API answers are never cached, sniffed or framed. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  // lower case, as Fastify and Node keep header names: no copy made per request
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};

/** Fastify's own client errors that mean "the body is not a JSON object". */
const BODY_ERRORS = new Set([
  'FST_ERR_CTP_INVALID_MEDIA_TYPE',
  'FST_ERR_CTP_EMPTY_JSON_BODY',
  'FST_ERR_CTP_INVALID_JSON_BODY',
  'FST_ERR_CTP_INVALID_CONTENT_LENGTH',
]);

function toApiError(err: FastifyError): ApiError | null {
  if (err instanceof ApiError) return err;
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new ApiError(413, 'Request body too large');
  if (BODY_ERRORS.has(err.code) || err instanceof SyntaxError) return new ApiError(400, BODY_NOT_OBJECT);
  if (err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500) {
    return new ApiError(err.statusCode, err.statusCode === 404 ? 'Not found' : 'Bad request');
  }
  return null;
}

/** The house answer to an error Node's HTTP parser or timers raise on a connection. */
function clientErrorAnswer(code: string | undefined): { status: number; error: string } {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, error: 'Request timeout' };
  if (code === 'HPE_HEADER_OVERFLOW') return { status: 431, error: 'Request header fields too large' };
  return { status: 400, error: 'Bad request' };
}

/**
 * Fastify's `clientErrorHandler`: these answers go out on the raw socket, before any route or hook
 * (a stalled body, malformed HTTP), so they carry the house shape and headers here. Then the
 * connection is closed, as Node and Fastify do.
 */
function clientErrorHandler(this: FastifyInstance, err: ConnectionError, socket: Socket): void {
  // Reset by the peer or already gone: nobody to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, error } = clientErrorAnswer(err.code);
  this.log.trace({ err }, 'client error');
  // As Node's own handler: once a response has started on this socket, more bytes would corrupt it.
  const started = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage?.headersSent === true;
  if (socket.writable && !started) {
    const body = JSON.stringify({ error });
    const headers: Record<string, string> = {
      ...SECURITY_HEADERS,
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(body)),
      Connection: 'close',
    };
    const head = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${head}\r\n${body}`);
  }
  socket.destroy(err);
}

/** Builds the HTTP app from its parts; tests build it too, without a port. */
export async function buildApp(deps: HttpDeps, opts: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: typeof opts.logger === 'object' ? opts.logger : undefined,
    logger: opts.logger === true ? true : undefined,
    bodyLimit: BODY_LIMIT_BYTES,
    requestTimeout: opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
    connectionTimeout: 60_000,
    http: { connectionsCheckingInterval: opts.timeoutCheckMs ?? TIMEOUT_CHECK_MS },
    trustProxy: opts.trustProxy ?? 'loopback',
    // Request lines are left out: they cost throughput and the access hook knows more.
    logController: new LogController({ disableRequestLogging: true }),
    // One logger for all requests: a child per request costs more than a fast route itself.
    childLoggerFactory: (logger) => logger,
    routerOptions: { ignoreTrailingSlash: true },
    // A path that cannot be decoded names no route; Fastify answers it before hooks run.
    frameworkErrors: (_err, _req, reply) => {
      void (reply as unknown as FastifyReply).code(404).headers(SECURITY_HEADERS).send({ error: 'Not found' });
    },
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();
  // Node drops a stalled request only after both timeouts; its default headersTimeout (60 s) would win.
  app.server.headersTimeout = Math.min(opts.headersTimeoutMs ?? HEADERS_TIMEOUT_MS, opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS);

  // The first failing field, in the order of the route's schema, is the answer.
  app.setValidatorCompiler(({ schema }) => (data) => {
    const result = (schema as ZodType).safeParse(data);
    if (result.success) return { value: result.data };
    return { error: new ApiError(400, result.error.issues[0]?.message ?? 'Bad request') };
  });
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  app.setErrorHandler((err: FastifyError, req, reply) => {
    const known = toApiError(err);
    if (known) {
      reply.headers(known.headers);
      return reply.code(known.status).send(known.body());
    }
    req.log.error({ err, url: req.url, method: req.method }, 'unexpected error');
    return reply.code(500).send({ error: UNEXPECTED });
  });
  // Unknown parameters and wrong methods are judged here, once for every API route.
  app.setNotFoundHandler(notFoundAnswer(registerStrictParameters(app)));

  // One onRequest hook for every request, the security headers first, so every answer carries them,
  // errors included (static docs files set their own caching); then each route's access check.
  let inFlight = 0;
  registerAccessCheck(app, deps);
  // After the access check's hook, so the role is judged once the caller is known.
  registerWorkspaceCheck(app, deps);
  app.addHook('onRequest', (_req, reply, done) => {
    inFlight++;
    reply.headers(SECURITY_HEADERS);
    done();
  });
  app.addHook('onResponse', (_req, _reply, done) => {
    inFlight--;
    done();
  });
  let draining = false;
  app.decorate('isDraining', () => draining);
  app.decorate('drain', async (quietMs = 300, maxMs = 10_000) => {
    draining = true;
    const deadline = Date.now() + maxMs;
    let quietSince = inFlight === 0 ? Date.now() : 0;
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 25));
      if (inFlight > 0) quietSince = 0;
      else if (quietSince === 0) quietSince = Date.now();
      else if (Date.now() - quietSince >= quietMs) return;
    }
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Touchline API',
        version: deps.version,
        description:
          'Football recruitment: reference data on competitions, clubs and players, and valuations (expected fee, value in 3 years, ' +
          'sportive impact, ROI, squad what-ifs, league forecast).\n\n' +
          'Every endpoint but /v1/health and /v1/auth/login needs an API key in `x-api-key` or `Authorization: Bearer`: ' +
          '**Authorize** with the key `npm start` prints, or one made by `POST /v1/auth/login`. Each key may make 60 requests ' +
          'in any rolling 60 seconds. Money is in whole units of the requested currency (default EUR), each amount with an ' +
          '`_in_eur` twin. Errors are `{"error": "…"}`. Open an operation to see every field of its request and answer described.',
      },
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
          bearer: { type: 'http', scheme: 'bearer' },
        },
      },
      security: [{ apiKey: [] }, { bearer: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: (doc) => withoutSafeIntegerBounds('openapiObject' in doc ? doc.openapiObject : doc.swaggerObject),
  });
  await registerDocsPage(app);

  app.decorate('answers', new AnswerCache(ANSWERS_KEPT));
  registerMetrics(app, deps);
  apiRoutes(app, deps);

  app.get('/v1/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
  webAppRoutes(app);
  return app;
}
