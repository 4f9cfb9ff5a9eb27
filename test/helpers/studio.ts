/**
 * The browser walks' shared set-up: `touchline serve` on a copy of the tests' demo-world database,
 * the demo login and key it prints, headless Chromium on it with the page's errors and API calls
 * recorded, and a `step` that keeps what the person would have seen when it fails (a screenshot, the
 * page's address and text, the last API calls and the server's last lines). Call `studioWalk` inside
 * a `describe`: it registers the before/after hooks and hands out what they made.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { WEB_DIST } from '../../src/http/web-app.js';
import { demoDataDir } from './app.js';
import { startServerProcess, waitFor, type ServerProcess } from './server-process.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
export const SHOTS = new URL('../../.cache/screenshots/', import.meta.url).pathname;

const playwright = await import('playwright-core').catch(() => null);

/** Why the walk cannot run here, or false. */
export const studioSkip: string | false = !existsSync(CHROMIUM)
  ? `${CHROMIUM} is missing (apt-get install chromium)`
  : !playwright
    ? 'playwright-core cannot be loaded'
    : !existsSync(join(WEB_DIST, 'index.html'))
      ? 'the web app is not built (npm run build:web)'
      : false;

export interface WalkOptions {
  /** the server's name in messages, and the data folder's prefix */
  name: string;
  /** put before every screenshot's name */
  shotPrefix: string;
  /** playwright's default wait */
  timeoutMs: number;
  acceptDownloads?: boolean;
  /** a pause before each screenshot, for transitions */
  settleMs?: number;
  /** runs after the set-up, before the first step */
  prepare?: (walk: StudioWalk) => Promise<void>;
}

export interface StudioWalk {
  readonly server: ServerProcess;
  readonly page: Page;
  readonly browser: Browser;
  readonly base: string;
  /** the demo API key the start printed (for the test's own requests, never the browser's) */
  readonly demoKey: string;
  readonly demo: { email: string; password: string };
  /** the served database's folder, for the operator's commands (they reach the server over its admin socket) */
  readonly dataDir: string;
  /** page errors and console errors seen so far */
  readonly problems: string[];
  /** `METHOD /v1/...` of every API call the page made */
  readonly apiCalls: string[];
  step(name: string, fn: () => Promise<void>): void;
  /** Desk and phone shots; the page must not scroll sideways on either. */
  shoot(name: string): Promise<void>;
}

export function studioWalk(o: WalkOptions): StudioWalk {
  let server: ServerProcess;
  let dataDir = '';
  let browser: Browser;
  let page: Page;
  let demoKey = '';
  let demo = { email: '', password: '' };
  const problems: string[] = [];
  const apiCalls: string[] = [];

  const walk: StudioWalk = {
    get server() {
      return server;
    },
    get page() {
      return page;
    },
    get browser() {
      return browser;
    },
    get base() {
      return server.url;
    },
    get demoKey() {
      return demoKey;
    },
    get demo() {
      return demo;
    },
    get dataDir() {
      return dataDir;
    },
    problems,
    apiCalls,
    step: (name, fn) =>
      test(name, async () => {
        try {
          await fn();
        } catch (err) {
          const slug = name.replace(/[^a-z0-9]+/gi, '-').slice(0, 40);
          await page.screenshot({ path: join(SHOTS, `failed-${o.shotPrefix}${slug}.png`), fullPage: true }).catch(() => {});
          const text = await page.evaluate('document.body.innerText').catch((e: unknown) => `(no text: ${String(e)})`);
          console.log(
            [`step failed: ${name}`, `page: ${page.url()}`, `text: ${String(text).slice(0, 1500)}`, `last API calls: ${apiCalls.slice(-10).join(', ')}`, `server: ${server.output().slice(-3000)}`].join('\n'),
          );
          throw err;
        }
      }),
    shoot: async (name) => {
      for (const [label, viewport] of [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]] as const) {
        await page.setViewportSize(viewport);
        if (o.settleMs) await page.waitForTimeout(o.settleMs);
        await page.screenshot({ path: join(SHOTS, `${o.shotPrefix}${name}-${label}.png`), fullPage: true });
        const width = (await page.evaluate('document.documentElement.scrollWidth')) as number;
        assert.ok(width <= viewport.width, `${name} fits ${viewport.width} px wide (is ${width})`);
      }
      await page.setViewportSize({ width: 1280, height: 800 });
    },
  };

  before(async () => {
    dataDir = await demoDataDir(`touchline-${o.name}-`);
    server = await startServerProcess({ name: o.name, env: { TOUCHLINE_DATA_DIR: dataDir, RATE_LIMIT: '60', LOG_LEVEL: 'warn' } });
    // Read as a person reads the start's output.
    const printed = await waitFor('the printed demo login', async () => /^Demo login: (\S+) \/ (\S+)$/m.exec(server.output()) ?? undefined, { timeoutMs: 30_000 });
    demo = { email: printed[1], password: printed[2] };
    demoKey = /^Demo API key: (\S+)$/m.exec(server.output())![1];
    browser = await playwright!.chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true, timeout: 60_000 });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 }, acceptDownloads: o.acceptDownloads ?? false });
    page.setDefaultTimeout(o.timeoutMs);
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error' && !/Failed to load resource/.test(msg.text())) problems.push(`console: ${msg.text()}`);
    });
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.pathname.startsWith('/v1/')) apiCalls.push(`${req.method()} ${url.pathname}`);
    });
    mkdirSync(SHOTS, { recursive: true });
    await o.prepare?.(walk);
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  return walk;
}
