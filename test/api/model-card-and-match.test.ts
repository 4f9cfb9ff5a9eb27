/**
 * GET /v1/model_card, GET /v1/match_forecast and GET /v1/ready on the demo world: the card holds
 * what the backtests at training computed (and only that), the match forecast is the model the
 * league forecast plays, and readiness says when analyses answer at full speed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createAccount } from '../../src/access/accounts.js';
import { createKey } from '../../src/access/keys.js';
import { createPlan } from '../../src/access/plans.js';
import { seasonLabel } from '../../src/domain/season.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let league: string;
let clubs: string[];
before(async () => {
  t = await startTestApp();
  const s = t.runtime.world.current();
  league = [...s.clubsOfLeague.keys()].filter((l) => s.competitions.get(l)!.tier === 1).sort()[0];
  clubs = [...s.analysisClubsOfLeague.get(league)!];
});
after(async () => {
  await t?.close();
});

const json = (res: { body: string }) => JSON.parse(res.body) as Record<string, unknown>;
// answers are read field by field, as a client reads them
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Card = Record<string, any>;

describe('GET /v1/model_card', () => {
  test('the figures the backtests at training computed, for the models in force', async () => {
    const res = await t.get('/v1/model_card');
    assert.equal(res.statusCode, 200);
    const card = json(res) as Card;
    const bundle = t.runtime.models.current()!;
    assert.equal(card.model_version, bundle.version);
    assert.equal(res.headers['touchline-model-version'], bundle.version);
    assert.equal(card.as_of, '2026-06-30');
    assert.equal(card.data_version, bundle.dataVersion);
    assert.ok(!Number.isNaN(Date.parse(card.generated_at as string)));
    // the demo world has the history for every backtest
    assert.deepEqual(Object.keys(card.models).sort(), ['fee', 'future', 'league', 'match', 'rating']);
    const { fee, future, league: lg, match, rating } = card.models;
    // no origin at or after the as-of date: nothing after it was read
    for (const m of [fee, future, lg, match, rating]) for (const o of m.origins as string[]) assert.ok(o < card.as_of, o);
    assert.ok(fee.n > 50 && fee.model.mdape > 0 && fee.model.mdape < 1);
    assert.deepEqual(fee.by_band.map((b: Card) => b.band), ['<5M', '5-20M', '>=20M'].filter((b) => fee.by_band.some((x: Card) => x.band === b)));
    for (const c of [fee.range_coverage, future.range_coverage]) {
      assert.equal(c.nominal, 0.8);
      assert.ok(Math.abs(c.inside + c.below + c.above - 1) < 1e-9);
      assert.ok(c.before_calibration.n === c.n);
    }
    assert.equal(future.horizon_years, 3);
    assert.equal(future.categories.length, 6);
    assert.ok(Math.abs(future.categories.reduce((a: number, c: Card) => a + c.observed_share, 0) - 1) < 1e-9);
    assert.equal(future.baselines.no_change.spearman, null, 'a constant forecast has no rank correlation');
    assert.ok(lg.seasons.length >= 2 && lg.model.mae_rank > 0);
    assert.ok(match.seasons.length >= 2);
    for (const s of match.seasons) assert.ok(s.model.rps > 0 && s.model.rps < 0.3 && s.spread > 0);
    // calibration bins are tenths of each outcome's probability, with the matches in them
    const total = match.calibration.filter((b: Card) => b.outcome === 'draw').reduce((a: number, b: Card) => a + b.n, 0);
    assert.equal(total, match.model.matches);
    assert.ok(rating.n > 50);
  });

  test('the same as the stored artifact; a parameter it does not take is 400', async () => {
    const a = json(await t.get('/v1/model_card'));
    assert.deepEqual(a, JSON.parse(JSON.stringify(t.runtime.models.current()!.card)));
    const bad = await t.get('/v1/model_card?x=1');
    assert.equal(bad.statusCode, 400);
    assert.deepEqual(json(bad), { error: 'Unknown parameter: x' });
    assert.equal((await t.get('/v1/model_card', null)).statusCode, 401);
  });
});

describe('GET /v1/match_forecast', () => {
  test('probabilities summing to 1, the likeliest scores, the season', async () => {
    const [home, away] = clubs;
    const res = await t.get(`/v1/match_forecast?home_club_id=${home}&away_club_id=${away}`);
    assert.equal(res.statusCode, 200);
    const b = json(res) as Card;
    assert.deepEqual(Object.keys(b).sort(), ['away_club_id', 'away_win', 'draw', 'expected_goals', 'home_club_id', 'home_win', 'likely_scores', 'season', 'warnings']);
    assert.equal(b.home_club_id, home);
    assert.equal(b.season, seasonLabel(t.runtime.world.current().analysisSeason));
    assert.ok(Math.abs(b.home_win + b.draw + b.away_win - 1) <= 0.001);
    assert.equal(b.likely_scores.length, 5);
    for (let i = 1; i < 5; i++) assert.ok(b.likely_scores[i].probability <= b.likely_scores[i - 1].probability);
    assert.ok(b.expected_goals.home > 0 && b.expected_goals.away > 0);
    assert.ok(b.warnings.some((w: Card) => w.code === 'season_clubs_assumed'));
  });

  test('home advantage: each side better at home; neutral is symmetric', async () => {
    const [a, c] = clubs;
    const ac = json(await t.get(`/v1/match_forecast?home_club_id=${a}&away_club_id=${c}`)) as Card;
    const ca = json(await t.get(`/v1/match_forecast?home_club_id=${c}&away_club_id=${a}`)) as Card;
    const neutral = json(await t.get(`/v1/match_forecast?home_club_id=${a}&away_club_id=${c}&neutral=true`)) as Card;
    const reverse = json(await t.get(`/v1/match_forecast?home_club_id=${c}&away_club_id=${a}&neutral=1`)) as Card;
    assert.ok(ac.home_win > neutral.home_win && ca.home_win > reverse.home_win);
    assert.ok(Math.abs(neutral.home_win - reverse.away_win) <= 0.0001 && Math.abs(neutral.draw - reverse.draw) <= 0.0001);
  });

  test('the league forecast\'s expected points are the sum of these matches', async () => {
    const forecast = json(await t.get(`/v1/league_forecast?competition_id=${league}`)) as Card;
    const club = forecast.clubs[0].club_id as string;
    let points = 0;
    for (const other of clubs.filter((c) => c !== club)) {
      const home = json(await t.get(`/v1/match_forecast?home_club_id=${club}&away_club_id=${other}`)) as Card;
      const away = json(await t.get(`/v1/match_forecast?home_club_id=${other}&away_club_id=${club}`)) as Card;
      points += 3 * home.home_win + home.draw + 3 * away.away_win + away.draw;
    }
    assert.ok(Math.abs(points - forecast.clubs[0].expected_points) < 0.1, `${points} vs ${forecast.clubs[0].expected_points}`);
  });

  test('errors in the contract\'s order', async () => {
    const [home, away] = clubs;
    const cases: Array<[string, number, string]> = [
      ['', 400, 'home_club_id is required'],
      [`home_club_id=${home}`, 400, 'away_club_id is required'],
      [`home_club_id=nope&away_club_id=${away}`, 400, 'Invalid home_club_id'],
      [`home_club_id=${home}&away_club_id=${away}&neutral=maybe`, 400, 'Invalid neutral'],
      [`home_club_id=${home}&away_club_id=${home}`, 400, 'home_club_id and away_club_id must be different clubs'],
      [`home_club_id=${home}&away_club_id=C00000000000000000000000000`, 404, 'Club not found'],
      [`home_club_id=${home}&away_club_id=${away}&currency=EUR`, 400, 'Unknown parameter: currency'],
    ];
    for (const [q, status, error] of cases) {
      const res = await t.get(`/v1/match_forecast?${q}`);
      assert.equal(res.statusCode, status, q);
      assert.equal(json(res).error, error, q);
    }
    const s = t.runtime.world.current();
    const national = [...s.clubs.values()].find((c) => c.is_national_team)!.id;
    const res = await t.get(`/v1/match_forecast?home_club_id=${home}&away_club_id=${national}`);
    assert.deepEqual([res.statusCode, json(res).error], [400, 'Club has no domestic league to simulate']);
  });

  test('a club outside the plan is 403 after every 404', async () => {
    const s = t.runtime.world.current();
    const other = [...s.clubsOfLeague.keys()].find((l) => l !== league)!;
    const handle = t.handle.db;
    await createPlan(handle, { name: 'one-league', competitions: [league] });
    await createAccount(handle, { email: 'matches@example.com', password: 'a long passphrase 42', status: 'active', plan: 'one-league' });
    const key = (await createKey(handle, { email: 'matches@example.com' })).api_key;
    const outside = s.clubsOfLeague.get(other)![0];
    const res = await t.get(`/v1/match_forecast?home_club_id=${clubs[0]}&away_club_id=${outside}`, key);
    assert.deepEqual([res.statusCode, json(res).error], [403, 'Requested club is not allowed']);
    const unknown = await t.get(`/v1/match_forecast?home_club_id=${outside}&away_club_id=C00000000000000000000000000`, key);
    assert.equal(unknown.statusCode, 404);
  });
});

describe('GET /v1/ready', () => {
  test('ready once the models are in force; no key needed', async () => {
    const res = await t.get('/v1/ready', null);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(json(res), { status: 'ready' });
  });
});
