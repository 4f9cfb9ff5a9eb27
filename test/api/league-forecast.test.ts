import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createAccount } from '../../src/access/accounts.js';
import { createKey } from '../../src/access/keys.js';
import { createPlan } from '../../src/access/plans.js';
import { MembershipError, setSeasonClubs, showSeasonClubs } from '../../src/admin/leagues.js';
import { loadSeasonClubs } from '../../src/data/season-clubs-store.js';
import { readMeta } from '../../src/data/world-store.js';
import { seasonLabel } from '../../src/domain/season.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let league: string;
let other: string;
let cup: string;
before(async () => {
  t = await startTestApp();
  const s = t.runtime.world.current();
  [league, other] = [...s.clubsOfLeague.keys()].filter((l) => s.competitions.get(l)!.tier === 1).sort();
  cup = [...s.competitions.values()].find((c) => c.type !== 'DOMESTIC_LEAGUE')!.id;
});
after(async () => {
  await t?.close();
});

const json = (res: { body: string }) => JSON.parse(res.body);
type ForecastClub = {
  club_id: string; name: string; expected_position: number; expected_points: number;
  position_probabilities: number[]; expected_revenue: number; expected_revenue_in_eur: number;
};

describe('GET /v1/league_forecast', () => {
  test('shape: every club of the league once, ordered by expected position, probabilities summing to 1', async () => {
    const s = t.runtime.world.current();
    const res = await t.get(`/v1/league_forecast?competition_id=${league}`);
    assert.equal(res.statusCode, 200);
    const b = json(res) as { competition: string; season: string; currency: string; clubs: ForecastClub[]; warnings: { code: string; message: string }[] };
    assert.deepEqual(Object.keys(b).sort(), ['clubs', 'competition', 'currency', 'season', 'warnings']);
    // nobody named the analysis season's clubs: the answer says it simulates the current season's
    const assumed = b.warnings.filter((w) => w.code === 'season_clubs_assumed');
    assert.equal(assumed.length, 1);
    assert.match(assumed[0].message, new RegExp(`^The ${seasonLabel(s.analysisSeason)} clubs of .+ were not named \\(touchline leagues set-clubs\\), so its \\d+ clubs of ${seasonLabel(s.currentSeason)} are simulated\\.$`));
    assert.equal(b.competition, league);
    assert.equal(b.season, seasonLabel(s.analysisSeason));
    assert.equal(b.currency, 'EUR');
    const members = s.analysisClubsOfLeague.get(league)!;
    assert.deepEqual(b.clubs.map((c) => c.club_id).sort(), [...members].sort());
    const n = members.length;
    let positions = 0, points = 0;
    for (const [i, c] of b.clubs.entries()) {
      assert.deepEqual(Object.keys(c).sort(), ['club_id', 'expected_points', 'expected_position', 'expected_revenue', 'expected_revenue_in_eur', 'name', 'position_probabilities']);
      assert.equal(c.name, s.clubs.get(c.club_id)!.name);
      if (i > 0) assert.ok(c.expected_position >= b.clubs[i - 1].expected_position, 'ordered by expected position');
      assert.equal(c.expected_position, Math.round(c.expected_position * 100) / 100);
      assert.equal(c.expected_points, Math.round(c.expected_points * 10) / 10);
      assert.ok(c.expected_position >= 1 && c.expected_position <= n);
      assert.ok(c.expected_points >= 0 && c.expected_points <= 3 * 2 * (n - 1), `${c.expected_points} of ${n}`);
      assert.equal(c.position_probabilities.length, n);
      assert.ok(Math.abs(c.position_probabilities.reduce((a, p) => a + p, 0) - 1) < 1e-9);
      const mean = c.position_probabilities.reduce((a, p, k) => a + p * (k + 1), 0);
      assert.ok(Math.abs(mean - c.expected_position) < 0.006, 'the expected position is the mean of the place distribution');
      assert.ok(Number.isInteger(c.expected_revenue) && c.expected_revenue > 0 && c.expected_revenue === c.expected_revenue_in_eur);
      positions += c.expected_position;
      points += c.expected_points;
    }
    // One simulation of the whole league shares the places out: the mean expected position is the
    // middle place (up to the rounding to 2 decimals), and each place's probabilities sum to 1.
    assert.ok(Math.abs(positions / n - (n + 1) / 2) <= 0.005, `mean ${positions / n} of ${n}`);
    for (let place = 0; place < n; place++) {
      assert.ok(Math.abs(b.clubs.reduce((a, c) => a + c.position_probabilities[place], 0) - 1) < 1e-9, `place ${place + 1}`);
    }
    // Better places earn more points and more money, on the whole.
    assert.ok(b.clubs[0].expected_points > b.clubs[n - 1].expected_points);
    assert.ok(b.clubs[0].expected_revenue > b.clubs[n - 1].expected_revenue);
    assert.ok(points > 0);
  });

  test('each club\'s expected position is /squad_analysis\'s expected_league_rank for its actual squad', async () => {
    for (const id of [league, other]) {
      const b = json(await t.get(`/v1/league_forecast?competition_id=${id}`)) as { clubs: ForecastClub[] };
      for (const c of b.clubs) {
        const sq = await t.post('/v1/squad_analysis', { club_id: c.club_id });
        assert.equal(sq.statusCode, 200);
        const rank = json(sq).expected_league_rank as number;
        // The same simulation: equal, well within the 0.1 EXTENSIONS.md allows.
        assert.equal(rank, c.expected_position, `${c.club_id}: forecast ${c.expected_position}, squad analysis ${rank}`);
      }
    }
  });

  test('currency: money converted through one rate table; the same request gives the same answer', async () => {
    const eur = json(await t.get(`/v1/league_forecast?competition_id=${league}`)) as { clubs: ForecastClub[] };
    const usd = json(await t.get(`/v1/league_forecast?competition_id=${league}&currency=usd`)) as { currency: string; clubs: ForecastClub[] };
    assert.equal(usd.currency, 'USD');
    assert.deepEqual(usd.clubs.map((c) => c.expected_revenue_in_eur), eur.clubs.map((c) => c.expected_revenue_in_eur));
    assert.ok(usd.clubs.some((c) => c.expected_revenue !== c.expected_revenue_in_eur));
    assert.deepEqual(json(await t.get(`/v1/league_forecast?competition_id=${league}`)), eur);
  });

  test('errors in the check order', async () => {
    const err = async (q: string) => {
      const res = await t.get(`/v1/league_forecast${q}`);
      return [res.statusCode, json(res).error] as const;
    };
    assert.deepEqual(await err(''), [400, 'competition_id is required']);
    assert.deepEqual(await err('?competition_id='), [400, 'competition_id is required']);
    assert.deepEqual(await err(`?competition_id=${cup}`), [400, 'Competition is not a domestic league']);
    assert.deepEqual(await err(`?competition_id=${cup}&currency=XXX`), [400, 'Competition is not a domestic league']);
    assert.deepEqual(await err(`?competition_id=${league}&currency=XXX`), [400, 'Invalid currency code: XXX']);
    assert.deepEqual(await err('?competition_id=NO_SUCH_LEAGUE&currency=XXX'), [400, 'Invalid currency code: XXX']);
    assert.deepEqual(await err('?competition_id=NO_SUCH_LEAGUE'), [404, 'Competition not found']);
    assert.equal((await t.get(`/v1/league_forecast?competition_id=${league}`, null)).statusCode, 401);

    await createPlan(t.handle.db, { name: 'forecast-one-league', competitions: [other] });
    await createAccount(t.handle.db, { email: 'forecast@club.example', status: 'active', plan: 'forecast-one-league' });
    const { api_key } = await createKey(t.handle.db, { email: 'forecast@club.example' });
    const res = await t.get(`/v1/league_forecast?competition_id=${league}`, api_key);
    assert.deepEqual([res.statusCode, json(res).error], [403, 'Requested competition is not allowed']);
    assert.equal((await t.get(`/v1/league_forecast?competition_id=${other}`, api_key)).statusCode, 200);
  });

  test('the OpenAPI document describes every field', async () => {
    const doc = json(await t.get('/docs/json', null));
    const op = doc.paths['/v1/league_forecast'].get;
    const schema = op.responses['200'].content['application/json'].schema;
    for (const f of ['competition', 'season', 'currency', 'clubs']) assert.ok(schema.properties[f].description, f);
    const club = schema.properties.clubs.items;
    for (const f of Object.keys(club.properties)) assert.ok(club.properties[f].description, f);
  });
});

describe('season membership', () => {
  const season = () => seasonLabel(t.runtime.world.current().analysisSeason);

  test('an unknown club, a bad season, a cup or an unknown competition fail and change nothing', async () => {
    const s = t.runtime.world.current();
    const members = [...s.clubsOfLeague.get(league)!];
    const metaBefore = await readMeta(t.handle.db);
    const rowsBefore = await loadSeasonClubs(t.handle.db);
    const unknown = 'C' + '0'.repeat(26);
    const fails = async (args: Parameters<typeof setSeasonClubs>[1], message: RegExp) => {
      await assert.rejects(setSeasonClubs(t.handle.db, args), (e: unknown) => e instanceof MembershipError && message.test(e.message));
    };
    await fails({ competition: league, season: season(), clubs: [...members, unknown] }, new RegExp(`Unknown club: ${unknown}`));
    await fails({ competition: league, season: season(), registryAIds: ['999999999999', String(s.clubs.get(members[0])!.registry_a_id)] }, /Unknown club with registry_a_id 999999999999/);
    await fails({ competition: league, season: season(), registryAIds: ['12x', '3'] }, /Invalid registry_a_id.*12x/);
    await fails({ competition: league, season: '2026-2027', clubs: members }, /Invalid season/);
    await fails({ competition: league, season: '2026/2028', clubs: members }, /Invalid season/);
    await fails({ competition: cup, season: season(), clubs: members }, /is not a domestic league/);
    await fails({ competition: 'NO_SUCH_LEAGUE', season: season(), clubs: members }, /Unknown competition: NO_SUCH_LEAGUE/);
    await fails({ competition: league, season: season(), clubs: [members[0], members[0]] }, /more than once/);
    await fails({ competition: league, season: season(), clubs: [members[0]] }, /at least two clubs/);
    await fails({ competition: league, season: season() }, /exactly one of/);
    assert.deepEqual(await loadSeasonClubs(t.handle.db), rowsBefore);
    assert.equal((await readMeta(t.handle.db)).membership_version, metaBefore.membership_version);
  });

  test('set-clubs: the next request simulates the new league, without a model change; show tells the source', async () => {
    const before = t.runtime.world.current();
    const members = [...before.clubsOfLeague.get(league)!];
    const shown = await showSeasonClubs(t.handle.db, { competition: league }, t.runtime.world.current().asOf);
    assert.equal(shown.source, 'default');
    assert.deepEqual(shown.clubs.map((c) => c.club_id).sort(), [...members].sort());
    const bundleBefore = t.runtime.models.current()!.version;

    // Relegate the last club by name, promote a club of another league (as a second tier would).
    const relegated = members[members.length - 1];
    const promoted = before.clubsOfLeague.get(other)![0];
    const next = [...members.slice(0, -1), promoted];
    const registry = next.map((c) => String(before.clubs.get(c)!.registry_a_id));
    const result = await setSeasonClubs(t.handle.db, { competition: league, season: season(), registryAIds: registry });
    assert.deepEqual(result.clubs.map((c) => c.club_id).sort(), [...next].sort());
    await t.runtime.world.refresh(); // what the server does after every operator command

    const res = json(await t.get(`/v1/league_forecast?competition_id=${league}`)) as { clubs: ForecastClub[] };
    assert.deepEqual(res.clubs.map((c) => c.club_id).sort(), [...next].sort());
    assert.equal(t.runtime.models.current()!.version, bundleBefore, 'membership is not training data');
    // The promoted club left its league for the analysis season; the relegated one plays in none.
    const otherNow = json(await t.get(`/v1/league_forecast?competition_id=${other}`)) as { clubs: ForecastClub[] };
    assert.ok(!otherNow.clubs.some((c) => c.club_id === promoted));
    assert.deepEqual(json(await t.post('/v1/squad_analysis', { club_id: relegated })), { error: 'Club has no domestic league to simulate' });
    // the league's clubs are named now: no season_clubs_assumed, in the forecast or in a club's analysis
    assert.ok(!(res as unknown as { warnings: { code: string }[] }).warnings.some((w) => w.code === 'season_clubs_assumed'));
    const sq = json(await t.post('/v1/squad_analysis', { club_id: promoted }));
    assert.ok(!(sq.warnings as { code: string }[]).some((w) => w.code === 'season_clubs_assumed'));
    const mine = res.clubs.find((c) => c.club_id === promoted)!;
    assert.ok(Math.abs(sq.expected_league_rank - mine.expected_position) <= 0.1);
    const shownAfter = await showSeasonClubs(t.handle.db, { competition: league, season: season() }, t.runtime.world.current().asOf);
    assert.equal(shownAfter.source, 'set');
    const current = await showSeasonClubs(t.handle.db, { competition: league, season: seasonLabel(before.currentSeason) }, t.runtime.world.current().asOf);
    assert.equal(current.source, 'data');
    assert.deepEqual(current.clubs.map((c) => c.club_id).sort(), [...members].sort());

    // Back as it was, by service ids.
    await setSeasonClubs(t.handle.db, { competition: league, season: season(), clubs: members });
    await setSeasonClubs(t.handle.db, { competition: other, season: season(), clubs: [...before.clubsOfLeague.get(other)!] });
    await t.runtime.world.refresh();
    const again = json(await t.get(`/v1/league_forecast?competition_id=${league}`)) as { clubs: ForecastClub[] };
    assert.deepEqual(again.clubs.map((c) => c.club_id).sort(), [...members].sort());
  });
});
