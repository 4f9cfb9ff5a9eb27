import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setAccountCurrency } from '../../src/access/accounts.js';
import { del, email, json, keys, put, s, startOrgApp, t } from './org.fixture.js';

before(startOrgApp);
after(async () => {
  await t?.close();
});

type Echo = { player_id: string; position: string; name: string };

/** A club of the first league and a target from a club of another league, as a client finds them. */
async function scene() {
  const leagues = [...s.analysisClubsOfLeague.keys()].sort();
  const club = [...s.analysisClubsOfLeague.get(leagues[0])!].sort()[0];
  const other = [...s.analysisClubsOfLeague.get(leagues[1])!].sort()[0];
  const actual = json(await t.post('/v1/squad_analysis', { club_id: club }, keys.owner));
  const theirs: Echo[] = json(await t.post('/v1/squad_analysis', { club_id: other }, keys.owner)).squad;
  return { club, actual, sold: actual.squad[0] as Echo, target: theirs[0] };
}

describe('/v1/org/shadow_squad', () => {
  test('none saved: 404; a scout saves it, every member reads it; a viewer may not', async () => {
    const none = await t.get('/v1/org/shadow_squad', keys.viewer);
    assert.deepEqual([none.statusCode, json(none)], [404, { error: 'No shadow squad saved' }]);
    const { club, sold, target } = await scene();
    const body = { club_id: club, sell: [{ player_id: sold.player_id, asking_fee: 12_000_000 }], targets: [{ player_id: target.player_id, fee: 20_000_000, annual_wage: 2_500_000 }] };
    const saved = await put('/v1/org/shadow_squad', body, keys.scout);
    assert.equal(saved.statusCode, 200, saved.body);
    assert.deepEqual(json(saved), body);
    assert.deepEqual(json(await t.get('/v1/org/shadow_squad', keys.viewer)), body);
    const refused = await put('/v1/org/shadow_squad', body, keys.viewer);
    assert.deepEqual([refused.statusCode, json(refused)], [403, { error: 'Not allowed for your role' }]);
    const activity = json(await t.get('/v1/org/activity', keys.viewer)).activity[0];
    assert.deepEqual([activity.actor, activity.action], [email('scout'), 'shadow_squad_saved']);
  });

  test('invalid bodies: the first failing field, then unknown club and player', async () => {
    const { club, target } = await scene();
    const cases: [unknown, number, string][] = [
      [{ sell: [] }, 400, 'club_id is required'],
      [{ club_id: club, sell: {} }, 400, 'sell must be an array'],
      [{ club_id: club, sell: [{ player_id: target.player_id, asking_fee: -1 }] }, 400, 'Invalid sell entry at index 0'],
      [{ club_id: club, targets: [{ player_id: target.player_id, fee: 1, annual_wage: 1 }, { player_id: target.player_id, fee: 1, annual_wage: 1 }] }, 400, 'Invalid targets entry at index 1'],
      [{ club_id: `C${'0'.repeat(26)}` }, 404, 'Club not found'],
      [{ club_id: club, targets: [{ player_id: `P${'0'.repeat(26)}`, fee: 1, annual_wage: 1 }] }, 404, 'Player not found'],
    ];
    for (const [body, status, error] of cases) {
      const res = await put('/v1/org/shadow_squad', body, keys.owner);
      assert.deepEqual([res.statusCode, json(res)], [status, { error }], JSON.stringify(body));
    }
  });

  test('the analysis: positions equal /v1/squad_analysis for the same changes, money in the account\'s currency', async () => {
    const { club, actual, sold, target } = await scene();
    await put('/v1/org/shadow_squad', {
      club_id: club,
      sell: [{ player_id: sold.player_id, asking_fee: 12_000_000 }],
      targets: [{ player_id: target.player_id, fee: 20_000_000, annual_wage: 2_500_000 }],
    }, keys.owner);
    await setAccountCurrency(t.handle.db, { email: email('viewer'), currency: 'GBP' });
    const res = await t.post('/v1/org/shadow_squad/analysis', {}, keys.viewer);
    assert.equal(res.statusCode, 200, res.body);
    const a = json(res);
    // The same changes sent to /v1/squad_analysis as a custom squad.
    const squad = [...actual.squad.filter((e: Echo) => e.player_id !== sold.player_id), target].map((e: Echo) => ({ player_id: e.player_id, position: e.position }));
    const custom = json(await t.post('/v1/squad_analysis', { club_id: club, squad }, keys.owner));
    assert.equal(a.club_id, club);
    assert.equal(a.season, '2026/2027');
    assert.equal(a.original_expected_position, actual.expected_league_rank);
    assert.equal(a.new_expected_position, custom.expected_league_rank);
    const places = a.place_probabilities;
    assert.deepEqual(places.map((p: { position: number }) => p.position), places.map((_: unknown, i: number) => i + 1));
    for (const side of ['before', 'after'] as const) {
      const total = places.reduce((x: number, p: Record<string, number>) => x + p[side], 0);
      assert.ok(Math.abs(total - 1) < 0.01, `${side} sums to ${total}`);
      const mean = places.reduce((x: number, p: Record<string, number>) => x + p.position * p[side], 0);
      const expected = side === 'before' ? a.original_expected_position : a.new_expected_position;
      assert.ok(Math.abs(mean - expected) < 0.05, `${side}: mean place ${mean} vs ${expected}`);
    }
    // Money: EUR twins as given, the account's currency beside them; the squad's value as squad_analysis sums it.
    assert.equal(a.currency, 'GBP');
    assert.equal(a.fees_in_in_eur, 12_000_000);
    assert.equal(a.fees_out_in_eur, 20_000_000);
    assert.equal(a.wages_three_years_in_eur, 7_500_000);
    assert.equal(a.squad_value_in_three_years_in_eur, custom.total_future_transfer_value_in_eur);
    assert.ok(a.fees_in > 0 && a.fees_in !== a.fees_in_in_eur, 'fees_in converted to GBP');
    assert.ok(Math.abs(a.fees_out / a.fees_in - 20 / 12) < 0.001);
    assert.ok(Array.isArray(a.warnings));
  });

  test('a member removed from the organisation loses the shadow squad at once', async () => {
    await t.post('/v1/org/members', { email: email('outsider'), role: 'viewer' }, keys.owner);
    assert.equal((await t.get('/v1/org/shadow_squad', keys.outsider)).statusCode, 200);
    await del(`/v1/org/members?email=${encodeURIComponent(email('outsider'))}`, keys.owner);
    assert.equal((await t.get('/v1/org/shadow_squad', keys.outsider)).statusCode, 403);
  });
});
