/**
 * The /docs page in a real headless Chromium: it carries Touchline's name and no framework branding,
 * shows the field descriptions of the schemas, lists every endpoint of the OpenAPI document, and a
 * call made from it with a key (Authorize dialog, then Execute) succeeds, all under its CSP.
 *
 * Needs the Debian package `chromium` (/usr/bin/chromium) and the npm package `playwright-core`
 * (loaded dynamically, so the suite still typechecks and runs without it; NODE_PATH works too).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
const STEP_TIMEOUT_MS = 20_000;

/** What the page's elements offer inside `evaluateAll` (the project compiles without the DOM library). */
interface DomElement {
  querySelector(selector: string): DomElement | null;
  getAttribute(name: string): string | null;
  readonly textContent: string | null;
  readonly tagName: string;
}

/** The few parts of playwright-core's API this test uses (the package ships its own types, not installed here). */
interface Locator {
  click(opts?: { timeout?: number }): Promise<void>;
  fill(value: string, opts?: { timeout?: number }): Promise<void>;
  count(): Promise<number>;
  first(): Locator;
  isVisible(): Promise<boolean>;
  textContent(opts?: { timeout?: number }): Promise<string | null>;
  waitFor(opts?: { state?: 'attached' | 'visible' | 'hidden'; timeout?: number }): Promise<void>;
  locator(selector: string): Locator;
  filter(opts: { hasText?: string | RegExp }): Locator;
  evaluateAll<R>(fn: (els: DomElement[]) => R): Promise<R>;
}
interface Page {
  goto(url: string, opts?: { waitUntil?: 'load' | 'domcontentloaded' | 'networkidle'; timeout?: number }): Promise<unknown>;
  locator(selector: string): Locator;
  setDefaultTimeout(ms: number): void;
  on(event: 'pageerror', fn: (err: Error) => void): void;
  on(event: 'console', fn: (msg: { type(): string; text(): string }) => void): void;
  title(): Promise<string>;
}
interface Browser {
  newPage(): Promise<Page>;
  close(): Promise<void>;
}
interface Playwright {
  chromium: { launch(opts: { executablePath: string; args: string[]; headless?: boolean; timeout?: number }): Promise<Browser> };
}

async function loadPlaywright(): Promise<Playwright | null> {
  const name = 'playwright-core';
  try {
    return (await import(name)) as Playwright;
  } catch {
    // ESM resolution ignores NODE_PATH; require honours it, for a copy installed outside the repository.
    try {
      return createRequire(import.meta.url)(name) as Playwright;
    } catch {
      return null;
    }
  }
}

const playwright = await loadPlaywright();
const skip = !existsSync(CHROMIUM)
  ? `${CHROMIUM} is missing (apt-get install chromium)`
  : !playwright?.chromium
    ? 'playwright-core cannot be loaded (add it as a devDependency)'
    : false;

describe('the /docs page in headless Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let base: string;
  const pageErrors: string[] = [];
  // A CSP refusal is only a console message; it would mean a part of the page silently missing.
  const refusals: string[] = [];

  before(async () => {
    if (skip) return;
    t = await startTestApp();
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await playwright!.chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true, timeout: 60_000 });
    page = await browser.newPage();
    page.setDefaultTimeout(STEP_TIMEOUT_MS);
    page.on('pageerror', (err) => pageErrors.push(err.message));
    page.on('console', (msg) => {
      if (/Content Security Policy|Refused to/i.test(msg.text())) refusals.push(msg.text());
    });
    await page.goto(`${base}/docs`, { waitUntil: 'load', timeout: 60_000 });
    await page.locator('.opblock').first().waitFor({ state: 'visible' });
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  test('carries Touchline\'s name and no framework branding', { skip }, async () => {
    assert.match(await page.title(), /^Touchline/);
    assert.match((await page.locator('.info .title').first().textContent()) ?? '', /Touchline API/);
    // Swagger UI's top bar holds its logo; the base layout has none, and nothing on the page names the framework.
    assert.equal(await page.locator('.topbar').count(), 0, 'no top bar');
    const branded = await page.locator('img, a, link[rel~="icon"], svg title').evaluateAll((els) =>
      els
        .map((el) => `${el.tagName} ${el.getAttribute('src') ?? ''} ${el.getAttribute('href') ?? ''} ${el.textContent ?? ''}`)
        .filter((s) => /swagger|fastify|smartbear/i.test(s)),
    );
    assert.deepEqual(branded, []);
    const icons = await page.locator('link[rel~="icon"]').evaluateAll((els) => els.map((el) => el.getAttribute('href') ?? ''));
    assert.ok(icons.length > 0 && icons.every((h) => h.endsWith('/touchline.svg')), icons.join(', '));
    const csp = String((await t.get('/docs/', null)).headers['content-security-policy'] ?? '');
    assert.match(csp, /script-src 'self'(;|$)/, `scripts from this origin only: ${csp}`);
    assert.match(csp, /frame-ancestors 'none'/);
  });

  test('shows the description of a response field', { skip }, async () => {
    const op = page.locator('[id$="-post_v1_get_roi_analysis"]').first();
    await op.locator('.opblock-summary').first().click();
    // The 200 answer opens as its model, each field with the description written in the route's schema.
    const described = op.locator('.responses-wrapper .model-box').filter({ hasText: 'return_on_investment' }).first();
    await described.waitFor({ state: 'visible' });
    const text = (await described.textContent()) ?? '';
    assert.match(text, /Value created ÷ cost/);
    assert.ok(await op.locator('text=Value created ÷ cost').first().isVisible(), 'the description is on screen, not only in the DOM');
    // A request body field too.
    assert.ok(await op.locator('text=omitted means no wage cost').first().isVisible(), 'a body field description is on screen');
  });

  test('lists every endpoint of the OpenAPI document', { skip }, async () => {
    const doc = JSON.parse((await t.get('/v1/openapi.json', null)).body) as { paths: Record<string, Record<string, unknown>> };
    const expected = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.keys(ops).filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m)).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    const listed = (
      await page.locator('.opblock').evaluateAll((els) =>
        els.map((el) => {
          const method = el.querySelector('.opblock-summary-method')?.textContent?.trim() ?? '';
          const pathEl = el.querySelector('.opblock-summary-path');
          const path = pathEl?.getAttribute('data-path') ?? pathEl?.textContent?.replace(/\u200b/g, '').trim() ?? '';
          return `${method.toUpperCase()} ${path}`;
        }),
      )
    ).sort();
    assert.ok(expected.length >= 12, expected.join(', '));
    assert.deepEqual(listed, expected);
    assert.deepEqual(pageErrors, [], 'the page ran without script errors');
  });

  test('a call made from the page is refused without a key and answers 200 once authorized', { skip }, async () => {
    const op = page.locator('[id$="-get_v1_competitions"]').first();
    await op.locator('.opblock-summary').first().click();
    const tryOut = op.locator('button.try-out__btn');
    if ((await tryOut.count()) > 0 && /try it out/i.test((await tryOut.first().textContent()) ?? '')) await tryOut.first().click();

    const execute = async () => {
      await op.locator('button.execute').first().click();
      const status = op.locator('.live-responses-table .response .response-col_status').first();
      await status.waitFor({ state: 'visible' });
      return ((await status.textContent()) ?? '').trim();
    };
    assert.match(await execute(), /^401/, 'without a key the page shows 401');

    // Authorize dialog: the x-api-key scheme.
    await page.locator('.auth-wrapper button.authorize').first().click();
    const dialog = page.locator('.dialog-ux .modal-ux');
    await dialog.first().waitFor({ state: 'visible' });
    const apiKeyForm = dialog.locator('.auth-container').filter({ hasText: 'apiKey' }).first();
    await apiKeyForm.locator('input').first().fill(t.key);
    await apiKeyForm.locator('button.authorize').first().click();
    // Once applied, the form shows the key as authorized and offers Logout instead.
    await apiKeyForm.locator('button').filter({ hasText: 'Logout' }).first().waitFor({ state: 'visible' });
    await dialog.locator('button.close-modal').first().click();
    await dialog.first().waitFor({ state: 'hidden' });

    // The clear button resets the previous answer so the new status is this call's.
    const clear = op.locator('button.btn-clear');
    if ((await clear.count()) > 0) await clear.first().click();
    assert.match(await execute(), /^200/, 'with the key the page shows 200');
    const body = (await op.locator('.live-responses-table .response .response-col_description').first().textContent()) ?? '';
    assert.match(body, /competitions/);
    const curl = (await op.locator('.curl-command').first().textContent()) ?? '';
    assert.ok(curl.includes('x-api-key') && curl.includes(t.key), 'the call carried the key');
    assert.deepEqual(pageErrors, []);
    assert.deepEqual(refusals, [], 'nothing was refused by the page\'s CSP');
  });
});
