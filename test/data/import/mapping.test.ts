import { test } from 'node:test';
import assert from 'node:assert/strict';
import { competitionIds, competitionKind, isPseudoClub, mapPosition, normaliseName, parseDate, parseFee } from '../../../src/data/import/mapping.js';
import { clubSimilarity } from '../../../src/data/import/ea.js';

test('competition ids: upper snake case, a shared name gets the country on every holder', () => {
  const ids = competitionIds([
    { competition_id: 'RU1', name: 'premier-liga', country_name: 'Russia' },
    { competition_id: 'UKR1', name: 'premier-liga', country_name: 'Ukraine' },
    { competition_id: 'FR1', name: 'ligue-1', country_name: 'France' },
  ]);
  assert.deepEqual([...ids], [['RU1', 'PREMIER_LIGA_RUSSIA'], ['UKR1', 'PREMIER_LIGA_UKRAINE'], ['FR1', 'LIGUE_1']]);
});

test('competition types from type and sub_type', () => {
  const k = (type: string, sub_type: string, major = 'false') => competitionKind({ type, sub_type, is_major_national_league: major });
  assert.deepEqual(k('domestic_league', 'first_tier'), { type: 'DOMESTIC_LEAGUE', tier: 1 });
  assert.deepEqual(k('domestic_league', 'second_tier'), { type: 'DOMESTIC_LEAGUE', tier: 2 });
  assert.deepEqual(k('other', 'league_cup'), { type: 'DOMESTIC_CUP', tier: null });
  assert.deepEqual(k('other', 'domestic_super_cup'), { type: 'DOMESTIC_SUPERCUP', tier: null });
  assert.deepEqual(k('international_cup', 'europa_league_qualifying'), { type: 'INTERNATIONAL_CUP', tier: null });
  assert.deepEqual(k('other', 'fifa_club_world_cup'), { type: 'INTERNATIONAL_SUPERCUP', tier: null });
  assert.deepEqual(k('other', 'friendly'), { type: 'OTHER', tier: null });
});

test('positions, dates with a time suffix, fees, pseudo-clubs, names', () => {
  assert.equal(mapPosition('Second Striker', 'Attack'), 'CF');
  assert.equal(mapPosition('', 'Defender'), 'CB');
  assert.equal(mapPosition('', 'Missing'), null);
  assert.deepEqual(parseDate('2023-12-31 00:00:00'), { ok: true, value: '2023-12-31' });
  assert.deepEqual(parseDate('2023-02-29'), { ok: false });
  assert.deepEqual(parseDate('2024-02-29'), { ok: true, value: '2024-02-29' });
  assert.deepEqual(parseDate(''), { ok: true, value: null });
  assert.deepEqual(parseFee(''), { ok: true, value: { fee: null, loanText: false } });
  assert.deepEqual(parseFee('0'), { ok: true, value: { fee: 0, loanText: false } });
  assert.deepEqual(parseFee('loan transfer'), { ok: true, value: { fee: 0, loanText: true } });
  assert.deepEqual(parseFee('End of loan'), { ok: true, value: { fee: 0, loanText: false } });
  assert.deepEqual(parseFee('12.5m?'), { ok: false });
  assert.ok(isPseudoClub('Without Club') && isPseudoClub('Retired') && isPseudoClub('Career break') && isPseudoClub('Unknown'));
  assert.ok(!isPseudoClub('Unknown Rovers'));
  assert.equal(normaliseName('Kylian Mbappé'), 'kylian mbappe');
  assert.equal(normaliseName('Martin Ødegaard'), 'martin odegaard');
  assert.ok(clubSimilarity('Man City', 'Manchester City') >= 0.5);
  assert.equal(clubSimilarity('Southport Ath.', 'Southport Athletic'), 1);
  assert.ok(clubSimilarity('Man City', 'Liverpool FC') < 0.5);
});
