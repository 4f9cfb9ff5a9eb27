import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MONEY_INPUT_MAX } from '../../src/http/fields.js';
import type { TestApp } from '../helpers/app.js';
import { startAnalysisApp } from './analysis.fixture.js';

// Sportive impact, ROI and squad analysis: their refusals, in the check order.
let t: TestApp;
let club: string;
let player: string;
let unavailable: string;
before(async () => {
  ({ t, club, player, unavailable } = await startAnalysisApp());
});
after(async () => {
  await t?.close();
});

const json = (res: { body: string }) => JSON.parse(res.body);

describe('sportive impact', () => {
  test('errors', async () => {
    const cases: Array<[unknown, number, string]> = [
      [{ club_id: club }, 400, 'player_id is required'],
      [{ player_id: player }, 400, 'club_id is required'],
      [{ player_id: player, club_id: club, currency_code: false }, 400, 'currency_code must be a string'],
      [{ player_id: player, club_id: club, currency_code: 'XXX' }, 400, 'Invalid currency code: XXX'],
      [{ player_id: player, club_id: club, currency_code: 'xxx' }, 400, 'Invalid currency code: XXX'],
      [{ player_id: `P${'1'.repeat(26)}`, club_id: club }, 404, 'Player not found'],
      [{ player_id: player, club_id: `C${'1'.repeat(26)}` }, 404, 'Club not found'],
      [{ player_id: unavailable, club_id: club }, 403, 'This player is not available for analysis'],
    ];
    for (const [body, status, error] of cases) {
      const res = await t.post('/v1/get_sportive_impact', body);
      assert.equal(res.statusCode, status, JSON.stringify(body));
      assert.deepEqual(json(res), { error }, JSON.stringify(body));
    }
  });
});

describe('ROI', () => {
  test('errors in the order of the body table', async () => {
    const cases: Array<[unknown, string]> = [
      [{ player_id: player, club_id: club, annual_wage: -5, expected_transfer_value: -1 }, 'annual_wage must be a non-negative number'],
      [{ player_id: player, club_id: club, annual_wage: 'lots' }, 'annual_wage must be a non-negative number'],
      [{ player_id: player, club_id: club, expected_transfer_value: -1, currency_code: 1 }, 'expected_transfer_value must be a non-negative number'],
      [{ player_id: player, club_id: club, annual_wage: 1e308 }, 'annual_wage is out of allowed range'],
      [{ player_id: player, club_id: club, annual_wage: MONEY_INPUT_MAX + 1, expected_transfer_value: -1 }, 'annual_wage is out of allowed range'],
      [`{"player_id":"${player}","club_id":"${club}","annual_wage":1e400}`, 'annual_wage is out of allowed range'],
      [{ player_id: player, club_id: club, annual_wage: -1e308 }, 'annual_wage must be a non-negative number'],
      [{ player_id: player, club_id: club, expected_transfer_value: 1.7e308, currency_code: 'GBP' }, 'expected_transfer_value is out of allowed range'],
      [{ player_id: player, club_id: club, expected_transfer_value: MONEY_INPUT_MAX + 1, currency_code: 1 }, 'expected_transfer_value is out of allowed range'],
      [{ player_id: player, club_id: club, currency_code: 'gbpx' }, 'Invalid currency code: GBPX'],
    ];
    for (const [body, error] of cases) assert.deepEqual(json(await t.post('/v1/get_roi_analysis', body)), { error });
  });
});

describe('squad analysis', () => {
  test('errors', async () => {
    const entry = { player_id: player, position: 'CM' };
    const cases: Array<[unknown, number, string]> = [
      [{}, 400, 'club_id is required'],
      [{ club_id: club, squad: 'all' }, 400, 'squad must be an array'],
      [{ club_id: club, squad: { a: 1 } }, 400, 'squad must be an array'],
      [{ club_id: club, squad: Array.from({ length: 61 }, () => entry) }, 400, 'squad must have at most 60 players'],
      [{ club_id: club, squad: [entry, { player_id: player }] }, 400, 'Invalid squad entry at index 1'],
      [{ club_id: club, squad: [entry, { player_id: 'x', position: 'CM' }] }, 400, 'Invalid squad entry at index 1'],
      [{ club_id: club, squad: [{ player_id: player, position: 'XX' }] }, 400, 'Invalid squad entry at index 0'],
      [{ club_id: club, squad: [entry, entry] }, 400, 'Invalid squad entry at index 1'],
      [{ club_id: club, squad: [{ player_id: `P${'2'.repeat(26)}`, position: 'GK' }] }, 404, 'Player not found'],
      [{ club_id: `C${'2'.repeat(26)}` }, 404, 'Club not found'],
      [{ club_id: club, squad: [{ player_id: unavailable, position: 'GK' }] }, 403, 'This player is not available for analysis'],
    ];
    for (const [body, status, error] of cases) {
      const res = await t.post('/v1/squad_analysis', body);
      assert.equal(res.statusCode, status, JSON.stringify(body).slice(0, 200));
      assert.deepEqual(json(res), { error }, JSON.stringify(body).slice(0, 200));
    }
  });
});
