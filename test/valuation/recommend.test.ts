import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateDemoWorld } from '../../src/data/demo/index.js';
import { buildSnapshot, type Snapshot } from '../../src/domain/snapshot.js';
import { playerFacts } from '../../src/domain/player-facts.js';
import { fitImpactModel, ImpactError, sportiveImpact, withModelRatings, type ImpactArtifact } from '../../src/valuation/impact/index.js';
import { ratedPlayer, ratingIn } from '../../src/valuation/impact/model.js';
import { clubScreen, isSideOf, screenedOnFieldValueEur, SCREEN_GRID } from '../../src/valuation/recommend/index.js';
import { compareCandidates, type RecommendedCandidate } from '../../src/http/present/recommend.js';

// One demo world for the file, its generator's ratings standing in for the model's (as in impact.test.ts).
const AS_OF = '2026-06-30';
const world = generateDemoWorld({ seed: 42, asOf: AS_OF });
const snap: Snapshot = withModelRatings(buildSnapshot(world, AS_OF, 'test'), world.ratings.map((r) => ({ ...r, source: 'model' })));
const art: ImpactArtifact = fitImpactModel(snap);
const LEAGUE = [...snap.clubsOfLeague.keys()].sort()[0];
const CLUB = [...snap.clubsOfLeague.get(LEAGUE)!].sort()[3];

/** Rated players of the position from other leagues (no club of the league loses them), best first. */
function outsiders(position: string): string[] {
  return [...snap.players.values()]
    .filter((p) => {
      const f = playerFacts(snap, p);
      return f.position === position && f.currentTeamId !== null && snap.analysisLeagueOfClub.get(f.currentTeamId) !== LEAGUE &&
        ratedPlayer(snap, p.id, art.settings) !== null;
    })
    .map((p) => p.id)
    .sort((a, b) => ratedPlayer(snap, b, art.settings)!.rating - ratedPlayer(snap, a, art.settings)!.rating || (a < b ? -1 : 1));
}

function ranks(xs: readonly number[]): number[] {
  const order = xs.map((x, i) => ({ x, i })).sort((a, b) => a.x - b.x);
  const r = new Array<number>(xs.length);
  order.forEach((o, k) => (r[o.i] = k));
  return r;
}
function spearman(a: readonly number[], b: readonly number[]): number {
  const ra = ranks(a), rb = ranks(b);
  const n = a.length;
  const d2 = ra.reduce((s, r, i) => s + (r - rb[i]) ** 2, 0);
  return 1 - (6 * d2) / (n * (n * n - 1));
}

test('the screen: a gain per season and grid rating, never falling as the rating rises, nothing for a stand-in who never starts', () => {
  const screen = clubScreen(art, snap, CLUB, 'CB');
  assert.equal(screen.league, LEAGUE);
  assert.deepEqual(screen.seasons, [snap.analysisSeason, snap.analysisSeason + 1, snap.analysisSeason + 2]);
  assert.deepEqual(screen.grid, SCREEN_GRID);
  for (const gains of screen.gainEur) {
    assert.equal(gains.length, SCREEN_GRID.length);
    // at the replacement rating he is no better than a youth stand-in
    assert.equal(gains[0], 0);
    // one simulation, every rating on the same random numbers: a better player never adds less
    for (let i = 1; i < gains.length; i++) assert.ok(gains[i] >= gains[i - 1] - 1e-6, `${i}: ${gains[i]} < ${gains[i - 1]}`);
    assert.ok(gains[gains.length - 1] > 0, 'a player rated 100 adds something');
  }
  assert.deepEqual(clubScreen(art, snap, CLUB, 'CB'), screen, 'deterministic');
});

test('the estimate follows the exact on-field value of sportive impact', () => {
  const screen = clubScreen(art, snap, CLUB, 'ST');
  const players = outsiders('ST').filter((_, i) => i % 3 === 0).slice(0, 16);
  assert.equal(players.length, 16);
  const est = players.map((id) => {
    const rated = ratedPlayer(snap, id, art.settings)!;
    return screenedOnFieldValueEur(screen, screen.seasons.map((season) => ratingIn(art.ageCurve, rated, season)));
  });
  const exact = players.map((id) => sportiveImpact(art, snap, { playerId: id, clubId: CLUB }).onFieldValueEur);
  const rho = spearman(est, exact);
  const mean = exact.reduce((a, b) => a + b, 0) / exact.length;
  const mae = est.reduce((a, e, i) => a + Math.abs(e - exact[i]), 0) / est.length;
  assert.ok(mean > 0);
  assert.ok(rho >= 0.8, `rank correlation ${rho.toFixed(3)}`);
  assert.ok(mae <= 0.25 * mean, `mean absolute error ${mae.toFixed(0)} against a mean of ${mean.toFixed(0)}`);
  for (const e of est) assert.ok(e >= 0, 'floored at 0 like on_field_value');
});

test('a club without a domestic league has no screen', () => {
  const national = [...snap.clubs.keys()].sort().find((id) => !snap.analysisLeagueOfClub.has(id))!;
  assert.throws(() => clubScreen(art, snap, national, 'CB'), (e: unknown) => e instanceof ImpactError && e.code === 'club_without_league');
});

test('the order of candidates: the sort highest first (a null ROI last), then player id', () => {
  const c = (id: string, roi: number | null, total: number, net: number): RecommendedCandidate => ({
    player_id: id, name: id, age: 25, club_id: null, club_name: null, market_value_in_eur: null, contract_end_date: null,
    expected_transfer_value: 1, expected_transfer_value_in_eur: 1,
    future_transfer_value: 0, future_transfer_value_in_eur: 0, on_field_value: 0, on_field_value_in_eur: 0,
    increase_in_expected_position: 0, playing_time_percentage: 0, total_value_created: total, total_value_created_in_eur: total,
    net_value_created: net, net_value_created_in_eur: net, return_on_investment: roi, warnings: [], reasons: [],
  });
  const list = [c('P5', null, 9e9, 9e9), c('P4', 1.5, 10, -5), c('P3', 2, 5, 3), c('P2', 1.5, 20, 3), c('P1', 1.5, 20, 7), c('P0', 0, 0, -1)];
  assert.deepEqual([...list].sort(compareCandidates('return_on_investment')).map((x) => x.player_id), ['P3', 'P1', 'P2', 'P4', 'P0', 'P5']);
  assert.deepEqual([...list].sort(compareCandidates('net_value_created')).map((x) => x.player_id), ['P5', 'P1', 'P2', 'P3', 'P0', 'P4']);
  assert.deepEqual([...list].sort(compareCandidates('total_value_created')).map((x) => x.player_id), ['P5', 'P1', 'P2', 'P4', 'P3', 'P0']);
});

test('a club\'s youth and reserve sides are told by name, other clubs sharing a word are not', () => {
  const clubs = new Map([
    ['A', 'Arsenal FC'], ['A21', 'Arsenal U21'], ['AT', 'Arsenal Tula'], ['ATU', 'Arsenal Tula U19'], ['B', 'Bayern Munich'], ['B2', 'Bayern II'],
    ['L', 'Bayer 04 Leverkusen'], ['L19', 'Leverkusen U19'], ['R', 'Real Madrid'], ['RC', 'Real Madrid Castilla'], ['W', 'Willem II Tilburg'],
    ['M', 'Manchester United'], ['M21', 'Man Utd U21'], ['MC', 'Manchester City'], ['FCB', 'FC Barcelona'], ['FCBB', 'Barcelona B'],
    ['E', 'RCD Espanyol Barcelona'], ['EB', 'Espanyol B'],
  ].map(([id, name]) => [id, { id, name, registry_a_id: null, country: null, is_national_team: false }]));
  const fake = { clubs } as unknown as typeof snap;
  const yes: [string, string][] = [['A', 'A21'], ['A', 'A'], ['B', 'B2'], ['L', 'L19'], ['R', 'RC'], ['M', 'M21'], ['FCB', 'FCBB'], ['E', 'EB']];
  const no: [string, string][] = [['A', 'AT'], ['A', 'ATU'], ['MC', 'M21'], ['W', 'B2'], ['FCB', 'EB'], ['E', 'FCBB'], ['A21', 'A'], ['A', 'B']];
  for (const [club, side] of yes) assert.ok(isSideOf(fake, club, side), `${side} of ${club}`);
  for (const [club, side] of no) assert.ok(!isSideOf(fake, club, side), `${side} not of ${club}`);
  assert.equal(isSideOf(fake, 'A', null), false);
});
