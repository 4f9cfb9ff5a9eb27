import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MatchRow } from '../../../src/domain/world.js';
import { fitPromotedPrior, promotedLevel, promotedSeasons } from '../../../src/valuation/league/promoted.js';

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
