import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Snapshot } from '../../src/domain/snapshot.js';
import { firstTeamName, isSideOf, isYouthOrReserveSide } from '../../src/domain/club-sides.js';

test('a side\'s first team is read from its name, in the spellings the real data uses', () => {
  const cases: Array<[string, string | null]> = [
    ['West Ham Yth.', 'West Ham'], ['Emirates Res.', 'Emirates'], ['Jong KVM', 'KVM'], ['Akron-2', 'Akron'], ['Ross Cou.U18', 'Ross Cou'],
    ['Atlético Madrid Juvenil A', 'Atlético Madrid'], ['Barcelona Atlètic', 'Barcelona'], ['Bayern Munich II', 'Bayern Munich'],
    // first teams whose names end or continue like a side's
    ['Boca Juniors', null], ['Argentinos Juniors', null], ['Willem II Tilburg', null], ['Clermont Foot 63', null], ['B', null],
  ];
  for (const [name, team] of cases) {
    assert.equal(firstTeamName(name), team, name);
    assert.equal(isYouthOrReserveSide(name), team !== null, name);
  }
});

test('a side belongs to the first team its name names best, abbreviations included', () => {
  const clubs = new Map([
    ['BVB', 'Borussia Dortmund'], ['BVB2', 'Bor. Dortmund II'], ['AV', 'Aston Villa'], ['AVY', 'A. Villa Yth.'], ['V', 'Villarreal CF'],
    ['WH', 'West Ham United'], ['WHY', 'West Ham Yth.'], ['BOCA', 'Boca Juniors'], ['BAY', 'Bayern Munich'], ['BAYY', 'B. München Yth.'],
    ['I', 'Inter Milan'], ['INT', 'Sport Club Internacional'], ['IU', 'Inter U19'], ['AJ', 'Ajax Amsterdam'], ['JA', 'Jong Ajax'],
  ].map(([id, name]) => [id, { id, name, registry_a_id: null, country: null, is_national_team: false }]));
  const fake = { clubs } as unknown as Snapshot;
  const yes: [string, string][] = [['BVB', 'BVB2'], ['AV', 'AVY'], ['WH', 'WHY'], ['BAY', 'BAYY'], ['I', 'IU'], ['AJ', 'JA'], ['BOCA', 'BOCA']];
  const no: [string, string][] = [['V', 'AVY'], ['INT', 'IU'], ['BOCA', 'WHY'], ['AJ', 'BVB2']];
  for (const [club, side] of yes) assert.ok(isSideOf(fake, club, side), `${side} of ${club}`);
  for (const [club, side] of no) assert.ok(!isSideOf(fake, club, side), `${side} not of ${club}`);
});
