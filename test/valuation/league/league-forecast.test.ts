import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateDemoWorld } from '../../../src/data/demo/index.js';
import { buildSnapshot, withSeasonClubs, type Snapshot } from '../../../src/domain/snapshot.js';
import { actualLeagueTable, fitImpactModel, promotedStrength, squadAnalysis, withModelRatings, type ImpactArtifact } from '../../../src/valuation/impact/index.js';
import { SQUAD_ONLY_BLEND, type PromotedBlend } from '../../../src/valuation/league/promoted.js';
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

test('a promoted club ranks where the blend of its squad and the promoted clubs\' finish puts it', () => {
  const [league, other] = leagues;
  const members = [...snap.clubsOfLeague.get(league)!];
  const promoted = snap.clubsOfLeague.get(other)![0];
  const next = [...members.slice(0, -1), promoted];
  const moved = withSeasonClubs(snap, next.map((club_id) => ({ competition_id: league, season: snap.analysisSeason, club_id })), 'moved');
  const n = next.length;
  const withBlend = (promotedBlend: PromotedBlend): ImpactArtifact => ({ ...art, settings: { ...art.settings, promotedBlend } });
  const rankOf = (a: ImpactArtifact) => leagueForecast(a, moved, league).clubs.findIndex((c) => c.clubId === promoted) + 1;

  // the squad alone: no shift, the tie's strength
  const squadOnly = promotedStrength(withBlend(SQUAD_ONLY_BLEND), moved, promoted)!;
  assert.ok(Math.abs(squadOnly.shift) < 1e-6);
  assert.ok(Math.abs(squadOnly.blendedPlace - squadOnly.squadPlace) < 1e-12);
  assert.equal(promotedStrength(art, moved, members[0]), null, 'a club that stays has no blend');

  // no weight on the squad: at the league's promoted finish, whatever its squad says
  const prior = withBlend({ squadWeight: 0, offset: 0 });
  const p = promotedStrength(prior, moved, promoted)!;
  assert.equal(p.blendedPlace, p.priorPlace);
  assert.ok(Math.abs(rankOf(prior) - (1 + p.priorPlace * (n - 1))) <= 1.5, `rank ${rankOf(prior)} vs ${1 + p.priorPlace * (n - 1)}`);
  // the ends of the table
  assert.equal(rankOf(withBlend({ squadWeight: 0, offset: 1 })), n);
  assert.equal(rankOf(withBlend({ squadWeight: 0, offset: -1 })), 1);
  // the places still average (n + 1) / 2: the shift moves one club, the table shares the places out
  const f = leagueForecast(prior, moved, league);
  assert.ok(Math.abs(f.clubs.reduce((a, c) => a + c.expectedPosition, 0) / n - (n + 1) / 2) < 1e-9);
});
