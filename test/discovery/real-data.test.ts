import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { isClubCovered, isCompetitionCovered, isPlayerCovered } from '../../src/access/plans.js';
import type { Coverage } from '../../src/access/interface.js';
import { ListIndex, SORT_KEYS } from '../../src/discovery/list-index.js';
import { RESULT_TYPES, SearchIndex } from '../../src/discovery/search-index.js';
import { EVERYTHING, type Scope } from '../../src/discovery/scope.js';
import { playerFacts } from '../../src/domain/player-facts.js';
import { buildSnapshot, type Snapshot } from '../../src/domain/snapshot.js';
import { defaultRateTable } from '../../src/money/rates.js';

import { loadRealWorld, REAL_DATA_DIR as DIR, realDataSkip as skip, realWorldCachePath } from '../helpers/real-world.js';

/**
 * Discovery on the shared real data, as of 2024-06-30 (its last day). The world the import test stored
 * is read back (`.cache/`), else imported here and kept there; TOUCHLINE_WORLD_CACHE may name another
 * JSON copy of an import (kept outside the repository).
 */
const AS_OF = '2024-06-30';

let snapshot: Snapshot;
let search: SearchIndex;

function scopeOf(coverage: Coverage): Scope {
  const leagueOf = (id: string) => snapshot.leagueOfClub.get(id);
  return {
    all: coverage.all,
    club: (id) => isClubCovered(coverage, id, leagueOf),
    competition: (id) => isCompetitionCovered(coverage, id),
    player: (team, owner) => isPlayerCovered(coverage, team, owner, leagueOf),
  };
}

describe('discovery on the real data', { skip, timeout: 600_000 }, () => {
  before(async () => {
    const { world, dataVersion } = await loadRealWorld(DIR, true, process.env.TOUCHLINE_WORLD_CACHE ?? realWorldCachePath());
    snapshot = buildSnapshot(world, AS_OF, dataVersion);
    search = SearchIndex.build(snapshot);
  });

  const expect: Array<[string, string]> = [
    ['mbappe', 'Kylian Mbappé'],
    ['odegaard', 'Martin Ødegaard'],
    ['vini jun', 'Vinicius Junior'],
    ['haalnd', 'Erling Haaland'],
    ['ødegaard', 'Martin Ødegaard'],
    ['haaland erling', 'Erling Haaland'],
  ];
  for (const [q, name] of expect) {
    test(`"${q}" finds ${name} first`, () => {
      const first = search.search({ q, types: RESULT_TYPES, limit: 10, scope: EVERYTHING })[0];
      assert.equal(first?.type, 'player');
      assert.equal(first?.name, name);
    });
  }

  test('a one-league plan never sees another league\'s players or clubs', () => {
    const scope = scopeOf({ all: false, competitions: new Set(['PREMIER_LEAGUE']), clubs: new Set() });
    assert.deepEqual(search.search({ q: 'mbappe', types: RESULT_TYPES, limit: 10, scope }), []);
    for (const q of ['ma', 'jo', 'united', 'haaland', 'real madrid']) {
      for (const r of search.search({ q, types: RESULT_TYPES, limit: 50, scope })) {
        if (r.type === 'club') assert.equal(r.competition, 'PREMIER_LEAGUE', `${q}: ${r.name}`);
        if (r.type === 'competition') assert.equal(r.competition, 'PREMIER_LEAGUE');
        if (r.type === 'player') {
          const f = playerFacts(snapshot, snapshot.players.get(r.service_id)!);
          const leagues = [f.currentTeamId, f.owningClubId].map((c) => (c === null ? undefined : snapshot.leagueOfClub.get(c)));
          assert.ok(leagues.includes('PREMIER_LEAGUE'), `${q}: ${r.name}`);
        }
      }
    }
    const pl = search.search({ q: 'haaland', types: ['player'], limit: 10, scope });
    assert.equal(pl[0]?.name, 'Erling Haaland', 'he plays in the league');
  });

  test('a full walk of a filtered list matches total with no repeats, under every sort', () => {
    const list = ListIndex.build(snapshot, null);
    const money = { code: 'EUR', rates: defaultRateTable() };
    for (const key of SORT_KEYS) {
      for (const descending of [false, true]) {
        const seen = new Set<string>();
        let after: string | null = null;
        let total = -1;
        do {
          const page = list.list({ filter: { competitionId: 'PREMIER_LEAGUE', positions: ['CB', 'LB', 'RB'] }, sort: { key, descending }, limit: 50, after, scope: EVERYTHING, scopeKey: 'all', money });
          total = page.total;
          for (const p of page.items) {
            assert.ok(!seen.has(p.service_id), `${key} ${descending}: ${p.name} twice`);
            seen.add(p.service_id);
            assert.equal(p.competition, 'PREMIER_LEAGUE');
          }
          after = page.lastOfPage;
        } while (after !== null);
        assert.ok(total > 50);
        assert.equal(seen.size, total, `${key} ${descending}`);
      }
    }
  });
});
