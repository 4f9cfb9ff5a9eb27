import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PATH, club, json, league, limited, noLeague, other, s, startRecommendApp, t } from './recommend.fixture.js';

// Its refusals, in the check order.
before(startRecommendApp);
after(async () => {
  await t?.close();
});

describe('POST /v1/recommend_signings', () => {
  test('errors, in the check order', async () => {
    const unknownClub = `C${'1'.repeat(26)}`;
    const outside = s.clubsOfLeague.get(other)![0];
    const cases: Array<[Record<string, unknown> | string, number, string, string?]> = [
      ['[]', 400, 'Body must be a JSON object'],
      [{ position: 'CB' }, 400, 'club_id is required'],
      [{ club_id: 'C1', position: 'XX' }, 400, 'Invalid club_id'],
      [{ club_id: club }, 400, 'position is required'],
      [{ club_id: club, position: 'XX', limit: 0 }, 400, 'Invalid position'],
      [{ club_id: club, position: 7 }, 400, 'Invalid position'],
      [{ club_id: club, position: 'CB', max_expected_transfer_value: -1, max_age: 5 }, 400, 'Invalid max_expected_transfer_value'],
      [{ club_id: club, position: 'CB', max_expected_transfer_value: '100' }, 400, 'Invalid max_expected_transfer_value'],
      [{ club_id: club, position: 'CB', max_age: 23.5, competitions: 'X' }, 400, 'Invalid max_age'],
      [{ club_id: club, position: 'CB', max_age: -1 }, 400, 'Invalid max_age'],
      [{ club_id: club, position: 'CB', max_age: '20' }, 400, 'Invalid max_age'],
      [{ club_id: club, position: 'CB', competitions: 'X', limit: 0 }, 400, 'Invalid competitions'],
      [{ club_id: club, position: 'CB', competitions: [] }, 400, 'Invalid competitions'],
      [{ club_id: club, position: 'CB', competitions: [1] }, 400, 'Invalid competitions'],
      [{ club_id: club, position: 'CB', limit: 0, currency_code: 'XXX' }, 400, 'Invalid limit'],
      [{ club_id: club, position: 'CB', limit: 26 }, 400, 'Invalid limit'],
      [{ club_id: club, position: 'CB', limit: 2.5 }, 400, 'Invalid limit'],
      [{ club_id: club, position: 'CB', currency_code: 'xxx' }, 400, 'Invalid currency code: XXX'],
      [{ club_id: club, position: 'CB', currency_code: 5 }, 400, 'currency_code must be a string'],
      [{ club_id: club, position: 'CB', sort: 'roi', min_playing_time_percentage: -1 }, 400, 'Invalid sort'],
      [{ club_id: club, position: 'CB', sort: 5 }, 400, 'Invalid sort'],
      [{ club_id: club, position: 'CB', min_playing_time_percentage: 101, annual_wage: -1 }, 400, 'Invalid min_playing_time_percentage'],
      [{ club_id: club, position: 'CB', min_playing_time_percentage: '25' }, 400, 'Invalid min_playing_time_percentage'],
      [{ club_id: club, position: 'CB', annual_wage: -1 }, 400, 'annual_wage must be a non-negative number'],
      [{ club_id: club, position: 'CB', wage: 1 }, 400, 'Unknown parameter: wage'],
      [{ club_id: unknownClub, position: 'CB', competitions: ['NOT_A_COMPETITION'] }, 404, 'Club not found'],
      [{ club_id: club, position: 'CB', competitions: [league, 'NOT_A_COMPETITION'] }, 404, 'Competition not found'],
      [{ club_id: noLeague, position: 'CB' }, 400, 'Club has no domestic league to simulate'],
      // under the one-league plan: 404 before 403, the club's 403 before a competition's
      [{ club_id: outside, position: 'CB', competitions: ['NOT_A_COMPETITION'] }, 404, 'Competition not found', limited],
      [{ club_id: outside, position: 'CB', competitions: [other] }, 403, 'Requested club is not allowed', limited],
      [{ club_id: club, position: 'CB', competitions: [league, other] }, 403, 'Requested competition is not allowed', limited],
    ];
    for (const [body, status, error, key] of cases) {
      const res = await t.post(PATH, body, key);
      assert.equal(res.statusCode, status, `${JSON.stringify(body)}: ${res.body}`);
      assert.deepEqual(json(res), { error }, JSON.stringify(body));
    }
    assert.equal((await t.post(PATH, { club_id: club, position: 'CB' }, null)).statusCode, 401);
  });
});
