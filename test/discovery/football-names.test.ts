import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { clubAliases, competitionAliases } from '../../src/discovery/aliases.js';
import { firstTeamName, isYouthOrReserveSide } from '../../src/domain/club-sides.js';
import { RESULT_TYPES, SearchIndex } from '../../src/discovery/search-index.js';
import { EVERYTHING } from '../../src/discovery/scope.js';
import { buildSnapshot } from '../../src/domain/snapshot.js';
import { AS_OF, clubId, playerId, tinyWorld, type TinyPlayer } from './tiny-world.js';

const PLAYERS: TinyPlayer[] = [
  { name: 'Kevin De Bruyne', club: 'A1', value: 50e6 },
  { name: 'Alexandre De Bruyn', club: 'A2', value: 0.25e6 },
  { name: 'Virgil van Dijk', club: 'A1', value: 30e6 },
  { name: 'Lex van Dijk', club: 'A2', value: 0.1e6 },
  { name: 'Marc-André ter Stegen', club: 'B1', value: 28e6 },
  { name: 'Vinícius', club: 'A2', value: 1.2e6 },
  { name: 'Vinicius Junior', club: 'A1', value: 180e6 },
  { name: 'Rodri', club: 'B1', value: 120e6 },
  { name: 'Rodrigo Bentancur', club: 'A1', value: 35e6 },
  { name: 'Pedro', club: 'A2', value: 22e6 },
  { name: 'Pedro Neto', club: 'A1', value: 55e6 },
  { name: 'Youth Star', club: 'X', value: 900e6 },
];

/** The tiny world with real club and competition names, and a youth side worth more than its first team. */
function world() {
  const w = tinyWorld(PLAYERS);
  const extra = [
    ['PSG', 'Paris Saint-Germain'], ['PSG19', 'Paris SG U19'], ['PSGB', 'Paris Saint-Germain B'], ['PFC', 'Paris FC'],
    ['BAR', 'FC Barcelona'], ['BARB', 'FC Barcelona B'], ['BSC', 'Barcelona SC'], ['MU', 'Manchester United'], ['MC', 'Manchester City'],
    ['MU21', 'Man Utd U21'],
  ];
  for (const [key, name] of extra) w.clubs.push({ id: clubId(key), registry_a_id: null, name, country: null, is_national_team: false });
  w.competitions.push({ id: 'LALIGA', name: 'Laliga', country: 'Spain', type: 'DOMESTIC_LEAGUE', tier: 1, registry_a_code: null });
  w.competitions.push({ id: 'UEFA_CHAMPIONS_LEAGUE', name: 'Uefa Champions League', country: null, type: 'INTERNATIONAL_CUP', tier: null, registry_a_code: null });
  w.competitions.push({ id: 'UEFA_CHAMPIONS_LEAGUE_QUALIFIKATION', name: 'Uefa Champions League Qualifikation', country: null, type: 'INTERNATIONAL_CUP', tier: null, registry_a_code: null });
  // The youth star plays for PSG's U19: the youth side is worth more than the first team (which holds nobody).
  const step = w.career_steps.find((s) => s.player_id === playerId('Youth Star'))!;
  step.club_id = clubId('PSG19');
  return w;
}

const index = SearchIndex.build(buildSnapshot(world(), AS_OF, 'tiny-names'));
const first = (q: string, types = RESULT_TYPES) => index.search({ q, types, limit: 10, scope: EVERYTHING }).map((r) => r.name);

describe('search knows football\'s names', () => {
  test('aliases kept as data name a club or competition exactly, with or without its spaces', () => {
    assert.equal(first('psg')[0], 'Paris Saint-Germain');
    assert.equal(first('PSG')[0], 'Paris Saint-Germain');
    assert.equal(first('barca')[0], 'FC Barcelona');
    assert.equal(first('barça')[0], 'FC Barcelona');
    assert.equal(first('man utd')[0], 'Manchester United');
    assert.equal(first('man city')[0], 'Manchester City');
    assert.equal(first('bayern munchen')[0], 'Bayern Munich');
    assert.equal(first('bayern münchen')[0], 'Bayern Munich');
    assert.equal(first('la liga')[0], 'Laliga');
    assert.equal(first('champions league')[0], 'Uefa Champions League');
  });

  test('a first team ranks above its youth and reserve sides, whatever they are worth', () => {
    const clubs = first('psg', ['club']);
    assert.equal(clubs[0], 'Paris Saint-Germain');
    assert.ok(clubs.includes('Paris SG U19'), 'the youth side is found by the alias too');
    const paris = first('paris', ['club']);
    assert.ok(paris.indexOf('Paris FC') < paris.indexOf('Paris SG U19'), 'any first team before a youth side among equals');
    const barcelona = first('barcelona', ['club']);
    assert.ok(barcelona.indexOf('Barcelona SC') < barcelona.indexOf('FC Barcelona B'));
    assert.equal(first('man utd', ['club']).join('|'), 'Manchester United|Man Utd U21');
  });

  test('names written without their spaces or particles', () => {
    assert.equal(first('debruyne')[0], 'Kevin De Bruyne');
    assert.equal(first('vandijk')[0], 'Virgil van Dijk');
    assert.equal(first('terstegen')[0], 'Marc-André ter Stegen');
    assert.equal(first('kevindebruyne')[0], 'Kevin De Bruyne');
    assert.equal(first('vandij')[0], 'Virgil van Dijk', 'a prefix of the joined name');
  });

  test('the famous player of a common name comes first; an exact name still wins against a near equal', () => {
    assert.deepEqual(first('vinicius', ['player']).slice(0, 2), ['Vinicius Junior', 'Vinícius']);
    assert.equal(first('rodri', ['player'])[0], 'Rodri');
    // Pedro Neto is worth 2.5 times Pedro, not ten: the exact full name keeps its place.
    assert.equal(first('pedro', ['player'])[0], 'Pedro');
  });

  test('the rules of before hold: accents, prefixes, one typo', () => {
    assert.equal(first('vini jun')[0], 'Vinicius Junior');
    assert.equal(first('stegen marc')[0], 'Marc-André ter Stegen');
    assert.equal(first('bruyme')[0], 'Kevin De Bruyne');
  });
});

describe('the alias table and club sides', () => {
  test('aliases resolve by any of a group\'s names, and a competition by its id', () => {
    assert.ok(clubAliases('Paris Saint-Germain').some((a) => a.compact === 'psg'));
    assert.ok(clubAliases('PARIS SAINT GERMAIN').some((a) => a.compact === 'psg'));
    assert.ok(competitionAliases('Primera División', 'LALIGA').some((a) => a.compact === 'laliga'));
    assert.deepEqual(clubAliases('Nowhere Town'), []);
  });

  test('youth and reserve sides and their first team', () => {
    const cases: Array<[string, string | null]> = [
      ['Paris SG U19', 'Paris SG'], ['FC Barcelona B', 'FC Barcelona'], ['Bayern Munich II', 'Bayern Munich'],
      ['Real Madrid Juvenil A', 'Real Madrid'], ['Inter Milan Primavera', 'Inter Milan'], ['Jong Ajax', 'Ajax'],
      ['Man Utd U21', 'Man Utd'], ['Borussia Dortmund U23', 'Borussia Dortmund'], ['Real Madrid Castilla', 'Real Madrid'],
      ['Paris Saint-Germain', null], ['Bayer 04 Leverkusen', null], ['Clermont Foot 63', null], ['Stade Brestois 29', null], ['B', null],
    ];
    for (const [name, team] of cases) {
      assert.equal(firstTeamName(name), team, name);
      assert.equal(isYouthOrReserveSide(name), team !== null, name);
    }
  });
});
