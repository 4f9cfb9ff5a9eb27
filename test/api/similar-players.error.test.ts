import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { playerFacts } from '../../src/domain/player-facts.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const json = (res: { body: string }) => JSON.parse(res.body);
let t: TestApp;
let id: string;

before(async () => {
  t = await startTestApp();
  const s = t.runtime.world.current();
  id = [...s.players.values()].find((p) => playerFacts(s, p).inWorldNow)!.id;
});
after(async () => {
  await t?.close();
});

describe('GET /v1/similar_players, errors', () => {
  test('the exact strings, the first failing parameter in the table\'s order, 400 before 404', async () => {
    const unknown = `P${'0'.repeat(26)}`;
    const cases: Array<[string, number, string]> = [
      ['', 400, 'player_id is required'],
      ['player_id=', 400, 'player_id is required'],
      ['player_id=nope', 400, 'Invalid player_id'],
      [`player_id=${unknown}`, 404, 'Player not found'],
      [`player_id=${id}&position=XX`, 400, 'Invalid position'],
      [`player_id=${id}&position=GK,`, 400, 'Invalid position'],
      [`player_id=${id}&max_age=13`, 400, 'Invalid max_age'],
      [`player_id=${id}&max_age=51`, 400, 'Invalid max_age'],
      [`player_id=${id}&max_expected_transfer_value=-1`, 400, 'Invalid max_expected_transfer_value'],
      [`player_id=${id}&max_expected_transfer_value=1e6`, 400, 'Invalid max_expected_transfer_value'],
      [`player_id=${id}&competition_id=`, 400, 'Invalid competition_id'],
      [`player_id=${id}&competition_id=NO_SUCH_LEAGUE`, 404, 'Competition not found'],
      [`player_id=${id}&limit=0`, 400, 'Invalid limit'],
      [`player_id=${id}&limit=51`, 400, 'Invalid limit'],
      [`player_id=${id}&limit=ten`, 400, 'Invalid limit'],
      [`player_id=${id}&currency=XXX`, 400, 'Invalid currency code: XXX'],
      // Order: the table's order among 400s; every 400 before a 404.
      ['player_id=nope&limit=0', 400, 'Invalid player_id'],
      [`player_id=${id}&max_age=99&limit=0`, 400, 'Invalid max_age'],
      [`player_id=${unknown}&limit=0`, 400, 'Invalid limit'],
      [`player_id=${unknown}&competition_id=NO_SUCH_LEAGUE`, 404, 'Player not found'],
      // Strict parameters: one the endpoint does not define is the first 400.
      [`player_id=nope&min_age=20`, 400, 'Unknown parameter: min_age'],
    ];
    for (const [query, status, error] of cases) {
      const res = await t.get(`/v1/similar_players?${query}`);
      assert.equal(res.statusCode, status, query);
      assert.deepEqual(json(res), { error }, query);
    }
  });
});
