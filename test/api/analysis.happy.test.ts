import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sportiveImpactOf } from '../../src/valuation/analysis.js';
import { presentImpact } from '../../src/http/present/analysis.js';
import { MONEY_INPUT_MAX } from '../../src/http/fields.js';
import { extremeRateCurrencies, hugeNumbersIn } from '../helpers/money.js';
import type { TestApp } from '../helpers/app.js';
import { startAnalysisApp } from './analysis.fixture.js';

// Sportive impact, ROI and squad analysis: what they answer.
let t: TestApp;
let club: string;
let player: string;
before(async () => {
  ({ t, club, player } = await startAnalysisApp());
});
after(async () => {
  await t?.close();
});

const json = (res: { body: string }) => JSON.parse(res.body);

describe('sportive impact', () => {
  test('fields, bounds and the with/without relation', async () => {
    const res = await t.post('/v1/get_sportive_impact', { player_id: player, club_id: club });
    assert.equal(res.statusCode, 200);
    const b = json(res);
    assert.equal(b.currency, 'EUR');
    assert.ok(Number.isInteger(b.on_field_value) && b.on_field_value >= 0 && b.on_field_value === b.on_field_value_in_eur);
    const sim = b.simulation;
    assert.ok(sim.new_expected_position >= 1 && sim.original_expected_position >= 1);
    assert.ok(sim.new_expected_position <= sim.original_expected_position, 'a signing never lowers the expected position');
    assert.equal(sim.increase_in_expected_position, Math.round(Math.max(0, sim.original_expected_position - sim.new_expected_position) * 100) / 100);
    assert.ok(b.playing_time_percentage >= 0 && b.playing_time_percentage <= 0.9);
    assert.match(String(res.headers['touchline-model-version']), /.+/);
  });

  test('the increase is the original minus the new position as shown, for every player of a squad', async () => {
    const s = t.runtime.world.current();
    const others = s.squads.get(s.clubsOfLeague.get([...s.clubsOfLeague.keys()].sort()[0])![1])!.filter((id) => s.players.get(id)!.analysis_available);
    assert.ok(others.length >= 10);
    for (const id of others) {
      const sim = json(await t.post('/v1/get_sportive_impact', { player_id: id, club_id: club })).simulation;
      const shown = Math.round(Math.max(0, sim.original_expected_position - sim.new_expected_position) * 100) / 100;
      assert.equal(sim.increase_in_expected_position, shown, `${id}: ${JSON.stringify(sim)}`);
    }
  });

  test('the OpenAPI document says what the expected positions average', async () => {
    const doc = json(await t.get('/v1/openapi.json', null));
    const described = (path: string, field: string): string => JSON.stringify(doc.paths[path].post.responses['200']).split(`"${field}":`)[1] ?? '';
    assert.match(described('/v1/get_sportive_impact', 'original_expected_position'), /^\{[^}]*averaged over the 3 simulated seasons/);
    assert.match(described('/v1/squad_analysis', 'expected_league_rank'), /^\{[^}]*analysis season alone/);
  });

  test('deterministic: the computation twice gives the same answer', () => {
    const bundle = t.runtime.models.current()!;
    const snapshot = t.runtime.world.current();
    const money = { code: 'EUR', rates: t.runtime.world.rates() };
    const a = presentImpact(sportiveImpactOf(bundle, snapshot, { playerId: player, clubId: club }), money);
    const b = presentImpact(sportiveImpactOf(bundle, snapshot, { playerId: player, clubId: club }), money);
    assert.deepEqual(a, b);
  });
});

describe('ROI', () => {
  test('the formula, wages, and consistency with the two other endpoints', async () => {
    const res = await t.post('/v1/get_roi_analysis', { player_id: player, club_id: club, annual_wage: 2_000_000, expected_transfer_value: 30_000_000 });
    assert.equal(res.statusCode, 200);
    const b = json(res);
    assert.equal(b.expected_transfer_value, 30_000_000);
    assert.equal(b.annual_wage, 2_000_000);
    const expected = b.total_value_created_in_eur / (30_000_000 + 3 * 2_000_000);
    assert.ok(Math.abs(b.return_on_investment - expected) < 1e-3);
    assert.equal(b.total_value_created_in_eur, b.sportive_impact.on_field_value_in_eur + b.future_transfer_value.future_transfer_value_in_eur);
    for (const k of ['age', 'current_rating', 'current_potential']) assert.ok(Number.isInteger(b.player_info[k]), k);
    assert.equal(typeof b.player_info.position, 'string');
    assert.equal(typeof b.player_info.best_role, 'string');

    const noFee = json(await t.post('/v1/get_roi_analysis', { player_id: player, club_id: club, currency_code: 'USD' }));
    assert.equal(noFee.annual_wage, null);
    assert.equal(noFee.annual_wage_in_eur, null);
    assert.ok(noFee.expected_transfer_value > 0);
    const impact = json(await t.post('/v1/get_sportive_impact', { player_id: player, club_id: club, currency_code: 'USD' }));
    assert.deepEqual(noFee.sportive_impact, impact);
    const future = json(await t.post('/v1/get_future_transfer_value', { player_id: player, club_id: club, currency_code: 'USD' }));
    assert.deepEqual(noFee.future_transfer_value, future);
  });

  test('the fee and wage are costs only: the future value is the endpoint\'s with no fee, whatever they are', async () => {
    for (const currency_code of ['EUR', 'JPY']) {
      const future = json(await t.post('/v1/get_future_transfer_value', { player_id: player, club_id: club, currency_code }));
      const cases = [{}, { expected_transfer_value: 0 }, { expected_transfer_value: 1 }, { expected_transfer_value: 25_000_000, annual_wage: 3_000_000 },
        { expected_transfer_value: 250_000_000 }, { expected_transfer_value: MONEY_INPUT_MAX, annual_wage: MONEY_INPUT_MAX }, { annual_wage: 0 }];
      for (const costs of cases) {
        const res = await t.post('/v1/get_roi_analysis', { player_id: player, club_id: club, currency_code, ...costs });
        assert.equal(res.statusCode, 200, res.body);
        const b = json(res);
        assert.deepEqual(b.future_transfer_value, future, `${currency_code} ${JSON.stringify(costs)}`);
        assert.equal(b.total_value_created_in_eur, b.sportive_impact.on_field_value_in_eur + future.future_transfer_value_in_eur);
      }
    }
  });

  test('a zero cost gives a null return on investment', async () => {
    const b = json(await t.post('/v1/get_roi_analysis', { player_id: player, club_id: club, expected_transfer_value: 0 }));
    assert.equal(b.expected_transfer_value, 0);
    assert.equal(b.return_on_investment, null);
    // A cost that rounds to zero in the answer is no cost either.
    const tiny = json(await t.post('/v1/get_roi_analysis', { player_id: player, club_id: club, expected_transfer_value: 0.4, annual_wage: 0.2, currency_code: 'GBP' }));
    assert.deepEqual([tiny.expected_transfer_value, tiny.annual_wage, tiny.return_on_investment], [0, 0, null]);
  });

  test('the largest accepted fee and wage, in the currencies with the smallest and largest rates, give whole amounts', async () => {
    for (const code of extremeRateCurrencies(t.runtime.deps.rates())) {
      const body = { player_id: player, club_id: club, annual_wage: MONEY_INPUT_MAX, expected_transfer_value: MONEY_INPUT_MAX, currency_code: code };
      const res = await t.post('/v1/get_roi_analysis', body);
      assert.equal(res.statusCode, 200, `${code}: ${res.body}`);
      const b = json(res);
      assert.equal(b.currency, code);
      assert.deepEqual([b.expected_transfer_value, b.annual_wage], [MONEY_INPUT_MAX, MONEY_INPUT_MAX], code);
      for (const k of ['expected_transfer_value_in_eur', 'annual_wage_in_eur', 'total_value_created', 'total_value_created_in_eur']) {
        assert.ok(Number.isInteger(b[k]), `${code} ${k} ${b[k]}`);
      }
      assert.ok(Number.isFinite(b.return_on_investment), `${code} roi ${b.return_on_investment}`);
      assert.deepEqual(hugeNumbersIn(res.body), [], code);
    }
  });
});

describe('squad analysis', () => {
  test('actual squad: fields, and its echo sent back as custom gives the same numbers', async () => {
    const res = await t.post('/v1/squad_analysis', { club_id: club });
    assert.equal(res.statusCode, 200);
    const actual = json(res);
    assert.equal(actual.squad_source, 'actual');
    assert.equal(actual.club_id, club);
    assert.equal(actual.squad_size, actual.squad.length);
    assert.ok(actual.expected_league_rank >= 1 && actual.expected_league_rank <= 20);
    assert.equal(Math.round(actual.expected_league_rank * 100) / 100, actual.expected_league_rank);
    assert.ok(actual.total_expected_transfer_fee > 0 && actual.total_future_transfer_value > 0);
    const custom = json(await t.post('/v1/squad_analysis', { club_id: club, squad: actual.squad }));
    assert.equal(custom.squad_source, 'custom');
    assert.deepEqual({ ...custom, squad_source: 'actual' }, actual);
  });

  test('totals are the sums of the per-player fee and future value endpoints', async () => {
    const b = json(await t.post('/v1/squad_analysis', { club_id: club }));
    let fees = 0;
    let futures = 0;
    for (const e of b.squad) {
      fees += json(await t.get(`/v1/expected_transfer_value?player_id=${e.player_id}`)).expected_transfer_value_in_eur;
      futures += json(await t.post('/v1/get_future_transfer_value', { player_id: e.player_id, club_id: club })).future_transfer_value_in_eur;
    }
    // Each endpoint rounds its own figure; the squad rounds the sum.
    assert.ok(Math.abs(b.total_expected_transfer_fee_in_eur - fees) <= b.squad_size / 2, `${b.total_expected_transfer_fee_in_eur} vs ${fees}`);
    assert.ok(Math.abs(b.total_future_transfer_value_in_eur - futures) <= b.squad_size / 2, `${b.total_future_transfer_value_in_eur} vs ${futures}`);
  });

  test('removing the best player never improves the rank; adding a star never worsens it', async () => {
    const s = t.runtime.world.current();
    const actual = json(await t.post('/v1/squad_analysis', { club_id: club }));
    const rating = (id: string) => s.ratings.get(id)?.at(-1)?.rating ?? 0;
    const best = [...actual.squad].sort((a, b) => rating(b.player_id) - rating(a.player_id))[0];
    const without = json(await t.post('/v1/squad_analysis', { club_id: club, squad: actual.squad.filter((e: { player_id: string }) => e.player_id !== best.player_id) }));
    assert.ok(without.expected_league_rank >= actual.expected_league_rank);
    const withStar = json(await t.post('/v1/squad_analysis', { club_id: club, squad: [...actual.squad, { player_id: player, position: s.ratings.get(player)!.at(-1)!.position }] }));
    assert.ok(withStar.expected_league_rank <= actual.expected_league_rank);
  });

  test('currencies: totals converted through one rate', async () => {
    const eur = json(await t.post('/v1/squad_analysis', { club_id: club }));
    const gbp = json(await t.post('/v1/squad_analysis', { club_id: club, currency_code: 'GBP' }));
    assert.equal(gbp.currency, 'GBP');
    assert.equal(gbp.total_expected_transfer_fee_in_eur, eur.total_expected_transfer_fee_in_eur);
    assert.ok(gbp.total_expected_transfer_fee < eur.total_expected_transfer_fee);
  });
});
