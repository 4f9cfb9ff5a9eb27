import assert from 'node:assert/strict';
import { test } from 'node:test';
import { listIndex, searchIndex } from '../../src/discovery/index.js';
import { buildSnapshot, withSeasonClubs } from '../../src/domain/snapshot.js';
import { withModelRatings } from '../../src/valuation/impact/index.js';
import { clubId, tinyWorld } from './tiny-world.js';

test('naming next season\'s clubs keeps the discovery indexes; other data builds new ones', () => {
  const world = tinyWorld([{ name: 'Erling Haaland', club: 'B1', value: 180e6 }, { name: 'Jude Bellingham', club: 'A1', value: 180e6 }]);
  const base = buildSnapshot(world, '2026-06-30', 'tiny', 'v1');
  const league = [...base.clubsOfLeague.keys()][0];
  const moved = withSeasonClubs(base, [{ season: base.analysisSeason, competition_id: league, club_id: clubId('B1') }], 'm1');
  assert.notEqual(moved, base);
  assert.equal(searchIndex(moved), searchIndex(base));
  assert.equal(listIndex(moved, null), listIndex(base, null));
  const rerated = withModelRatings(base, []);
  assert.notEqual(searchIndex(rerated), searchIndex(base));
  assert.notEqual(searchIndex(buildSnapshot(world, '2026-06-30', 'tiny', 'v1')), searchIndex(base));
});
