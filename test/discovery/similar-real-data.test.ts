import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { ListIndex } from '../../src/discovery/list-index.js';
import { RESULT_TYPES, SearchIndex } from '../../src/discovery/search-index.js';
import { SimilarIndex } from '../../src/discovery/similar-index.js';
import { EVERYTHING } from '../../src/discovery/scope.js';
import { playerFacts } from '../../src/domain/player-facts.js';
import { POSITION_GROUP, type PositionCode } from '../../src/domain/positions.js';
import { buildSnapshot, type Snapshot } from '../../src/domain/snapshot.js';
import { defaultRateTable } from '../../src/money/rates.js';
import { FOOTBALL_NAMES } from '../helpers/football-names.js';

import { loadRealWorld, REAL_DATA_DIR as DIR, realDataSkip as skip, realWorldCachePath } from '../helpers/real-world.js';

/**
 * Issue 32 on the shared real data as of 2024-06-30: football's names in search, and players like
 * well-known ones (without trained models: level is the crowd value and the EA overall where known).
 * TOUCHLINE_WORLD_CACHE may name a JSON copy of an import kept outside the repository.
 */
const AS_OF = '2024-06-30';
let snapshot: Snapshot;
let search: SearchIndex;
let similar: SimilarIndex;

describe('football\'s names and similar players on the real data', { skip, timeout: 600_000 }, () => {
  before(async () => {
    const { world, dataVersion } = await loadRealWorld(DIR, true, process.env.TOUCHLINE_WORLD_CACHE ?? realWorldCachePath());
    snapshot = buildSnapshot(world, AS_OF, dataVersion);
    search = SearchIndex.build(snapshot);
    similar = SimilarIndex.build(snapshot, ListIndex.build(snapshot, null));
  });

  for (const [q, name] of FOOTBALL_NAMES) {
    test(`"${q}" finds ${name} first`, () => {
      assert.equal(search.search({ q, types: RESULT_TYPES, limit: 5, scope: EVERYTHING })[0]?.name, name);
    });
  }

  test('a first team before its youth and reserve sides', () => {
    const clubs = search.search({ q: 'psg', types: ['club'], limit: 10, scope: EVERYTHING }).map((r) => r.name);
    assert.equal(clubs[0], 'Paris Saint-Germain');
    assert.ok(clubs.length > 1, 'its youth sides are found too');
  });

  test('players like well-known ones play in their position group, at their level, never themselves', () => {
    const money = { code: 'EUR', rates: defaultRateTable() };
    const ea = new Map(snapshot.externalRatings.filter((r) => r.season === 2023).map((r) => [r.player_id, r.rating]));
    let exact = 0;
    let total = 0;
    for (const name of ['Erling Haaland', 'Rodri', 'Virgil van Dijk', 'Alisson', 'Bukayo Saka', 'Achraf Hakimi', 'Jamal Musiala', 'Declan Rice']) {
      const hit = search.search({ q: name, types: ['player'], limit: 1, scope: EVERYTHING })[0];
      assert.ok(hit?.type === 'player', name);
      const me = playerFacts(snapshot, snapshot.players.get(hit.service_id)!);
      const myValue = hit.market_value_in_eur!;
      const top = similar.similar({ playerId: hit.service_id, filter: {}, limit: 5, scope: EVERYTHING, money });
      assert.equal(top.length, 5);
      for (const p of top) {
        assert.notEqual(p.service_id, hit.service_id, name);
        assert.equal(POSITION_GROUP[p.position as PositionCode], POSITION_GROUP[me.position as PositionCode], `${name}: ${p.name}`);
        // His level: a crowd value within a factor of five, or an EA overall within four points.
        const value = p.market_value_in_eur ?? 0;
        const closeValue = value >= myValue / 5 && value <= myValue * 5;
        const closeRating = Math.abs((ea.get(p.service_id) ?? 0) - (ea.get(hit.service_id) ?? 99)) <= 4;
        assert.ok(closeValue || closeRating, `${name}: ${p.name} at another level`);
        total++;
        if (p.position === me.position) exact++;
      }
    }
    assert.ok(exact >= 0.75 * total, `${exact} of ${total} share the exact position`);
  });
});
