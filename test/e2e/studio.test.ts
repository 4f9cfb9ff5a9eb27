/**
 * Touchline Studio in a real headless Chromium, on the demo world, as a person walks it: start
 * `touchline serve` (what `npm start` runs) and sign in with the demo login it prints, reach a club
 * through the competitions, run a squad what-if and see the rank move, open the league forecast and
 * its heat map, search a player and see his value chart drawn with data points. Screenshots at
 * 1280x800 and 390x844 go to .cache/screenshots/; axe-core finds no serious or critical violation;
 * the CSP is never hit. The demo account keeps the default limit (60 a minute): the walk must fit in it.
 *
 * The server runs on a copy of the tests' demo-world database (made once per code version), so it
 * starts in seconds instead of generating the world.
 *
 * Needs /usr/bin/chromium (Debian package) and the devDependencies playwright-core and axe-core.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { before, describe } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { ServerProcess } from '../helpers/server-process.js';
import { studioSkip, studioWalk } from '../helpers/studio.js';

const require = createRequire(import.meta.url);

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: unknown[];
}

/** axe-core run inside the page (evaluated through DevTools, so the page's CSP does not stop it). */
async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const source = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(source);
  const result = (await page.evaluate('axe.run(document, { resultTypes: ["violations"] })')) as { violations: AxeViolation[] };
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

describe('Touchline Studio in headless Chromium', { skip: studioSkip }, () => {
  const walk = studioWalk({ name: 'studio', shotPrefix: '', timeoutMs: 60_000 });
  const { step, shoot, problems, apiCalls } = walk;
  let server: ServerProcess;
  let browser: Browser;
  let page: Page;
  let base = '';
  let demoKey = '';
  let demo: { email: string; password: string };
  before(() => {
    ({ server, browser, page, base, demoKey, demo } = walk);
  });

  step('sign in with the printed demo login; the key stays out of the URL', async () => {
    await page.goto(base, { waitUntil: 'load' });
    assert.deepEqual(await axeViolations(page), [], 'sign-in page');
    await shoot('signin');
    await page.getByLabel('Email').fill(demo.email);
    await page.getByLabel('Password').fill(demo.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Competitions' }).waitFor();
    const key = (await page.evaluate('sessionStorage.getItem("touchline.key")')) as string;
    assert.match(key, /^tl_/);
    assert.ok(!page.url().includes(key));
    assert.equal(await page.evaluate('localStorage.length ? JSON.stringify(localStorage).includes(sessionStorage.getItem("touchline.key")) : false'), false);
  });

  let clubUrl = '';
  step('competitions -> clubs -> squad; a what-if moves the expected rank and lives in the URL', async () => {
    await page.locator('.tiles a').first().waitFor();
    assert.deepEqual(await axeViolations(page), [], 'competitions page');
    await page.locator('.tiles a').first().click();
    // The first competition is a league: its page offers the forecast (a cup's does not).
    await page.getByRole('link', { name: 'League forecast' }).waitFor();
    assert.deepEqual(await axeViolations(page), [], 'competition page');
    await page.locator('.tiles a').first().click();
    const rankRow = page.locator('tr[data-measure="Expected league rank"]');
    await rankRow.locator('td.before').waitFor();
    const before = Number(await rankRow.locator('td.before').textContent());
    assert.ok(before >= 1, `actual rank ${before}`);
    // Take the forwards out: the club should expect to finish lower.
    for (let i = 0; i < 5; i++) await page.locator('.squad-list li button.remove').last().click();
    assert.match(page.url(), /remove=/);
    clubUrl = page.url();
    await page.getByRole('button', { name: 'Run what-if' }).click();
    await rankRow.locator('td.after').filter({ hasNotText: '—' }).waitFor();
    const afterRank = Number(await rankRow.locator('td.after').textContent());
    assert.ok(afterRank > before, `rank ${before} -> ${afterRank}`);
    assert.match((await rankRow.locator('td.change').textContent()) ?? '', /^\+/);
    assert.deepEqual(await axeViolations(page), [], 'squad page');
    await shoot('squad');

    // Add a player from another club by name: he joins the squad as new, the URL keeps him, a rerun moves the rank.
    const clubId = /#\/club\/([^?]+)/.exec(page.url())![1];
    const top = (await server.request('/v1/players?limit=10&analysis_available_only=true', { key: demoKey })).json<{ players: Array<{ name: string; club_id: string | null }> }>();
    const star = top.players.find((p) => p.club_id !== clubId)!;
    const find = page.getByRole('combobox', { name: 'Find a player by name' });
    await find.fill(star.name);
    await page.getByRole('option').filter({ hasText: star.name }).first().click();
    await page.locator('.squad-list li.added').filter({ hasText: star.name }).waitFor();
    assert.match(page.url(), /set=/);
    clubUrl = page.url();
    await page.getByRole('button', { name: 'Run what-if' }).click();
    await rankRow.locator('td.after').filter({ hasNotText: String(afterRank) }).filter({ hasNotText: '—' }).waitFor();
  });

  step('the league forecast, from the club page: the table by expected place and the heat map of places', async () => {
    await page.goto(clubUrl, { waitUntil: 'load' });
    const link = page.getByRole('link', { name: /^League forecast/ });
    await link.click();
    await page.getByRole('heading', { name: /^League forecast/ }).waitFor();
    const rows = page.locator('table.forecast-table tbody tr');
    await rows.first().waitFor();
    const n = await rows.count();
    assert.ok(n >= 10, `${n} clubs`);
    const expected = (await page.locator('table.forecast-table td.expected-position').allTextContents()).map(Number);
    assert.deepEqual([...expected].sort((a, b) => a - b), expected, 'ordered by expected place');
    // The heat map: one row per club, one cell per place, each row's chances summing to 100%.
    const heat = page.locator('table.heatmap tbody tr');
    assert.equal(await heat.count(), n);
    const cells = (await page.locator('table.heatmap tbody tr').first().locator('td.cell').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-p'))))) as number[];
    assert.equal(cells.length, n);
    assert.ok(Math.abs(cells.reduce((a, b) => a + b, 0) - 1) < 0.01);
    assert.match((await page.locator('table.forecast-table tbody tr').first().locator('td.num').last().textContent()) ?? '', /^€/);
    // The club we came from is marked.
    const clubId = /#\/club\/([^?]+)/.exec(clubUrl)![1];
    assert.equal(await page.locator('table.forecast-table tr.mine').getAttribute('data-club'), clubId);
    assert.deepEqual(await axeViolations(page), [], 'league forecast');
    await shoot('forecast');
  });

  step('a shared what-if URL opens with its result', async () => {
    const other = await browser.newPage();
    try {
      // A new tab has no key: it asks to sign in, as it should.
      await other.goto(clubUrl, { waitUntil: 'load' });
      await other.getByRole('heading', { name: 'Sign in' }).waitFor();
    } finally {
      await other.close();
    }
    await page.goto(`${base}/`, { waitUntil: 'load' });
    await page.goto(clubUrl, { waitUntil: 'load' });
    const after = page.locator('tr[data-measure="Expected league rank"] td.after');
    await after.filter({ hasNotText: '—' }).waitFor();
  });

  step("search a player and open his page: the value chart is drawn with data points, and the outcome bars", async () => {
    const name = ((await page.locator('.squad-list a').first().textContent()) ?? '').trim();
    const box = page.getByRole('combobox', { name: /Search players/ });
    await box.fill(name);
    await page.getByRole('option').filter({ hasText: name }).first().waitFor();
    await box.press('ArrowDown');
    await box.press('Enter');
    await page.locator('.player-head h1').filter({ hasText: name }).waitFor();
    // Observable Plot draws the chart (a lazily loaded chunk): the model's two points, the market values.
    const model = page.locator('svg.value-chart g.model-points circle');
    await model.first().waitFor();
    assert.equal(await model.count(), 2, "today's expected fee and the value in 3 years");
    const history = page.locator('svg.value-chart g.history-points circle');
    assert.ok((await history.count()) >= 1, 'market values over time');
    // Every point is drawn inside the frame, above the zero line (values are positive).
    const frame = (await page.locator('svg.value-chart').evaluate((svg) => [Number(svg.getAttribute('width')), Number(svg.getAttribute('height'))])) as [number, number];
    const zeroY = frame[1] - 28; // the bottom margin: the x axis
    for (const [cx, cy] of await page.locator('svg.value-chart circle').evaluateAll((els) => els.map((e) => [Number(e.getAttribute('cx')), Number(e.getAttribute('cy'))]))) {
      assert.ok(cx > 0 && cx < frame[0] && cy > 0 && cy < zeroY, `point at ${cx},${cy}`);
    }
    assert.equal(await page.locator('svg.value-chart g.range line').count(), 2, 'two 80% ranges');
    // the outcome chart (the drivers' chart is a bar chart too)
    assert.equal(await page.getByRole('img', { name: /^Probability of each 3-year outcome/ }).locator('g.bars rect').count(), 6);
    await page.locator('.timeline li').first().waitFor();
    // Nothing picked yet: money comes in the account's preferred currency (the demo account has none: EUR), and the picker says which.
    assert.equal(await page.getByLabel('Currency').inputValue(), '');
    await page.getByLabel('Currency').locator('option[value=""]').filter({ hasText: "Account's (EUR)" }).waitFor({ state: 'attached' });
    // Money follows the currency picked at the top.
    assert.match((await page.locator('svg.value-chart g.values text').first().textContent()) ?? '', /^€/);
    await page.getByLabel('Currency').selectOption('GBP');
    await page.locator('svg.value-chart g.values text').filter({ hasText: /^£/ }).first().waitFor();
    await page.getByLabel('Currency').selectOption('EUR');
    await page.locator('svg.value-chart g.values text').filter({ hasText: /^€/ }).first().waitFor();
    assert.deepEqual(await axeViolations(page), [], 'player page');
    await shoot('player');
  });

  step('for my club: a club, a fee and a wage give sportive impact and ROI', async () => {
    const panel = page.locator('section.for-my-club');
    const comp = panel.getByLabel('Competition');
    await comp.locator('option').nth(1).waitFor({ state: 'attached' });
    await comp.selectOption({ index: 1 });
    const club = panel.getByLabel('Club');
    await club.locator('option').nth(1).waitFor({ state: 'attached' });
    await club.selectOption({ index: 1 });
    await panel.getByLabel(/^Fee/).fill('20m');
    await panel.getByLabel(/^Annual wage/).fill('2m');
    await panel.getByRole('button', { name: 'Analyse the signing' }).click();
    await panel.getByText('Return on investment').waitFor();
    assert.match((await panel.locator('.headline dd').textContent()) ?? '', /^\d+\.\d\d×$/);
    await shoot('player-roi');
  });

  step('the scouting list: filters and sort in the URL, sortable table, pages', async () => {
    await page.getByRole('link', { name: 'Scouting', exact: true }).click();
    await page.waitForURL(/#\/scouting/);
    const rows = page.locator('main table tbody tr');
    // the list's first page whole, not a row of the page before it
    await rows.nth(24).waitFor();
    assert.equal(await rows.count(), 25);
    await page.getByLabel('Age to').fill('23');
    await page.getByRole('button', { name: 'Show players' }).click();
    await page.waitForURL(/max_age=23/);
    await page.getByRole('button', { name: /^Age/ }).click();
    await page.waitForURL(/sort=-age/);
    await page.locator('th[aria-sort="descending"]').filter({ hasText: 'Age' }).waitFor();
    await rows.first().waitFor();
    const ages = (await page.locator('main table tbody tr td:nth-child(2)').allTextContents()).map(Number);
    assert.ok(ages.every((a) => a <= 23), ages.join(','));
    assert.deepEqual([...ages].sort((a, b) => b - a), ages, 'oldest first');
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.waitForURL(/cursor=/);
    await rows.first().waitFor();
    assert.deepEqual(await axeViolations(page), [], 'scouting list');
    await shoot('scouting');
  });

  step('when the key has spent its limit, the page says how long to wait', async () => {
    const key = (await page.evaluate('sessionStorage.getItem("touchline.key")')) as string;
    // Spend the rest of the window from outside the browser (the demo plan's own limit, 600, not RATE_LIMIT).
    let status = 0;
    for (let i = 0; i < 1000 && status !== 429; i++) status = (await server.request('/v1/competitions', { key })).status;
    assert.equal(status, 429, 'the key reached its limit');
    await page.getByLabel('Currency').selectOption('CHF');
    await page.locator('.banner').filter({ hasText: /Try again in \d+ s/ }).waitFor();
    const panel = page.getByText(/Too many requests for now: try again in \d+ s\./).first();
    await panel.waitFor();
    // The banner counts down the same wait the panel names (it never adds to it).
    const seconds = async (text: Promise<string | null>) => Number(/in (\d+) s/i.exec((await text) ?? '')?.[1]);
    const banner = await seconds(page.locator('.banner').textContent());
    const named = await seconds(panel.textContent());
    assert.ok(banner > 0 && banner <= named + 1, `banner ${banner} s, panel ${named} s`);
    await shoot('rate-limited');
    await page.getByLabel('Currency').selectOption('EUR');
  });

  step('signing out forgets the key; the walk stayed within the limit and the CSP', async () => {
    assert.ok(apiCalls.length <= 60, `${apiCalls.length} API calls`);
    const signedOutKey = (await page.evaluate('sessionStorage.getItem("touchline.key")')) as string;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    assert.equal(await page.evaluate('sessionStorage.getItem("touchline.key")'), null);
    // The server revoked it (POST /v1/auth/logout), although its rate budget was spent.
    const after = await server.request('/v1/competitions', { key: signedOutKey });
    assert.deepEqual([after.status, after.json()], [401, { error: 'API key is revoked' }]);
    assert.deepEqual(problems, []);
  });
});
