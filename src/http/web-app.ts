import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { APP_CSP } from './csp.js';

/** Where `npm run build:web` (run by `npm install`/`npm ci` through `prepare`) writes Touchline Studio. */
export const WEB_DIST = new URL('../../web/dist/', import.meta.url).pathname;

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/**
 * Serves the built web app at `/` from memory: the bundle is small, built once per install, and each
 * file gets its own route so /v1 and /docs keep their own 404s and access rules.
 */
export function webAppRoutes(app: FastifyInstance, dist = WEB_DIST): void {
  const index = join(dist, 'index.html');
  if (!existsSync(index)) {
    app.get('/', { config: { public: true }, schema: { hide: true } }, async (_req, reply) =>
      reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('Touchline Studio is not built. Run `npm run build:web` (npm install runs it) and restart.\n'),
    );
    return;
  }
  for (const file of filesUnder(dist)) {
    const path = '/' + relative(dist, file).split(sep).join('/');
    const body = readFileSync(file);
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    // Vite names every asset by its content hash, so an asset never changes; index.html does.
    const immutable = path.startsWith('/assets/');
    const headers: Record<string, string> = {
      'Content-Type': type,
      'Content-Security-Policy': APP_CSP,
      'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    };
    const route = path === '/index.html' ? '/' : path;
    app.get(route, { config: { public: true }, schema: { hide: true } }, async (_req, reply) => reply.headers(headers).send(body));
  }
}
