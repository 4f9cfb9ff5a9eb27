import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MatchRow } from '../../../src/domain/world.js';
import {
  blendedPlace, expectedPlaces, fitPromotedBlend, fitPromotedPrior, placeCurve, promotedLevel, promotedSeasons, rankScale, shiftForPlace, SQUAD_ONLY_BLEND,
} from '../../../src/valuation/league/promoted.js';

/** A double round robin where each club scores `goals[club]` in every game. */
function season(league: string, year: number, clubs: string[], goals: Record<string, number>, date = `${year + 1}-05-01`): MatchRow[] {
  const out: MatchRow[] = [];
  for (const h of clubs) {
    for (const a of clubs) {
      if (h === a) continue;
      out.push({ id: `${league}${year}${h}${a}`, competition_id: league, season: year, date, home_club_id: h, away_club_id: a, home_goals: goals[h], away_goals: goals[a] });
    }
  }
  return out;
}

test('a club new to a league\'s season is promoted: its goals against the league\'s average and its finish', () => {
  const matches = [
    ...season('L', 2020, ['A', 'B', 'C', 'D'], { A: 2, B: 2, C: 1, D: 1 }),
    // P replaces D and scores half the goals of the others' average
    ...season('L', 2021, ['A', 'B', 'C', 'P'], { A: 2, B: 2, C: 2, P: 1 }),
  ];
  const rows = promotedSeasons(matches, new Set(['L']), '2022-06-30');
  assert.equal(rows.length, 1, 'the first season has no previous one, so nobody in it counts as promoted');
  const [p] = rows;
  assert.equal(p.club, 'P');
  assert.equal(p.place, 4);
  assert.equal(p.finish, 1);
  // 1 goal a game against a league average of 7/4: attack log(4/7); conceding 2 (the others' 2) against 7/4
  assert.ok(Math.abs(p.attack - Math.log(1 / 1.75)) < 1e-12);
  assert.ok(Math.abs(p.defence + Math.log(2 / 1.75)) < 1e-12);
});

test('nothing after the as-of date, and an unfinished season, is read', () => {
  const matches = [
    ...season('L', 2020, ['A', 'B', 'C', 'D'], { A: 2, B: 2, C: 1, D: 1 }),
    ...season('L', 2021, ['A', 'B', 'C', 'P'], { A: 2, B: 2, C: 2, P: 1 }),
  ];
  assert.equal(promotedSeasons(matches, new Set(['L']), '2022-04-30').length, 0);
  const half = matches.filter((m) => m.season === 2020 || m.home_club_id !== 'P');
  assert.equal(promotedSeasons(half, new Set(['L']), '2022-06-30').length, 0);
});

test('a league\'s level is shrunk towards the pooled level by its number of promoted clubs', () => {
  const matches = [
    ...season('L', 2020, ['A', 'B', 'C', 'D'], { A: 2, B: 2, C: 1, D: 1 }),
    ...season('L', 2021, ['A', 'B', 'C', 'P'], { A: 2, B: 2, C: 2, P: 1 }),
    ...season('M', 2020, ['E', 'F', 'G', 'H'], { E: 1, F: 1, G: 1, H: 1 }),
    ...season('M', 2021, ['E', 'F', 'G', 'Q'], { E: 1, F: 1, G: 1, Q: 3 }),
  ];
  const prior = fitPromotedPrior(matches, new Set(['L', 'M']), '2022-06-30', 1);
  assert.equal(prior.pooled.clubs, 2);
  const l = promotedLevel(prior, 'L'), m = promotedLevel(prior, 'M');
  assert.equal(l.clubs, 1);
  // half its own, half the pooled mean
  assert.ok(Math.abs(l.attack - (Math.log(1 / 1.75) + prior.pooled.attack) / 2) < 1e-12);
  assert.ok(m.attack > l.attack && m.finish < l.finish);
  assert.deepEqual(promotedLevel(prior, 'NONE'), prior.pooled);
});

test('the blend is learned at the median: a squad that tells nothing gets no weight, an offset moves every club', () => {
  // the actual place is the prior plus a constant, whatever the squad says
  const noise = [0.3, -0.2, 0.1, -0.4, 0.25, -0.15, 0.35, -0.05, 0.2, -0.3];
  const rows = Array.from({ length: 40 }, (_, i) => ({ prior: 0.7, squad: 0.7 + noise[i % 10], actual: 0.8 }));
  const b = fitPromotedBlend(rows);
  assert.equal(b.squadWeight, 0);
  assert.ok(Math.abs(b.offset - 0.1) < 1e-12);
  // a squad that tells everything gets the whole weight
  const exact = fitPromotedBlend(rows.map((r) => ({ ...r, actual: r.squad })));
  assert.equal(exact.squadWeight, 1);
  assert.ok(Math.abs(exact.offset) < 1e-12);
  // too few clubs to learn from: the squad alone
  assert.deepEqual(fitPromotedBlend(rows.slice(0, 5)), SQUAD_ONLY_BLEND);
  // the blend stays on the table
  assert.equal(blendedPlace({ squadWeight: 0.5, offset: 0.3 }, 0.9, 1), 1);
  assert.equal(blendedPlace({ squadWeight: 0.5, offset: -0.5 }, 0.1, 0), 0);
  assert.ok(Math.abs(blendedPlace({ squadWeight: 0.4, offset: 0.05 }, 0.7, 0.2) - (0.7 + 0.05 + 0.4 * (0.2 - 0.7))) < 1e-12);
});

test('expected places follow strength, and a shift of attack and defence reaches the place asked for', () => {
  const league = { intercept: 0.25, homeAdvantage: 0.25, rho: -0.06, attack: [0.4, 0.2, 0, -0.2, -0.4, -0.1], defence: [0.4, 0.2, 0, -0.2, -0.4, -0.1] };
  const places = expectedPlaces(league);
  // the stronger a club, the better its place; the places of a table average (n + 1) / 2
  for (let i = 1; i < 5; i++) assert.ok(places[i] > places[i - 1]);
  assert.ok(Math.abs(places.reduce((a, x) => a + x, 0) / 6 - 3.5) < 0.05);
  const curve = placeCurve(league, 5);
  assert.ok(Math.abs(curve(0) - places[5]) < 1e-9, 'the curve at no shift is the club\'s place');
  const shift = shiftForPlace(curve, 2);
  assert.ok(shift > 0 && Math.abs(curve(shift) - 2) < 1e-3);
  // a place no shift within reach gives: the end of the range
  assert.equal(shiftForPlace(curve, 0), 3);
});

test('a club is ranked among the others\' expected places, and back', () => {
  const scale = rankScale([3, 5, 8, 10]);
  assert.equal(scale.rankOf(3), 1.5);
  assert.equal(scale.rankOf(4), 2);
  assert.equal(scale.rankOf(10), 4.5);
  assert.equal(scale.rankOf(0), 1);
  assert.equal(scale.rankOf(20), 5);
  for (const r of [1, 1.2, 1.5, 2.7, 3.5, 4.9, 5]) assert.ok(Math.abs(scale.rankOf(scale.placeOfRank(r)) - r) < 1e-12);
});
