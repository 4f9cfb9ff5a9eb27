import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateDemoWorld } from '../../src/data/demo/index.js';
import { buildSnapshot } from '../../src/domain/snapshot.js';

const world = generateDemoWorld({ seed: 3, asOf: '2026-06-30' });

test('a snapshot at an earlier date holds nothing dated after it', () => {
  const asOf = '2023-12-31';
  const s = buildSnapshot(world, asOf, 'v');
  assert.equal(s.currentSeason, 2023);
  assert.equal(s.analysisSeason, 2024);
  for (const steps of s.careers.values()) for (const st of steps) assert.ok(st.start_date <= asOf && (st.end_date === null || st.end_date <= asOf));
  for (const vs of s.values.values()) for (const v of vs) assert.ok(v.date <= asOf);
  for (const tr of s.transfers) assert.ok(tr.date <= asOf);
  for (const m of s.matches) assert.ok(m.date <= asOf);
  for (const c of s.contracts.values()) assert.ok(c.signed_date <= asOf);
  for (const rows of s.appearances.values()) for (const a of rows) assert.ok(a.season <= 2023);
  for (const cs of s.clubSeasons) assert.ok(cs.season <= 2023);
  // Steps that had not ended by then are running at the as-of date.
  const later = buildSnapshot(world, '2026-06-30', 'v');
  assert.ok([...s.careers.values()].some((st) => st[st.length - 1].end_date === null));
  assert.ok(later.transfers.length > s.transfers.length);
});

test('once our models have rated the world, analysis also needs a recent rating', () => {
  const [a, b] = world.players.filter((p) => p.analysis_available);
  const ratings = [
    ...world.ratings,
    { player_id: a.id, season: 2025, rating: 70, potential: 75, best_role: 'POACHER', position: 'ST', source: 'model' },
    { player_id: b.id, season: 2020, rating: 70, potential: 75, best_role: 'POACHER', position: 'ST', source: 'model' },
  ];
  const before = buildSnapshot({ ...world, ratings }, '2026-06-30', 'v');
  assert.equal(before.players.get(b.id)!.analysis_available, true, 'no model ratings version: the data flag alone');
  const rated = buildSnapshot({ ...world, ratings }, '2026-06-30', 'v', 'models-1');
  assert.equal(rated.players.get(a.id)!.analysis_available, true);
  assert.equal(rated.players.get(b.id)!.analysis_available, false);
});
