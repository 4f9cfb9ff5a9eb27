import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { playerFacts } from '../../src/domain/player-facts.js';
import { ratedPlayer } from '../../src/valuation/impact/model.js';
import { recommendSignings, screenPosition } from '../../src/valuation/recommend/index.js';
import { presentRecommendation } from '../../src/http/present/recommend.js';
import { PATH, POSITION, assertOrdered, club, eligible, first, json, league, other, recommend, s, startRecommendApp, t } from './recommend.fixture.js';

// What POST /v1/recommend_signings answers.
before(startRecommendApp);
after(async () => {
  await t?.close();
});

describe('POST /v1/recommend_signings', () => {
  test('the answer: its fields, the season, the default limit', async () => {
    const b = await recommend({});
    assert.equal(b.club_id, club);
    assert.equal(b.position, POSITION);
    assert.equal(b.currency, 'EUR');
    assert.match(b.season, /^\d{4}\/\d{4}$/);
    assert.equal(Number(b.season.slice(0, 4)), s.analysisSeason);
    assert.equal(b.candidates.length, Math.min(10, b.candidates_considered));
    assert.ok(b.candidates.length === 10, 'the demo world has more than 10 centre-backs to offer');
    for (const c of b.candidates) {
      assert.deepEqual(Object.keys(c).sort(), [
        'age', 'club_id', 'club_name', 'contract_end_date', 'expected_transfer_value', 'expected_transfer_value_in_eur', 'future_transfer_value',
        'future_transfer_value_in_eur', 'increase_in_expected_position', 'market_value_in_eur', 'name', 'net_value_created', 'net_value_created_in_eur',
        'on_field_value', 'on_field_value_in_eur', 'player_id', 'playing_time_percentage', 'reasons', 'return_on_investment',
        'total_value_created', 'total_value_created_in_eur', 'warnings',
      ]);
      assert.ok(c.reasons.length >= 1 && c.reasons.length <= 3 && c.reasons.every((r) => /^[A-Z].*\.$/.test(r)), JSON.stringify(c.reasons));
      assert.ok(Array.isArray(c.warnings) && c.warnings.every((w) => ['season_clubs_assumed', 'thin_squad', 'free_agent', 'stale_value'].includes(w.code) && w.message.length > 0));
      assert.equal(c.name, s.players.get(c.player_id)!.name);
      const f = playerFacts(s, s.players.get(c.player_id)!);
      assert.equal(c.club_id, f.currentTeamId);
      assert.equal(c.club_name, c.club_id === null ? null : s.clubs.get(c.club_id)!.name);
    }
    assert.deepEqual(b.candidates, (await recommend({ limit: 15 })).candidates.slice(0, 10), 'a smaller limit answers the first candidates of a larger one');
  });

  test('every number equals /get_roi_analysis for that player and club with no fee and the same wage', async () => {
    const sample = [...first.candidates.slice(0, 4), first.candidates[first.candidates.length - 1]];
    for (const [currency, wage] of [['EUR', null], ['USD', null], ['GBP', 1_500_000]] as const) {
      const body = currency === 'EUR' ? { limit: 25 } : { limit: 25, currency_code: currency.toLowerCase(), ...(wage === null ? {} : { annual_wage: wage }) };
      const list = currency === 'EUR' ? first : await recommend(body);
      const picked = currency === 'EUR' ? sample : list.candidates.slice(0, 3);
      for (const c of picked) {
        const res = await t.post('/v1/get_roi_analysis', {
          player_id: c.player_id, club_id: club, ...(currency === 'EUR' ? {} : { currency_code: currency }), ...(wage === null ? {} : { annual_wage: wage }),
        });
        assert.equal(res.statusCode, 200, res.body);
        const roi = json(res);
        assert.deepEqual(c, {
          ...c,
          player_id: c.player_id,
          name: c.name,
          age: roi.player_info.age,
          club_id: c.club_id,
          club_name: c.club_name,
          expected_transfer_value: roi.expected_transfer_value,
          expected_transfer_value_in_eur: roi.expected_transfer_value_in_eur,
          future_transfer_value: roi.future_transfer_value.future_transfer_value,
          future_transfer_value_in_eur: roi.future_transfer_value.future_transfer_value_in_eur,
          on_field_value: roi.sportive_impact.on_field_value,
          on_field_value_in_eur: roi.sportive_impact.on_field_value_in_eur,
          increase_in_expected_position: roi.sportive_impact.simulation.increase_in_expected_position,
          playing_time_percentage: roi.sportive_impact.playing_time_percentage,
          total_value_created: roi.total_value_created,
          total_value_created_in_eur: roi.total_value_created_in_eur,
          net_value_created: roi.total_value_created - roi.expected_transfer_value - 3 * (roi.annual_wage ?? 0),
          net_value_created_in_eur: roi.total_value_created_in_eur - roi.expected_transfer_value_in_eur - 3 * (roi.annual_wage_in_eur ?? 0),
          return_on_investment: roi.return_on_investment,
          warnings: roi.warnings,
        }, `${currency} ${c.player_id}`);
      }
    }
  });

  test('ordered by net value created by default, by the sort asked otherwise, ties by player id', async () => {
    assertOrdered(first.candidates);
    assert.ok(first.candidates.length === 25);
    assert.ok(first.candidates[0].net_value_created > first.candidates[24].net_value_created);
    for (const sort of ['total_value_created', 'return_on_investment', 'on_field_value', 'future_transfer_value', 'expected_transfer_value'] as const) {
      const b = await recommend({ sort, limit: 5 });
      assert.equal(b.candidates.length, 5);
      assertOrdered(b.candidates, sort);
    }
    // a wage lowers every candidate's net value by three years of it
    const paid = await recommend({ limit: 25, annual_wage: 1_000_000 });
    const byId = new Map(first.candidates.map((c) => [c.player_id, c]));
    for (const c of paid.candidates) {
      const free = byId.get(c.player_id);
      if (free) assert.equal(c.net_value_created, free.net_value_created - 3_000_000);
    }
  });

  test('min_playing_time_percentage: every candidate expected to start at least that share (default 25)', async () => {
    const res = await t.post(PATH, { club_id: club, position: POSITION, limit: 25 });
    const b = json(res) as typeof first;
    assert.ok(b.candidates.length > 0);
    for (const c of b.candidates) assert.ok(Math.round(c.playing_time_percentage * 100) >= 25, JSON.stringify(c));
    assert.ok(b.candidates_considered <= first.candidates_considered);
    const high = await recommend({ min_playing_time_percentage: 60, limit: 25 });
    for (const c of high.candidates) assert.ok(c.playing_time_percentage >= 0.6, JSON.stringify(c));
    assert.ok(high.candidates_considered <= b.candidates_considered);
  });

  test('candidates: covered, with analysis data, not at the club, at the position; candidates_considered counts them all', async () => {
    const expected = eligible(POSITION);
    assert.equal(first.candidates_considered, expected.length);
    const allowed = new Set(expected);
    for (const c of first.candidates) assert.ok(allowed.has(c.player_id) && c.club_id !== null, c.player_id);
    // Retired and departed players are no signing, and the count above leaves them out: the demo world has some at this position.
    assert.ok([...s.players.values()].some((p) => p.analysis_available && !playerFacts(s, p).inWorldNow && playerFacts(s, p).position === POSITION));
    const gk = await recommend({ position: 'gk' });
    assert.equal(gk.position, 'GK');
    assert.equal(gk.candidates_considered, eligible('GK').length);
    for (const c of gk.candidates) assert.equal(playerFacts(s, s.players.get(c.player_id)!).position, 'GK');
  });

  test('filters: max_age, max_expected_transfer_value, competitions', async () => {
    const ages = first.candidates.map((c) => c.age!).sort((a, b) => a - b);
    const maxAge = ages[Math.floor(ages.length / 2)];
    const young = await recommend({ max_age: maxAge, limit: 25 });
    assert.equal(young.candidates_considered, eligible(POSITION, (f) => f.age !== null && f.age <= maxAge).length);
    assert.ok(young.candidates_considered < first.candidates_considered);
    for (const c of young.candidates) assert.ok(c.age !== null && c.age <= maxAge);

    const fees = first.candidates.map((c) => c.expected_transfer_value).sort((a, b) => a - b);
    const maxFee = fees[Math.floor(fees.length / 2)];
    const cheap = await recommend({ max_expected_transfer_value: maxFee, limit: 25 });
    assert.ok(cheap.candidates.length > 0 && cheap.candidates_considered < first.candidates_considered);
    for (const c of cheap.candidates) assert.ok(c.expected_transfer_value <= maxFee, `${c.expected_transfer_value} > ${maxFee}`);
    // every candidate of the unfiltered list within the fee is still eligible, so the best of them come first
    const within = first.candidates.filter((c) => c.expected_transfer_value <= maxFee);
    assert.ok(within.length > 0);
    assert.ok(cheap.candidates[0].net_value_created >= within[0].net_value_created);
    // the limit is on the fee as /get_roi_analysis shows it: his own fee lets him in, a unit less keeps him out
    // (a free agent's fee is 0: the edge is the first who costs something)
    const edge = first.candidates.find((c) => c.expected_transfer_value > 0)!;
    assert.ok(edge, 'a candidate with a fee');
    const at = await recommend({ max_expected_transfer_value: edge.expected_transfer_value, limit: 25 });
    const below = await recommend({ max_expected_transfer_value: edge.expected_transfer_value - 1, limit: 25 });
    assert.ok(at.candidates.some((c) => c.player_id === edge.player_id));
    assert.ok(!below.candidates.some((c) => c.player_id === edge.player_id));
    assert.ok(below.candidates_considered < at.candidates_considered);
    // the amount is in currency_code: the same limit in USD lets through fewer (a dollar is worth less)
    const usd = await recommend({ max_expected_transfer_value: maxFee, currency_code: 'USD', limit: 25 });
    assert.ok(usd.candidates_considered <= cheap.candidates_considered);
    for (const c of usd.candidates) assert.ok(c.expected_transfer_value <= maxFee);

    const inOther = new Set(s.clubsOfCompetition.get(other) ?? []);
    const one = await recommend({ competitions: [other], limit: 25 });
    assert.equal(one.candidates_considered, eligible(POSITION, (f) => f.currentTeamId !== null && inOther.has(f.currentTeamId)).length);
    assert.ok(one.candidates.length > 0);
    for (const c of one.candidates) assert.ok(inOther.has(c.club_id!), c.club_id!);
    const both = await recommend({ competitions: [other, league, other], limit: 25 });
    assert.ok(both.candidates_considered > one.candidates_considered);

    const all = await recommend({ max_age: maxAge, max_expected_transfer_value: maxFee, competitions: [other], limit: 25 });
    for (const c of all.candidates) assert.ok(c.age! <= maxAge && c.expected_transfer_value <= maxFee && inOther.has(c.club_id!));
    assertOrdered(all.candidates);
  });

  test('limit', async () => {
    // up to SHORTLIST (15) the exact runs are the same, so a smaller limit answers the first candidates of a larger one
    const top = await recommend({ limit: 15 });
    for (const limit of [1, 3, 15]) {
      const b = await recommend({ limit });
      assert.equal(b.candidates.length, limit);
      assert.deepEqual(b.candidates, top.candidates.slice(0, limit));
    }
    assert.equal(first.candidates.length, 25);
  });

  test('deterministic: the same request gives the same answer, and so does the computation run again', async () => {
    const a = await recommend({ position: 'ST', max_age: 30 });
    assert.deepEqual(await recommend({ position: 'ST', max_age: 30 }), a);
    const bundle = t.runtime.models.current()!;
    const money = { code: 'EUR', rates: t.runtime.world.rates() };
    const q = {
      clubId: club, position: 'ST' as const, feeAllowed: null, maxAge: 30, competitions: null, limit: 10, covered: () => true,
      annualWageEur: null, minPlayingTime: 0, playsEnough: () => true, sort: 'net_value_created' as const,
    };
    // past every cache: the screen built again, the exact runs made again
    const run = () => presentRecommendation(recommendSignings(bundle, s, q, { screen: screenPosition(bundle, s, club, 'ST') }), s, money, { limit: q.limit, sort: q.sort, annualWage: null });
    assert.deepEqual(run(), a);
  });

  test('no eligible candidate: an empty list; a fee cap of 0 leaves only free agents', async () => {
    // A contract that ended on or before the as-of date is a free transfer (fee 0, warning free_agent).
    const free = await recommend({ max_expected_transfer_value: 0 });
    for (const c of free.candidates) {
      assert.equal(c.expected_transfer_value_in_eur, 0, c.player_id);
      assert.ok(c.warnings.some((w) => w.code === 'free_agent'), c.player_id);
    }
    const young = await recommend({ max_age: 10 });
    assert.deepEqual([young.candidates_considered, young.candidates], [0, []]);
  });

  test('a position the club is strong at: small impacts, as numbers', async () => {
    const bundle = t.runtime.models.current()!;
    const rating = (id: string) => ratedPlayer(s, id, bundle.impact!.settings)?.rating ?? 0;
    const best = [...s.squads.get(club)!].sort((a, b) => rating(b) - rating(a))[0];
    const position = playerFacts(s, s.players.get(best)!).position;
    const b = await recommend({ position, limit: 25 });
    assert.ok(b.candidates.length > 0);
    for (const c of b.candidates) {
      assert.ok(c.on_field_value >= 0 && c.increase_in_expected_position >= 0 && c.playing_time_percentage >= 0);
      assert.ok(c.return_on_investment === null || Number.isFinite(c.return_on_investment));
    }
    assertOrdered(b.candidates);
  });
});
