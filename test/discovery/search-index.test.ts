import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildSnapshot } from '../../src/domain/snapshot.js';
import { RESULT_TYPES, SearchIndex, type SearchResult } from '../../src/discovery/search-index.js';
import { EVERYTHING, type Scope } from '../../src/discovery/scope.js';
import { AS_OF, clubId, tinyWorld, type TinyPlayer } from './tiny-world.js';

const PLAYERS: TinyPlayer[] = [
  { name: 'Martin Ødegaard', club: 'A1', value: 90e6 },
  { name: 'Kylian Mbappé', club: 'A1', value: 180e6 },
  { name: 'Ethan Mbappé', club: 'B1', value: 5e6 },
  { name: 'Simon Kjær', club: 'A2', value: 1e6 },
  { name: 'Æsir Holm', club: 'A2', value: 2e6 },
  { name: 'Jonas Strauß', club: 'B1', value: 3e6 },
  { name: 'Łukasz Piszczek', club: 'B1', value: 3e6 },
  { name: 'Đorđe Petrović', club: 'A2', value: 3e6 },
  { name: 'Barış Yıldız', club: 'B1', value: 3e6 },
  { name: 'İlkay Gündoğan', club: 'B1', value: 20e6 },
  { name: 'Pedro Peña', club: 'A1', value: 3e6 },
  { name: 'Hakan Çelik', club: 'B1', value: 3e6 },
  { name: "N'Golo Kanté", club: 'A1', value: 10e6 },
  { name: 'Jean-Philippe Mateta', club: 'A2', value: 20e6 },
  { name: 'Vinicius Junior', club: 'A1', value: 200e6 },
  { name: 'Vinicius Souza', club: 'A2', value: 10e6 },
  { name: 'Erling Haaland', club: 'B1', value: 180e6 },
  { name: 'Haland Berg', club: 'A2', value: 1e6 },
  { name: 'Alex Same', club: 'A1', value: 4e6 },
  { name: 'Bob Same', club: 'B1', value: 4e6 },
  { name: 'Carl Same', club: 'A2', value: 7e6 },
  { name: 'Same Same', club: 'A2', value: 1e6 },
  { name: 'Nobody Unvalued', club: 'A1', value: null },
  { name: 'Drifter Free', club: 'X', value: 1e6 },
];

const snapshot = buildSnapshot(tinyWorld(PLAYERS), AS_OF, 'tiny');
const index = SearchIndex.build(snapshot);
const find = (q: string, opts: { scope?: Scope; types?: SearchResult['type'][]; limit?: number } = {}) =>
  index.search({ q, types: opts.types ?? RESULT_TYPES, limit: opts.limit ?? 10, scope: opts.scope ?? EVERYTHING });
const names = (q: string, opts: Parameters<typeof find>[1] = {}) => find(q, opts).map((r) => r.name);

describe('search: matching as a person types', () => {
  const folded: Array<[string, string]> = [
    ['odegaard', 'Martin Ødegaard'],
    ['kjaer', 'Simon Kjær'],
    ['aesir', 'Æsir Holm'],
    ['strauss', 'Jonas Strauß'],
    ['lukasz', 'Łukasz Piszczek'],
    ['dorde', 'Đorđe Petrović'],
    ['yildiz', 'Barış Yıldız'],
    ['ilkay', 'İlkay Gündoğan'],
    ['İLKAY', 'İlkay Gündoğan'],
    ['mbappe', 'Kylian Mbappé'],
    ['pena', 'Pedro Peña'],
    ['celik', 'Hakan Çelik'],
    ["n'golo", "N'Golo Kanté"],
    ['ngolo', "N'Golo Kanté"],
    ['n golo', "N'Golo Kanté"],
    ['jean-philippe', 'Jean-Philippe Mateta'],
    ['jean philippe', 'Jean-Philippe Mateta'],
    ['jeanphilippe', 'Jean-Philippe Mateta'],
    ['MALMÖ', 'Malmö FF'],
  ];
  for (const [q, name] of folded) test(`${q} finds ${name} first`, () => assert.equal(names(q)[0], name));

  test('a name typed with its accents finds the plain spelling too', () => {
    assert.equal(names('Ødegaard')[0], 'Martin Ødegaard');
    assert.equal(names('Mbappé')[0], 'Kylian Mbappé');
  });

  test('words in any order, each may be a prefix', () => {
    assert.equal(names('vini jun')[0], 'Vinicius Junior');
    assert.equal(names('jun vini')[0], 'Vinicius Junior');
    assert.deepEqual(names('vini'), ['Vinicius Junior', 'Vinicius Souza']);
    assert.deepEqual(names('mateta jean'), ['Jean-Philippe Mateta']);
  });

  test('every word must match', () => {
    assert.deepEqual(names('vini xyz'), []);
  });

  test('one typo in a word of five or more letters, none in a shorter one', () => {
    assert.equal(names('haalnd')[0], 'Erling Haaland');
    assert.equal(names('odegard')[0], 'Martin Ødegaard');
    assert.equal(names('mbapppe')[0], 'Kylian Mbappé');
    assert.deepEqual(names('haalnx'), [], 'two edits');
    assert.deepEqual(names('kjar'), [], 'four letters: no typo allowed (kjar is not a prefix of kjaer)');
  });

  test('exact full-name match first, then prefixes, then typos', () => {
    // "same same" is exact for Same Same (low value); the others match "same" twice as a prefix.
    assert.deepEqual(names('same same'), ['Same Same', 'Carl Same', 'Alex Same', 'Bob Same']);
    // "haland" is a whole word of Haland Berg (prefix) and one typo from Haaland (typo), whatever the values.
    assert.deepEqual(names('haland'), ['Haland Berg', 'Erling Haaland']);
  });

  test('ties: the higher current market value, then the name', () => {
    assert.deepEqual(names('same'), ['Carl Same', 'Alex Same', 'Bob Same', 'Same Same']);
    assert.deepEqual(names('mbappe'), ['Kylian Mbappé', 'Ethan Mbappé']);
  });

  test('a value dated after the as-of date is never the current one', () => {
    const p = find('nobody')[0];
    assert.equal(p.type, 'player');
    assert.equal(p.type === 'player' && p.market_value_in_eur, null);
    assert.equal(find('kylian')[0].type === 'player' && (find('kylian')[0] as { market_value_in_eur: number }).market_value_in_eur, 180e6);
  });

  test('clubs and competitions, and the type filter', () => {
    assert.deepEqual(find('bayern')[0], { type: 'club', name: 'Bayern Munich', service_id: clubId('B1'), registry_a_id: 3, competition: 'LEAGUE_B' });
    assert.deepEqual(find('bundesliga')[0], { type: 'competition', name: 'Bundesliga Beta', competition: 'LEAGUE_B', competition_type: 'DOMESTIC_LEAGUE', country: 'Germany' });
    assert.deepEqual(names('real', { types: ['player'] }), []);
    assert.deepEqual(names('real', { types: ['club'] }), ['Real Sociedad']);
  });

  test('a player result carries what the list shows', () => {
    const p = find('erling haaland')[0];
    assert.deepEqual(Object.keys(p).sort(), ['age', 'club_id', 'club_name', 'market_value_in_eur', 'name', 'nationality', 'position', 'service_id', 'type']);
    assert.equal(p.type === 'player' && p.club_name, 'Bayern Munich');
  });

  test('limit', () => {
    assert.equal(find('same', { limit: 2 }).length, 2);
  });

  test('coverage: only what the scope covers', () => {
    const leagueOf = (id: string | null) => (id === null ? undefined : snapshot.leagueOfClub.get(id));
    const onlyA: Scope = {
      all: false,
      club: (id) => leagueOf(id) === 'LEAGUE_A',
      competition: (id) => id === 'LEAGUE_A',
      player: (team, owner) => leagueOf(team) === 'LEAGUE_A' || leagueOf(owner) === 'LEAGUE_A',
    };
    assert.deepEqual(names('mbappe', { scope: onlyA }), ['Kylian Mbappé']);
    assert.deepEqual(names('bayern', { scope: onlyA }), []);
    assert.deepEqual(names('bundesliga', { scope: onlyA }), []);
    assert.deepEqual(names('league', { scope: onlyA }), ['League Alpha']);
    assert.deepEqual(names('drifter', { scope: onlyA }), []);
  });

  test('a query of punctuation only finds nothing', () => {
    assert.deepEqual(find('--'), []);
  });
});
