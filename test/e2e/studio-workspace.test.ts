/**
 * Studio II (issue 34) in headless Chromium on the demo world, by the accessible names a scout's
 * browser check uses: the navigation, sign-in alerts, the shortlist kept across sign-ins and exported
 * as CSV, two players compared with a chart, a recommendation table with links, the squad's figures
 * and depth chart, the forecast's zones, the scouting form in the address (Back and Forward), tab
 * titles, the phone menu. Every page is shot at 1280x800 and 390x844 into .cache/screenshots/ and
 * must fit the width; no console error, no CSP report. The demo plan's own limit (600 a minute)
 * holds the walk; the count is checked at the end.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe } from 'node:test';
import type { Page } from 'playwright-core';
import { runCli, waitFor, type ServerProcess } from '../helpers/server-process.js';
import { SHOTS, studioSkip, studioWalk } from '../helpers/studio.js';

const NAV = ['Search', 'Scouting', 'Recommend', 'Shortlist', 'Lists', 'Compare', 'Squad', 'Forecast', 'Accuracy'];

interface Listed {
  service_id: string;
  name: string;
  club_id: string | null;
  competition: string | null;
}

describe('Touchline Studio II: a scout\'s workspace', { skip: studioSkip }, () => {
  let players: Listed[] = [];
  const walk = studioWalk({
    name: 'studio2',
    shotPrefix: 'ws-',
    timeoutMs: 20_000,
    acceptDownloads: true,
    settleMs: 150,
    prepare: async (w) => {
      players = (await w.server.request('/v1/players?limit=12&analysis_available_only=true', { key: w.demoKey })).json<{ players: Listed[] }>().players;
    },
  });
  const { step, shoot, problems, apiCalls } = walk;
  let server: ServerProcess;
  let page: Page;
  let base = '';
  let demoKey = '';
  let demo: { email: string; password: string };
  before(() => {
    ({ server, page, base, demoKey, demo } = walk);
  });

  const signIn = async () => {
    await page.getByLabel('Email').fill(demo.email);
    await page.getByLabel('Password').fill(demo.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
  };
  const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });

  step('sign-in errors are alerts and keep the sign-in view: a wrong password, a wrong key, a revoked key', async () => {
    await page.goto(base, { waitUntil: 'load' });
    assert.equal(await page.title(), 'Sign in · Touchline Studio');
    await page.getByLabel('Email').fill(demo.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: /not valid/ }).waitFor();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();

    await page.getByRole('textbox', { name: 'API key', exact: true }).fill('tl_not_a_real_key_at_all');
    await page.getByRole('button', { name: 'Use this key' }).click();
    await page.getByRole('alert').filter({ hasText: /API key is not valid: Invalid API key/ }).waitFor();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();

    const login = (await server.request('/v1/auth/login', { method: 'POST', body: { email: demo.email, password: demo.password } })).json<{ api_key: string }>();
    assert.equal((await server.request('/v1/auth/logout', { method: 'POST', key: login.api_key })).status, 204);
    await page.getByRole('textbox', { name: 'API key', exact: true }).fill(login.api_key);
    await page.getByRole('button', { name: 'Use this key' }).click();
    await page.getByRole('alert').filter({ hasText: /revoked/ }).waitFor();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    assert.equal(await page.evaluate('sessionStorage.getItem("touchline.key")'), null);
    await shoot('signin-error');
    await signIn();
  });

  step('the navigation: nine named links, each page with its own tab title', async () => {
    for (const name of NAV) await nav(name).waitFor();
    const titles: string[] = [];
    for (const name of NAV) {
      await nav(name).click();
      await page.locator('main h1').first().waitFor();
      // The page's CSP forbids evaluated strings, so the title is polled from here.
      await waitFor('the new tab title', async () => ((await page.title()) !== (titles.at(-1) ?? '') ? true : undefined), { timeoutMs: 10_000 });
      titles.push(await page.title());
      assert.equal(await nav(name).getAttribute('aria-current'), 'page', name);
    }
    assert.equal(new Set(titles).size, NAV.length, titles.join(' | '));
    assert.ok(titles.every((t) => t.endsWith('· Touchline Studio')), titles.join(' | '));
  });

  step('on a phone the header is one compact band, its menu opens the links', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const header = await page.locator('header.top').boundingBox();
    assert.ok(header && header.height <= 70, `header ${header?.height} px high`);
    const menu = page.getByRole('button', { name: 'Menu' });
    assert.equal(await menu.getAttribute('aria-expanded'), 'false');
    assert.equal(await nav('Shortlist').isVisible(), false);
    await menu.click();
    await nav('Shortlist').waitFor();
    await page.screenshot({ path: join(SHOTS, 'ws-menu-open-phone.png') });
    await nav('Search').click();
    assert.equal(await menu.getAttribute('aria-expanded'), 'false');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  const first = () => players[0];
  step('player page: Add to shortlist then Remove from shortlist, a note, similar players one row per man', async () => {
    await page.goto(`${base}/#/player/${first().service_id}`, { waitUntil: 'load' });
    await page.locator('.player-head h1').filter({ hasText: first().name }).waitFor();
    assert.equal(await page.title(), `${first().name} · Touchline Studio`);
    await page.getByLabel('Note').fill('Watch him in March');
    await page.getByRole('button', { name: 'Add to shortlist' }).click();
    await page.getByRole('button', { name: 'Remove from shortlist' }).waitFor();
    await page.getByRole('button', { name: 'Remove from shortlist' }).click();
    await page.getByRole('button', { name: 'Add to shortlist' }).waitFor();
    await page.getByRole('button', { name: 'Add to shortlist' }).click();
    await page.getByRole('button', { name: 'Remove from shortlist' }).waitFor();
    await page.locator('svg.bar-chart').first().waitFor();
    // The future value's drivers, drawn, and the sum they make with the baseline.
    await page.getByRole('heading', { name: 'What drives the value in 3 years' }).waitFor();
    await page.locator('.drivers svg.bar-chart g.bars rect').first().waitFor();
    assert.match((await page.locator('.drivers-sum').textContent()) ?? '', /^Baseline .+×\d\.\d\d \(age\).* = ×\d\.\d\d → .+\(median .+\)$/);
    // The fee's warnings (the same question the page asks), each shown as a note under "Warnings".
    const fee = (await server.request(`/v1/expected_transfer_value?player_id=${first().service_id}`, { key: demoKey })).json<{ warnings: { message: string }[] }>();
    const notes = (await page.locator('.warnings [role=note]').allTextContents()).map((t) => t.trim());
    for (const w of fee.warnings) assert.ok(notes.includes(w.message), `warning shown: ${w.message}`);
    if (notes.length > 0) await page.getByRole('heading', { name: 'Warnings' }).first().waitFor();
    for (const region of ['Players like him', 'Comparable players in the history']) {
      const cells = page.getByRole('region', { name: region }).locator('tbody tr > :first-child');
      await cells.first().waitFor();
      const names = await cells.allTextContents();
      assert.equal(new Set(names).size, names.length, `${region}: no man twice: ${names.join(', ')}`);
    }
    await shoot('player');
  });

  step('the shortlist page: the server\'s list with its figures, found again after signing out and in; Export CSV', async () => {
    // A second player, added through the API as another client would.
    assert.equal((await server.request('/v1/shortlist', { method: 'POST', key: demoKey, body: { player_id: players[1].service_id, note: 'fast, "left" foot' } })).status, 200);
    await nav('Sign out').or(page.getByRole('button', { name: 'Sign out' })).first().click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn();
    await nav('Shortlist').click();
    const rows = page.locator('table.shortlist-table tbody tr');
    await rows.nth(1).waitFor();
    assert.equal(await rows.count(), 2);
    // Newest first: the one added through the API.
    assert.equal((await rows.first().locator('th').textContent())?.trim(), players[1].name);
    const headers = await page.locator('table.shortlist-table thead th').allTextContents();
    for (const h of ['Age', 'Position', 'Club', 'Contract end', 'Expected fee', 'Value in 3 years']) assert.ok(headers.some((x) => x.includes(h)), h);
    await rows.first().locator('td').nth(4).filter({ hasText: /€|–/ }).waitFor();
    // Sortable: by name, ascending.
    await page.getByRole('button', { name: 'Player' }).click();
    const sorted = (await rows.locator('th').allTextContents()).map((s) => s.trim());
    assert.deepEqual(sorted, [...sorted].sort((a, b) => a.localeCompare(b)));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    assert.equal(download.suggestedFilename(), 'shortlist.csv');
    const csv = readFileSync((await download.path())!, 'utf8').trim().split(/\r\n/);
    assert.equal(csv.length, 3, csv.join('\n'));
    assert.match(csv[0], /^name,position,age,club,contract_end,fee_eur,future_value_eur,note,added_at,player_id$/);
    assert.ok(csv.some((l) => l.includes('"fast, ""left"" foot"')), 'a note with a comma and quotes stays one cell');
    await shoot('shortlist');
  });

  step('Lists: an organisation made by the operator, a scout\'s list as a board; status, note, filters, CSV; members and activity; the shadow squad', async () => {
    const env = { TOUCHLINE_DATA_DIR: walk.dataDir };
    const scout = 'scout@studio.example';
    await runCli(['accounts', 'create', '--email', scout, '--plan', 'demo'], env);
    const scoutKey = JSON.parse((await runCli(['keys', 'create', '--email', scout, '--json'], env)).stdout).api_key as string;
    await runCli(['orgs', 'create', '--name', 'Studio FC', '--owner', demo.email], env);
    const added = JSON.parse((await runCli(['orgs', 'add-member', '--name', 'Studio FC', '--email', scout, '--role', 'scout', '--json'], env)).stdout);
    assert.deepEqual(added.members.map((m: { role: string }) => m.role).sort(), ['owner', 'scout']);
    const list = (await server.request('/v1/lists', { method: 'POST', key: scoutKey, body: { name: 'Wingers' } })).json<{ list_id: number }>();
    const [a, b] = players;
    assert.equal((await server.request('/v1/lists/entries', { method: 'POST', key: scoutKey, body: { list_id: list.list_id, player_id: a.service_id, note: 'two good feet' } })).status, 200);
    assert.equal((await server.request('/v1/lists/entries', { method: 'POST', key: scoutKey, body: { list_id: list.list_id, player_id: b.service_id, status: 'offer' } })).status, 200);

    await nav('Lists').click();
    await page.getByRole('link', { name: 'Wingers' }).click();
    const column = (status: string) => page.getByRole('region', { name: status, exact: true });
    await column('watching').getByRole('article', { name: a.name }).waitFor();
    await column('offer').getByRole('article', { name: b.name }).waitFor();
    await page.locator('.notes').getByText('two good feet').waitFor();
    // The owner moves him on and writes a note: both kept by the server.
    await page.getByLabel(`Status of ${a.name}`).selectOption('scouted');
    await column('scouted').getByRole('article', { name: a.name }).waitFor();
    await page.getByLabel(`Note on ${a.name}`).fill('seen him live');
    await page.getByRole('article', { name: a.name }).getByRole('button', { name: 'Add note' }).click();
    await page.locator('.notes').getByText('seen him live').waitFor();
    const stored = (await server.request(`/v1/lists/entries?list_id=${list.list_id}`, { key: scoutKey })).json<{ entries: { player_id: string; status: string; notes: { author: string; text: string }[] }[] }>();
    const mine = stored.entries.find((e) => e.player_id === a.service_id)!;
    assert.equal(mine.status, 'scouted');
    assert.deepEqual(mine.notes.map((n) => [n.author, n.text]), [[scout, 'two good feet'], [demo.email, 'seen him live']]);
    // Filters: by status, then by author.
    await page.getByLabel('Filter by status').selectOption('offer');
    await waitFor('one card', async () => ((await page.locator('.board-card').count()) === 1 ? true : undefined), { timeoutMs: 5_000 });
    await page.getByLabel('Filter by status').selectOption('');
    await page.getByLabel('Filter by author').selectOption(demo.email);
    await waitFor('his card alone', async () => ((await page.locator('.board-card').count()) === 1 ? true : undefined), { timeoutMs: 5_000 });
    await page.getByLabel('Filter by author').selectOption('');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    assert.equal(download.suggestedFilename(), 'Wingers.csv');
    const csv = readFileSync((await download.path())!, 'utf8').trim().split(/\r\n/);
    assert.equal(csv[0], 'name,status,added_by,added_at,notes,player_id');
    assert.equal(csv.length, 3, csv.join('\n'));
    // Members and activity: the owner manages, the feed names the scout and the owner.
    await page.getByRole('heading', { name: 'Members of Studio FC' }).waitFor();
    await page.getByLabel(`Role of ${scout}`).waitFor();
    await page.locator('.activity li').filter({ hasText: 'seen him live' }).waitFor();
    await shoot('lists');
    // From a player's page, onto the shared list.
    await page.goto(`${base}#/player/${players[2].service_id}`);
    await page.getByLabel('List to add him to').selectOption({ label: 'Wingers' });
    await page.getByRole('button', { name: 'Add to list' }).click();
    await page.getByRole('status').filter({ hasText: 'On Wingers as watching.' }).waitFor();
    const onList = (await server.request(`/v1/lists/entries?list_id=${list.list_id}`, { key: scoutKey })).json<{ entries: { player_id: string; added_by: string }[] }>().entries;
    assert.deepEqual(onList.find((e) => e.player_id === players[2].service_id)?.added_by, demo.email);
    await page.goto(`${base}#/lists`);

    const club = (await server.request('/v1/squad_analysis', { method: 'POST', key: demoKey, body: { club_id: a.club_id! } })).json<{ squad: { player_id: string }[] }>();
    const target = players.find((p) => p.club_id !== a.club_id)!;
    const saved = await server.request('/v1/org/shadow_squad', {
      method: 'PUT',
      key: scoutKey,
      body: { club_id: a.club_id, sell: [{ player_id: club.squad[0].player_id, asking_fee: 5_000_000 }], targets: [{ player_id: target.service_id, fee: 9_000_000, annual_wage: 1_000_000 }] },
    });
    assert.equal(saved.status, 200, saved.text);
    await page.getByRole('link', { name: 'Shadow squad' }).click();
    await page.getByRole('heading', { name: 'Planned squad by position' }).waitFor();
    await page.locator('.depth-names .signing').filter({ hasText: target.name }).waitFor();
    await page.getByText('Wages, 3 years').waitFor();
    await page.locator('dl.facts dd').filter({ hasText: '→' }).waitFor();
    await shoot('shadow-squad');
  });

  step('compare: "Add player" finds by name; two players side by side, named columns, a chart', async () => {
    await nav('Compare').click();
    for (const p of players.slice(0, 2)) {
      const box = page.getByRole('combobox', { name: 'Add player' });
      await box.fill(p.name);
      await page.getByRole('option').filter({ hasText: p.name }).first().click();
      await page.getByRole('columnheader', { name: new RegExp(p.name) }).waitFor();
    }
    assert.match(page.url(), /players=P[0-9A-Z]{26}%2CP|players=P[0-9A-Z]{26},P/);
    assert.equal(await page.locator('table.compare-table thead th').count(), 2);
    await page.locator('svg.bar-chart g.bars rect').first().waitFor();
    assert.ok((await page.locator('svg.bar-chart').count()) >= 3);
    await shoot('compare');
  });

  step('recommend: Club, Position, Budget, Max age, Recommend: a table whose rows link to the players, with reasons', async () => {
    await nav('Recommend').click();
    const comp = page.getByLabel('Competition');
    await comp.locator('option').nth(1).waitFor({ state: 'attached' });
    await comp.selectOption({ index: 1 });
    const club = page.getByLabel('Club');
    await club.locator('option').nth(1).waitFor({ state: 'attached' });
    await club.selectOption({ index: 1 });
    await page.getByLabel('Position').selectOption('CB');
    await page.getByLabel('Budget').fill('50000000');
    await page.getByLabel('Max age').fill('30');
    await page.getByRole('button', { name: 'Recommend' }).click();
    const rows = page.locator('table.recommend-table tbody tr');
    await rows.first().waitFor({ timeout: 120_000 });
    const href = await rows.first().getByRole('link').getAttribute('href');
    assert.match(href ?? '', /^#\/player\/P/);
    // The API's reasons, one item each, and the net value created.
    const reasons = await rows.first().locator('td.reasons li').allTextContents();
    assert.ok(reasons.length >= 1 && reasons.length <= 3, reasons.join(' | '));
    assert.match(reasons[0], /^Expected to start \d+% of the club's league matches next season\.$/);
    const headers = await page.locator('table.recommend-table thead th').allTextContents();
    assert.ok(headers.includes('Net value'), headers.join(', '));
    assert.match((await rows.first().locator('td.num').nth(3).textContent()) ?? '', /\d/);
    // The season's warning (every candidate carries it) is said once, above the table, not in each row.
    const seasonNote = page.locator('[data-code="season_clubs_assumed"]');
    assert.equal(await seasonNote.count(), 1);
    assert.equal(await page.locator('table.recommend-table [data-code="season_clubs_assumed"]').count(), 0);
    await shoot('recommend');
  });

  step('squad: the players with Age, Value, Contract, Rating, a depth chart, the what-if kept', async () => {
    const clubId = players.find((p) => p.club_id)!.club_id!;
    await page.goto(`${base}/#/club/${clubId}`, { waitUntil: 'load' });
    const table = page.locator('table.squad-table');
    await table.locator('tbody tr').first().waitFor();
    for (const name of ['Age', 'Value', 'Contract', 'Rating']) await table.getByRole('columnheader', { name, exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Depth chart' }).waitFor();
    assert.ok((await page.locator('.depth-line li').count()) >= 4);
    await page.getByRole('button', { name: 'Run what-if' }).waitFor();
    await page.locator('.squad-list li').first().waitFor();
    await shoot('squad');
  });

  step('forecast: the title, European and Relegation places are marked', async () => {
    const league = players.find((p) => p.competition)!.competition!;
    await page.goto(`${base}/#/forecast/${encodeURIComponent(league)}`, { waitUntil: 'load' });
    const rows = page.locator('table.forecast-table tbody tr');
    await rows.first().waitFor();
    const n = await rows.count();
    assert.equal((await rows.first().locator('td.zone').textContent())?.trim(), 'Title');
    assert.equal((await rows.nth(1).locator('td.zone').textContent())?.trim(), 'European places');
    assert.equal((await rows.nth(n - 1).locator('td.zone').textContent())?.trim(), 'Relegation');
    assert.ok((await page.locator('tr.zone-relegation').count()) >= 2);
    await shoot('forecast');
  });

  step('accuracy: each model\'s figures in plain sentences, the fee by band beside the crowd, the range coverage, the match calibration plot', async () => {
    await nav('Accuracy').click();
    await page.getByRole('heading', { name: 'Expected transfer fee' }).waitFor();
    for (const name of ['Value in three years', 'Match model', 'League forecast', 'Ratings']) await page.getByRole('heading', { name }).waitFor();
    const sentences = await page.locator('.accuracy .sentence').allTextContents();
    assert.ok(sentences.some((t) => /band our fee is off by a median \d+%, the crowd's value by \d+%/.test(t)), sentences.join(' | '));
    assert.ok(sentences.some((t) => /ranked probability score is 0\.\d{4}, Elo with Poisson goals 0\.\d{4}/.test(t)), sentences.join(' | '));
    await page.getByRole('img', { name: /^Calibration: predicted against observed/ }).waitFor();
    assert.ok((await page.locator('table.coverage').count()) >= 3);
    await shoot('accuracy');
  });

  step('scouting: value, expected fee, contract, club, several positions; the state in the URL, Back and Forward', async () => {
    await nav('Scouting').click();
    await page.locator('main table tbody tr').first().waitFor();
    await page.getByRole('checkbox', { name: 'CB' }).check();
    await page.getByRole('checkbox', { name: 'LB' }).check();
    await page.getByLabel(/^Value from/).fill('1000000');
    await page.getByLabel(/^Expected fee at most/).fill('80000000');
    await page.getByLabel('Contract ends by').fill('2030-06-30');
    await page.getByRole('button', { name: 'Show players' }).click();
    await page.waitForURL(/position=CB%2CLB/);
    assert.match(page.url(), /min_market_value=1000000/);
    assert.match(page.url(), /contract_expires_before=2030-06-30/);
    await page.locator('main table tbody tr').first().waitFor();
    const positions = await page.locator('main table tbody tr td:nth-last-child(2)').allTextContents();
    assert.ok(positions.length > 0 && positions.every((p) => p === 'CB' || p === 'LB'), positions.join(','));
    const comp = page.locator('main form').getByLabel('Competition');
    await comp.selectOption({ index: 1 });
    const club = page.locator('main form').getByLabel('Club');
    await club.locator('option').nth(1).waitFor({ state: 'attached' });
    await club.selectOption({ index: 1 });
    await page.getByRole('button', { name: 'Show players' }).click();
    await page.waitForURL(/club_id=C/);
    await page.goBack();
    await page.waitForURL((u) => !u.hash.includes('club_id'));
    assert.equal(await page.getByRole('checkbox', { name: 'LB' }).isChecked(), true);
    assert.equal(await page.locator('main form').getByLabel('Club').inputValue(), '');
    await page.goForward();
    await page.waitForURL(/club_id=C/);
    await waitFor('the club picked again', async () => ((await page.locator('main form').getByLabel('Club').inputValue()) !== '' ? true : undefined), { timeoutMs: 10_000 });
    await shoot('scouting');
  });

  step('the other pages fit a phone; no console error; the walk stayed within the plan\'s limit', async () => {
    for (const name of ['Search', 'Squad', 'Forecast', 'Accuracy']) {
      await nav(name).click();
      await page.locator('main h1').first().waitFor();
      await shoot(`nav-${name.toLowerCase()}`);
    }
    assert.ok(apiCalls.length <= 600, `${apiCalls.length} API calls`);
    assert.ok(apiCalls.includes('DELETE /v1/shortlist'));
    assert.ok(apiCalls.includes('POST /v1/auth/logout'));
    assert.deepEqual(problems, []);
  });
});
