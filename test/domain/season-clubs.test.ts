import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateDemoWorld } from '../../src/data/demo/index.js';
import { buildSnapshot, withSeasonClubs } from '../../src/domain/snapshot.js';

const world = generateDemoWorld({ seed: 3, asOf: '2026-06-30' });
const base = buildSnapshot(world, '2026-06-30', 'v');
const [league, other] = [...base.clubsOfLeague.keys()].sort();

test('by default the analysis season holds the current season\'s clubs', () => {
  assert.equal(base.membershipVersion, 'none');
  assert.deepEqual([...base.analysisClubsOfLeague], [...base.clubsOfLeague]);
  assert.deepEqual([...base.analysisLeagueOfClub], [...base.leagueOfClub]);
  assert.deepEqual(withSeasonClubs(base, [], 'none').analysisClubsOfLeague, base.clubsOfLeague);
});

test('a set league holds exactly its clubs; a club set there leaves its other league; other seasons change nothing', () => {
  const members = base.clubsOfLeague.get(league)!;
  const promoted = base.clubsOfLeague.get(other)![0];
  const next = [...members.slice(1), promoted];
  const rows = next.map((club_id) => ({ competition_id: league, season: base.analysisSeason, club_id }));
  const ignored = [
    { competition_id: league, season: base.currentSeason, club_id: members[0] },
    { competition_id: league, season: base.analysisSeason, club_id: 'C' + '0'.repeat(26) },
  ];
  const s = withSeasonClubs(base, [...rows, ...ignored], 'm1');
  assert.equal(s.membershipVersion, 'm1');
  assert.deepEqual([...s.analysisClubsOfLeague.get(league)!].sort(), [...next].sort());
  assert.equal(s.analysisLeagueOfClub.get(promoted), league);
  assert.equal(s.analysisLeagueOfClub.has(members[0]), false, 'relegated: in no league we hold');
  assert.ok(!s.analysisClubsOfLeague.get(other)!.includes(promoted));
  assert.equal(s.analysisClubsOfLeague.get(other)!.length, base.clubsOfLeague.get(other)!.length - 1);
  // The current season and the rest of the snapshot are untouched.
  assert.equal(s.clubsOfLeague, base.clubsOfLeague);
  assert.equal(s.leagueOfClub.get(members[0]), league);
  assert.equal(s.players, base.players);
  // Sorted by name like the current season's lists.
  const names = s.analysisClubsOfLeague.get(league)!.map((c) => s.clubs.get(c)!.name);
  assert.deepEqual(names, [...names].sort((a, b) => a.localeCompare(b)));
});
