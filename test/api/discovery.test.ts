import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createAccount } from '../../src/access/accounts.js';
import { createKey } from '../../src/access/keys.js';
import { createPlan } from '../../src/access/plans.js';
import { compactName, nameTokens } from '../../src/discovery/fold.js';
import { playerFacts } from '../../src/domain/player-facts.js';
import { SORT_KEYS } from '../../src/discovery/list-index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const json = (res: { body: string }) => JSON.parse(res.body);
let t: TestApp;

interface Item {
  service_id: string;
  name: string;
  age: number | null;
  position: string;
  player_role: string;
  nationality: string;
  club_id: string | null;
  club_name: string | null;
  competition: string | null;
  contract_end_date: string | null;
  market_value: number | null;
  market_value_in_eur: number | null;
  expected_transfer_value: number | null;
  expected_transfer_value_in_eur: number | null;
  rating: number | null;
  potential: number | null;
  analysis_available: boolean;
}

/** The one-league plan: the first league by id; `other` is another league. */
let limited: string;
let covered: string;
let other: string;
let everyone: Item[];

/** The scouting list holds the players at a club at the as-of date (retired and departed players are reference only). */
function playersAtAClub(): number {
  const s = t.runtime.world.current();
  return [...s.players.values()].filter((p) => playerFacts(s, p).inWorldNow).length;
}

async function walk(query: string, key?: string): Promise<{ items: Item[]; total: number; pages: number }> {
  const items: Item[] = [];
  let cursor: string | null = null;
  let total = -1;
  let pages = 0;
  do {
    const res = await t.get(`/v1/players?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, key);
    assert.equal(res.statusCode, 200, res.body);
    const body = json(res);
    if (total === -1) total = body.total;
    assert.equal(body.total, total, 'total is the same on every page');
    items.push(...body.players);
    cursor = body.next_cursor;
    pages++;
  } while (cursor !== null);
  return { items, total, pages };
}

before(async () => {
  t = await startTestApp();
  const s = t.runtime.world.current();
  [covered, other] = [...s.clubsOfLeague.keys()].sort();
  await createPlan(t.handle.db, { name: 'discovery-one-league', competitions: [covered] });
  await createAccount(t.handle.db, { email: 'scout@club.example', plan: 'discovery-one-league' });
  limited = (await createKey(t.handle.db, { email: 'scout@club.example' })).api_key;
  await (t.runtime.deps.authenticator as unknown as { tick(): Promise<void> }).tick();
  everyone = (await walk('limit=100&sort=name')).items;
});
after(async () => {
  await t?.close();
});

describe('GET /v1/search', () => {
  test('errors, with the exact strings', async () => {
    const cases: Array<[string, number, string]> = [
      ['', 400, 'q is required'],
      ['q=', 400, 'q is required'],
      ['q=%20%20%20', 400, 'q is required'],
      ['q=a', 400, 'Invalid q'],
      ['q=%20a%20', 400, 'Invalid q'],
      [`q=${'a'.repeat(101)}`, 400, 'Invalid q'],
      ['q=ab&q=cd', 400, 'Invalid q'],
      ['q=ab&type=person', 400, 'Invalid type'],
      ['q=ab&limit=0', 400, 'Invalid limit'],
      ['q=ab&limit=51', 400, 'Invalid limit'],
      ['q=ab&limit=ten', 400, 'Invalid limit'],
      ['type=person', 400, 'q is required'],
    ];
    for (const [query, status, error] of cases) {
      const res = await t.get(`/v1/search?${query}`);
      assert.equal(res.statusCode, status, query);
      assert.deepEqual(json(res), { error }, query);
    }
    assert.deepEqual(json(await t.get('/v1/search?q=ab', null)), { error: 'Missing API key' });
    assert.equal((await t.get(`/v1/search?q=${'a'.repeat(100)}`)).statusCode, 200);
  });

  test('a player found by his name typed plainly, in any order, by prefixes', async () => {
    const accented = everyone.find((p) => /[^\x20-\x7e]/.test(p.name) && p.name.split(' ').length === 2)!;
    assert.ok(accented, 'the demo world has accented names');
    const plain = accented.name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
    const [first, last] = plain.split(' ');
    for (const q of [plain, `${last} ${first}`, `${first.slice(0, 3)} ${last.slice(0, 3)}`]) {
      const res = json(await t.get(`/v1/search?q=${encodeURIComponent(q)}&type=player&limit=50`));
      assert.ok(res.results.some((r: { service_id: string }) => r.service_id === accented.service_id), q);
    }
    const exact = json(await t.get(`/v1/search?q=${encodeURIComponent(plain)}&type=player`)).results;
    assert.equal(compactName(exact[0].name), compactName(accented.name), 'an exact full-name match comes first');
  });

  test('a result of each type has its fields', async () => {
    const player = everyone.find((p) => p.market_value !== null && p.club_name !== null)!;
    const r = json(await t.get(`/v1/search?q=${encodeURIComponent(player.name)}&type=player`)).results.find((x: { service_id: string }) => x.service_id === player.service_id);
    assert.deepEqual(r, {
      type: 'player', name: player.name, service_id: player.service_id, club_id: player.club_id, club_name: player.club_name,
      position: player.position, age: player.age, nationality: player.nationality, market_value_in_eur: player.market_value_in_eur,
    });
    const club = json(await t.get(`/v1/search?q=${encodeURIComponent(player.club_name!)}&type=club`)).results[0];
    assert.deepEqual(Object.keys(club).sort(), ['competition', 'name', 'registry_a_id', 'service_id', 'type']);
    const competition = json(await t.get(`/v1/search?q=${encodeURIComponent(t.runtime.world.current().competitions.get(covered)!.name)}&type=competition`)).results[0];
    assert.deepEqual(Object.keys(competition).sort(), ['competition', 'competition_type', 'country', 'name', 'type']);
    assert.equal(competition.competition, covered);
  });

  test('ranking: ties by the higher market value, then the name', async () => {
    const s = t.runtime.world.current();
    // A common surname gives many prefix matches that only value and name can order.
    const counts = new Map<string, number>();
    for (const p of everyone) {
      const last = p.name.split(' ').pop()!;
      counts.set(last, (counts.get(last) ?? 0) + 1);
    }
    const surname = [...counts].filter(([w]) => /^[A-Za-z]{4,}$/.test(w)).sort((a, b) => b[1] - a[1])[0][0];
    const results = json(await t.get(`/v1/search?q=${surname.toLowerCase()}&type=player&limit=50`)).results as Array<{ name: string; market_value_in_eur: number | null }>;
    assert.ok(results.length >= 5);
    // The prefix tier alone: typo matches (another surname one letter away) rank after it whatever their value.
    const word = surname.toLowerCase();
    const prefixOnly = results.filter((r) => compactName(r.name) !== word && nameTokens(r.name).some((w) => w.startsWith(word)));
    for (let i = 1; i < prefixOnly.length; i++) {
      const a = prefixOnly[i - 1];
      const b = prefixOnly[i];
      const va = a.market_value_in_eur ?? -1;
      const vb = b.market_value_in_eur ?? -1;
      assert.ok(va > vb || (va === vb && a.name <= b.name), `${a.name} before ${b.name}`);
    }
    assert.ok(s.players.size > 0);
  });

  test('coverage: a one-league plan never sees another league\'s players, clubs or competitions', async () => {
    const s = t.runtime.world.current();
    const outClub = s.clubs.get(s.clubsOfLeague.get(other)![0])!;
    assert.deepEqual(json(await t.get(`/v1/search?q=${encodeURIComponent(outClub.name)}&type=club`, limited)).results
      .filter((c: { service_id: string }) => c.service_id === outClub.id), []);
    assert.deepEqual(json(await t.get(`/v1/search?q=${encodeURIComponent(s.competitions.get(other)!.name)}&type=competition`, limited)).results
      .filter((c: { competition: string }) => c.competition === other), []);
    const outsider = everyone.find((p) => p.competition === other)!;
    const all = json(await t.get(`/v1/search?q=${encodeURIComponent(outsider.name)}&limit=50`)).results;
    assert.ok(all.some((r: { service_id?: string }) => r.service_id === outsider.service_id), 'the all-coverage key finds him');
    for (const q of [outsider.name, ...['ma', 'an', 'er', 'fc']]) {
      const results = json(await t.get(`/v1/search?q=${encodeURIComponent(q)}&limit=50`, limited)).results;
      for (const r of results) {
        if (r.type === 'player') assert.equal((await t.get(`/v1/player_info?player_id=${r.service_id}`, limited)).statusCode, 200, r.name);
        if (r.type === 'club') assert.equal(r.competition, covered, r.name);
        if (r.type === 'competition') assert.equal(r.competition, covered);
      }
    }
  });
});

describe('GET /v1/players', () => {
  test('errors, with the exact strings, the first failing parameter in the table\'s order', async () => {
    const unknownClub = `C${'0'.repeat(26)}`;
    const cases: Array<[string, number, string]> = [
      ['competition_id=NO_SUCH_LEAGUE', 404, 'Competition not found'],
      ['club_id=nope', 400, 'Invalid club_id'],
      [`club_id=${unknownClub}`, 404, 'Club not found'],
      ['position=XX', 400, 'Invalid position'],
      ['position=GK,', 400, 'Invalid position'],
      ['min_age=13', 400, 'Invalid min_age'],
      ['min_age=2x', 400, 'Invalid min_age'],
      ['max_age=51', 400, 'Invalid max_age'],
      ['preferred_foot=Up', 400, 'Invalid preferred_foot'],
      ['contract_expires_before=2026-13-01', 400, 'Invalid contract_expires_before, must be in the format YYYY-MM-DD'],
      ['min_market_value=-1', 400, 'Invalid min_market_value'],
      ['max_market_value=lots', 400, 'Invalid max_market_value'],
      ['max_expected_transfer_value=1e6', 400, 'Invalid max_expected_transfer_value'],
      ['min_rating=0', 400, 'Invalid min_rating'],
      ['min_potential=100', 400, 'Invalid min_potential'],
      ['analysis_available_only=maybe', 400, 'Invalid analysis_available_only'],
      ['currency=XXX', 400, 'Invalid currency code: XXX'],
      ['sort=height', 400, 'Invalid sort'],
      ['sort=--name', 400, 'Invalid sort'],
      ['limit=0', 400, 'Invalid limit'],
      ['limit=101', 400, 'Invalid limit'],
      ['cursor=garbage', 400, 'Invalid cursor'],
      // Order: the first failing field of the table answers; 400 before 404.
      ['min_age=99&sort=bad', 400, 'Invalid min_age'],
      ['sort=bad&limit=0', 400, 'Invalid sort'],
      [`club_id=${unknownClub}&limit=0`, 400, 'Invalid limit'],
      ['competition_id=NO_SUCH_LEAGUE&cursor=garbage', 400, 'Invalid cursor'],
    ];
    for (const [query, status, error] of cases) {
      const res = await t.get(`/v1/players?${query}`);
      assert.equal(res.statusCode, status, query);
      assert.deepEqual(json(res), { error }, query);
    }
  });

  test('a page: the shape, the defaults and the total', async () => {
    const res = await t.get('/v1/players');
    assert.equal(res.statusCode, 200);
    const body = json(res);
    assert.deepEqual(Object.keys(body).sort(), ['currency', 'next_cursor', 'players', 'total']);
    assert.equal(body.currency, 'EUR');
    assert.equal(body.players.length, 25);
    assert.equal(body.total, everyone.length);
    assert.equal(body.total, playersAtAClub());
    assert.deepEqual(Object.keys(body.players[0]).sort(), [
      'age', 'analysis_available', 'club_id', 'club_name', 'competition', 'contract_end_date', 'expected_transfer_value', 'expected_transfer_value_in_eur',
      'market_value', 'market_value_in_eur', 'name', 'nationality', 'player_role', 'position', 'potential', 'rating', 'service_id',
    ]);
    // Default sort: -market_value.
    const values = body.players.map((p: Item) => p.market_value_in_eur);
    assert.deepEqual(values, [...values].sort((a: number, b: number) => b - a));
  });

  for (const key of SORT_KEYS) {
    for (const sign of ['', '-']) {
      test(`pagination visits each match exactly once, sort=${sign}${key}`, async () => {
        const { items, total, pages } = await walk(`competition_id=${covered}&limit=37&sort=${sign}${key}`);
        assert.ok(total > 37, 'several pages');
        assert.equal(pages, Math.ceil(total / 37));
        assert.equal(items.length, total);
        assert.equal(new Set(items.map((p) => p.service_id)).size, total, 'no repeats');
        const value = (p: Item): number | string | null => (key === 'market_value' ? p.market_value_in_eur : key === 'expected_transfer_value' ? p.expected_transfer_value : p[key]);
        for (let i = 1; i < items.length; i++) {
          const a = value(items[i - 1]);
          const b = value(items[i]);
          const at = `${items[i - 1].service_id} then ${items[i].service_id}`;
          if (a === null) assert.equal(b, null, `nulls last: ${at}`);
          else if (b !== null && a !== b && key !== 'name') assert.ok(sign === '-' ? a > b : a < b, at);
          if (a === b && key !== 'name') assert.ok(items[i - 1].service_id < items[i].service_id, `ties by service_id: ${at}`);
        }
      });
    }
  }

  test('the first page of everything, walked whole, visits every player once', async () => {
    const { items, total } = await walk('limit=100');
    assert.equal(total, playersAtAClub());
    assert.equal(new Set(items.map((p) => p.service_id)).size, total);
  });

  test('a cursor is tied to the filters and the sort, not to the page size', async () => {
    const first = json(await t.get(`/v1/players?competition_id=${covered}&sort=name&limit=5`));
    const cursor = encodeURIComponent(first.next_cursor);
    for (const changed of [`competition_id=${covered}&sort=-name`, `competition_id=${covered}`, `competition_id=${covered}&sort=name&position=GK`, 'sort=name', `competition_id=${covered}&sort=name&currency=USD`]) {
      const res = await t.get(`/v1/players?${changed}&cursor=${cursor}`);
      assert.equal(res.statusCode, 400, changed);
      assert.deepEqual(json(res), { error: 'Invalid cursor' });
    }
    const next = json(await t.get(`/v1/players?competition_id=${covered}&sort=name&limit=7&cursor=${cursor}`));
    const whole = json(await t.get(`/v1/players?competition_id=${covered}&sort=name&limit=12`));
    assert.deepEqual(next.players, whole.players.slice(5));
    const tampered = Buffer.from(JSON.stringify({ b: 'x', a: first.players[0].service_id })).toString('base64url');
    assert.deepEqual(json(await t.get(`/v1/players?competition_id=${covered}&sort=name&cursor=${tampered}`)), { error: 'Invalid cursor' });
  });

  test('each filter keeps exactly the players whose fields match', async () => {
    const sample = everyone.find((p) => p.position === 'LB' && p.age !== null && p.contract_end_date !== null)!;
    const checks: Array<[string, (p: Item) => boolean]> = [
      [`competition_id=${covered}`, (p) => p.competition === covered],
      [`club_id=${sample.club_id}`, (p) => p.club_id === sample.club_id],
      ['position=LB,LWB', (p) => p.position === 'LB' || p.position === 'LWB'],
      ['min_age=21&max_age=23', (p) => p.age !== null && p.age >= 21 && p.age <= 23],
      [`nationality=${sample.nationality.toUpperCase()}`, (p) => p.nationality.toLowerCase() === sample.nationality.toLowerCase()],
      [`contract_expires_before=${sample.contract_end_date}`, (p) => p.contract_end_date !== null && p.contract_end_date <= sample.contract_end_date!],
      ['min_market_value=5000000', (p) => p.market_value !== null && p.market_value >= 5_000_000],
      ['max_market_value=1000000', (p) => p.market_value !== null && p.market_value <= 1_000_000],
      ['max_expected_transfer_value=2000000', (p) => p.expected_transfer_value !== null && p.expected_transfer_value <= 2_000_000],
      ['min_rating=70', (p) => p.rating !== null && p.rating >= 70],
      ['min_potential=80', (p) => p.potential !== null && p.potential >= 80],
      ['analysis_available_only=true', (p) => p.analysis_available],
      ['analysis_available_only=0', () => true],
    ];
    for (const [query, keep] of checks) {
      const expected = everyone.filter(keep).map((p) => p.service_id);
      assert.ok(expected.length > 0, `${query} keeps someone`);
      const { items, total } = await walk(`${query}&sort=name&limit=100`);
      assert.equal(total, expected.length, query);
      assert.deepEqual(items.map((p) => p.service_id), expected, query);
    }
  });

  test('each filter agrees with /player_info', async () => {
    const sample = everyone.find((p) => p.position === 'CB' && p.contract_end_date !== null)!;
    const info = json(await t.get(`/v1/player_info?player_id=${sample.service_id}`));
    const query =
      `club_id=${info.current_team_id}&position=${info.position}&min_age=${info.age}&max_age=${info.age}&nationality=${encodeURIComponent(info.nationality)}` +
      `&preferred_foot=${info.preferred_foot}&contract_expires_before=${info.contract_end_date}`;
    const { items } = await walk(query);
    assert.ok(items.some((p) => p.service_id === sample.service_id));
    for (const p of items) {
      const i = json(await t.get(`/v1/player_info?player_id=${p.service_id}`));
      assert.equal(i.current_team_id, info.current_team_id);
      assert.equal(i.position, info.position);
      assert.equal(i.age, info.age);
      assert.equal(i.nationality.toLowerCase(), info.nationality.toLowerCase());
      assert.equal(i.preferred_foot, info.preferred_foot);
      assert.ok(i.contract_end_date <= info.contract_end_date);
      assert.equal(p.position, i.position);
      assert.equal(p.player_role, i.player_role);
      assert.equal(p.age, i.age);
      assert.equal(p.club_id, i.current_team_id);
      assert.equal(p.contract_end_date, i.contract_end_date);
    }
    for (const foot of ['Right', 'Left', 'Both']) {
      const page = json(await t.get(`/v1/players?competition_id=${covered}&preferred_foot=${foot}&limit=10`)).players as Item[];
      for (const p of page) assert.equal(json(await t.get(`/v1/player_info?player_id=${p.service_id}`)).preferred_foot, foot);
    }
  });

  test('expected_transfer_value is /expected_transfer_value with no target club and no contract date', async () => {
    const page = json(await t.get(`/v1/players?competition_id=${covered}&currency=usd&limit=100`));
    assert.equal(page.currency, 'USD');
    const players = page.players as Item[];
    const withFee = players.filter((p) => p.analysis_available).slice(0, 8);
    assert.ok(withFee.length > 0);
    for (const p of withFee) {
      const fee = json(await t.get(`/v1/expected_transfer_value?player_id=${p.service_id}&currency=USD`));
      assert.equal(p.expected_transfer_value, fee.expected_transfer_value);
      assert.equal(p.expected_transfer_value_in_eur, fee.expected_transfer_value_in_eur);
    }
    for (const p of everyone.filter((x) => !x.analysis_available)) {
      assert.equal(p.expected_transfer_value, null);
      assert.equal(p.expected_transfer_value_in_eur, null);
    }
  });

  test('amount filters are in the request\'s currency', async () => {
    const usd = (await walk('currency=USD&min_market_value=5000000&sort=name&limit=100')).items;
    const eur = (await walk('min_market_value=5000000&sort=name&limit=100')).items;
    for (const p of usd) assert.ok(p.market_value! >= 5_000_000);
    assert.notEqual(usd.length, eur.length, 'USD and EUR thresholds differ');
    const all = (await walk('currency=USD&sort=name&limit=100')).items;
    assert.deepEqual(usd.map((p) => p.service_id), all.filter((p) => p.market_value !== null && p.market_value >= 5_000_000).map((p) => p.service_id));
  });

  test('coverage: a one-league plan sees only its league, and 403 for another club or competition', async () => {
    const { items, total } = await walk('limit=100', limited);
    assert.ok(total > 0);
    for (const p of items.slice(0, 40)) assert.equal((await t.get(`/v1/player_info?player_id=${p.service_id}`, limited)).statusCode, 200);
    const s = t.runtime.world.current();
    const inLeague = new Set(s.clubsOfLeague.get(covered));
    const seen = new Set(items.map((p) => p.service_id));
    for (const p of everyone) if (p.competition === covered) assert.ok(seen.has(p.service_id), `${p.name} plays in the league`);
    for (const p of items) {
      if (p.competition === covered) continue;
      // Only a loanee whose owning club is in the league is seen from elsewhere.
      const info = json(await t.get(`/v1/player_info?player_id=${p.service_id}`));
      assert.ok(inLeague.has(info.owning_club_id), `${p.name} is owned in the league`);
    }
    assert.ok(everyone.some((p) => p.competition === other && !seen.has(p.service_id)), 'another league\'s players are left out');
    const outClub = s.clubsOfLeague.get(other)![0];
    assert.deepEqual(json(await t.get(`/v1/players?competition_id=${other}`, limited)), { error: 'Requested competition is not allowed' });
    assert.deepEqual(json(await t.get(`/v1/players?club_id=${outClub}`, limited)), { error: 'Requested club is not allowed' });
    assert.equal((await t.get(`/v1/players?competition_id=${covered}`, limited)).statusCode, 200);
  });
});

describe('GET /v1/market_value_history', () => {
  test('errors as /player_info', async () => {
    const outsider = everyone.find((p) => p.competition === other)!;
    const cases: Array<[string, string | undefined, number, string]> = [
      ['', undefined, 400, 'player_id is required'],
      ['player_id=nope', undefined, 400, 'Invalid player_id'],
      [`player_id=P${'0'.repeat(26)}`, undefined, 404, 'Player not found'],
      [`player_id=${outsider.service_id}`, limited, 403, 'Player is not in the allowed leagues'],
      [`player_id=${outsider.service_id}&currency=ABC`, undefined, 400, 'Invalid currency code: ABC'],
    ];
    for (const [query, key, status, error] of cases) {
      const res = await t.get(`/v1/market_value_history?${query}`, key);
      assert.equal(res.statusCode, status, query);
      assert.deepEqual(json(res), { error }, query);
    }
  });

  test('values and ratings oldest first, nothing after the as-of date', async () => {
    const asOf = t.runtime.world.current().asOf;
    const rated = everyone.filter((p) => p.rating !== null && p.market_value !== null).slice(0, 20);
    for (const p of rated) {
      const h = json(await t.get(`/v1/market_value_history?player_id=${p.service_id}&currency=gbp`));
      assert.deepEqual(Object.keys(h).sort(), ['currency', 'market_values', 'player_id', 'ratings']);
      assert.equal(h.player_id, p.service_id);
      assert.equal(h.currency, 'GBP');
      assert.ok(h.market_values.length > 0);
      const dates = h.market_values.map((v: { date: string }) => v.date);
      assert.deepEqual(dates, [...dates].sort());
      for (const d of dates) assert.ok(d <= asOf, `${d} after ${asOf}`);
      assert.equal(h.market_values.at(-1).value_in_eur, p.market_value_in_eur, 'the latest is the list\'s market value');
      const seasons = h.ratings.map((r: { season: string }) => r.season);
      assert.deepEqual(seasons, [...seasons].sort());
      for (const season of seasons) assert.ok(Number(season.slice(0, 4)) <= Number(asOf.slice(0, 4)) - (asOf.slice(5) < '07-01' ? 1 : 0), season);
      assert.equal(h.ratings.at(-1).rating, p.rating);
      assert.equal(h.ratings.at(-1).potential, p.potential);
      for (const r of h.ratings) assert.ok(['ea', 'estimated'].includes(r.source), `source ${r.source}`);
    }
  });
});

describe('the OpenAPI document', () => {
  test('describes every parameter of the three endpoints', async () => {
    const doc = json(await t.get('/v1/openapi.json'));
    const params = (path: string) => (doc.paths[path].get.parameters as Array<{ name: string; description?: string }>);
    assert.deepEqual(params('/v1/search').map((p) => p.name), ['q', 'type', 'limit']);
    assert.deepEqual(params('/v1/players').map((p) => p.name), [
      'competition_id', 'club_id', 'position', 'min_age', 'max_age', 'nationality', 'preferred_foot', 'contract_expires_before',
      'min_market_value', 'max_market_value', 'max_expected_transfer_value', 'min_rating', 'min_potential', 'analysis_available_only',
      'currency', 'sort', 'limit', 'cursor',
    ]);
    assert.deepEqual(params('/v1/market_value_history').map((p) => p.name), ['player_id', 'currency']);
    for (const path of ['/v1/search', '/v1/players', '/v1/market_value_history']) {
      for (const p of params(path)) assert.ok(p.description, `${path} ${p.name} is described`);
      assert.ok(doc.paths[path].get.responses['200'], path);
    }
  });
});
