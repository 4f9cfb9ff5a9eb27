import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateDemoWorld } from '../../../src/data/demo/index.js';
import { buildSnapshot, withSeasonClubs, type Snapshot } from '../../../src/domain/snapshot.js';
import { actualLeagueTable, fitImpactModel, squadAnalysis, withModelRatings, type ImpactArtifact } from '../../../src/valuation/impact/index.js';
import { leagueForecast } from '../../../src/valuation/league/forecast.js';

// The demo world with its generator's ratings standing in for the model's (as in impact.test.ts).
const AS_OF = '2026-06-30';
const world = generateDemoWorld({ seed: 42, asOf: AS_OF });
const snap: Snapshot = withModelRatings(buildSnapshot(world, AS_OF, 'test'), world.ratings.map((r) => ({ ...r, source: 'model' })));
const art: ImpactArtifact = fitImpactModel(snap);
const leagues = [...snap.clubsOfLeague.keys()].sort();

test('one simulation per league: places shared out, expected positions average (n+1)/2, money never negative', () => {
  for (const league of leagues.slice(0, 3)) {
    const f = leagueForecast(art, snap, league);
    const n = snap.analysisClubsOfLeague.get(league)!.length;
    assert.equal(f.clubs.length, n);
    assert.ok(Math.abs(f.clubs.reduce((a, c) => a + c.expectedPosition, 0) / n - (n + 1) / 2) < 1e-9);
    for (let p = 0; p < n; p++) assert.ok(Math.abs(f.clubs.reduce((a, c) => a + c.positionProbabilities[p], 0) - 1) < 1e-9);
    for (const c of f.clubs) assert.ok(c.expectedRevenueEur >= 0);
    // the points a season hands out: 2 or 3 a match
    const points = f.clubs.reduce((a, c) => a + c.expectedPoints, 0);
    assert.ok(points >= 2 * n * (n - 1) && points <= 3 * n * (n - 1));
  }
});

test('every club\'s actual squad analysis reads the forecast\'s simulation; the table is computed once per snapshot', () => {
  const league = leagues[1];
  const f = leagueForecast(art, snap, league);
  assert.equal(actualLeagueTable(art, snap, league), actualLeagueTable(art, snap, league), 'kept for the snapshot');
  for (const c of f.clubs) {
    const a = squadAnalysis(art, snap, { clubId: c.clubId });
    assert.equal(a.expectedLeagueRank, Math.round(c.expectedPosition * 100) / 100);
    assert.deepEqual(a.positionProbabilities, c.positionProbabilities);
    assert.ok(a.standardError <= 0.05);
  }
});

test('deterministic: a fresh snapshot (nothing kept) and a JSON copy of the model give the same forecast', () => {
  const league = leagues[2];
  const a = leagueForecast(art, snap, league);
  const fresh = withSeasonClubs(snap, [], 'another');
  assert.notEqual(actualLeagueTable(art, fresh, league), actualLeagueTable(art, snap, league));
  assert.deepEqual(leagueForecast(JSON.parse(JSON.stringify(art)) as ImpactArtifact, fresh, league), a);
});

test('membership: a promoted club takes a relegated one\'s place, and the table follows', () => {
  const [league, other] = leagues;
  const members = [...snap.clubsOfLeague.get(league)!];
  const promoted = snap.clubsOfLeague.get(other)![0];
  const next = [...members.slice(0, -1), promoted];
  const moved = withSeasonClubs(snap, next.map((club_id) => ({ competition_id: league, season: snap.analysisSeason, club_id })), 'moved');
  const f = leagueForecast(art, moved, league);
  assert.deepEqual(f.clubs.map((c) => c.clubId).sort(), [...next].sort());
  const n = next.length;
  assert.ok(Math.abs(f.clubs.reduce((a, c) => a + c.expectedPosition, 0) / n - (n + 1) / 2) < 1e-9);
  assert.ok(!leagueForecast(art, moved, other).clubs.some((c) => c.clubId === promoted));
  assert.equal(squadAnalysis(art, moved, { clubId: promoted }).expectedLeagueRank, Math.round(f.clubs.find((c) => c.clubId === promoted)!.expectedPosition * 100) / 100);
});
