/**
 * Touchline Studio served by the API process: `/` is the app with a strict CSP, its assets are served
 * by content hash, and /v1 and /docs answer as before.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Fastify from 'fastify';
import { APP_CSP } from '../../src/http/csp.js';
import { WEB_DIST, webAppRoutes } from '../../src/http/web-app.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

describe('the web app at /', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(async () => t?.close());

  test('/ is the built app with a strict CSP, and its script is served from this origin', async (ctx) => {
    const res = await t.get('/', null);
    if (res.statusCode === 503) return ctx.skip(`${WEB_DIST} is not built (npm run build:web)`);
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.equal(res.headers['content-security-policy'], APP_CSP);
    assert.match(APP_CSP, /script-src 'self'(;|$)/);
    assert.match(APP_CSP, /connect-src 'self'(;|$)/);
    assert.doesNotMatch(APP_CSP, /unsafe-inline|unsafe-eval/);
    // No inline script: every <script> has a src on this origin.
    const scripts = [...res.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.ok(scripts.length >= 1);
    for (const [, attrs, body] of scripts) {
      assert.equal(body.trim(), '');
      assert.match(attrs, /src="\/assets\/[^"]+\.js"/);
    }
    const src = /src="(\/assets\/[^"]+\.js)"/.exec(res.body)![1];
    const js = await t.get(src, null);
    assert.equal(js.statusCode, 200);
    assert.match(String(js.headers['content-type']), /^text\/javascript/);
    assert.match(String(js.headers['cache-control']), /immutable/);
  });

  test('/v1 and /docs are untouched', async () => {
    assert.equal((await t.get('/v1/competitions', null)).statusCode, 401);
    assert.equal((await t.get('/v1/competitions')).statusCode, 200);
    const missing = await t.get('/v1/nowhere');
    assert.equal(missing.statusCode, 404);
    assert.deepEqual(JSON.parse(missing.body), { error: 'Not found' });
    assert.equal((await t.get('/assets/nowhere.js', null)).statusCode, 404);
    assert.equal((await t.get('/docs', null)).statusCode, 200);
  });
});

test('without a build, / says how to build it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tl-web-'));
  try {
    const app = Fastify();
    webAppRoutes(app, join(dir, 'missing'));
    const res = await app.inject({ url: '/' });
    assert.equal(res.statusCode, 503);
    assert.match(res.body, /npm run build:web/);
    await app.close();

    mkdirSync(join(dir, 'dist/assets'), { recursive: true });
    writeFileSync(join(dir, 'dist/index.html'), '<!doctype html><p>hi</p>');
    writeFileSync(join(dir, 'dist/assets/a-123.css'), 'p{}');
    const built = Fastify();
    webAppRoutes(built, join(dir, 'dist'));
    assert.equal((await built.inject({ url: '/' })).body, '<!doctype html><p>hi</p>');
    const css = await built.inject({ url: '/assets/a-123.css' });
    assert.equal(css.headers['content-type'], 'text/css; charset=utf-8');
    assert.equal(css.headers['content-security-policy'], APP_CSP);
    assert.equal((await built.inject({ url: '/index.html' })).statusCode, 404, 'the page has one address');
    await built.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
