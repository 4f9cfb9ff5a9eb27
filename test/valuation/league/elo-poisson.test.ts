import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eloAtSeasonStarts, eloPoissonRates, fitEloPoisson, goalDifferenceMultiplier } from '../../../src/valuation/league/elo-poisson.js';
import type { MatchRow } from '../../../src/valuation/league/strength.js';
import { seededGenerator, uniform01 } from '../../../src/domain/random.js';

/** Double round robins of eight clubs in the seasons given, a dominant one among them, one match a day from 1 August. */
function seasons(first: number, count: number): MatchRow[] {
  const rng = seededGenerator(5);
  const goals = (lambda: number) => { let k = 0, p = Math.exp(-lambda), c = p; const u = uniform01(rng); while (u >= c && k < 20) { k++; p = (p * lambda) / k; c += p; } return k; };
  const strength = new Map([['dominant', 0.9], ...Array.from({ length: 7 }, (_, i) => [`club${i}`, 0.3 - i * 0.1] as [string, number])]);
  const rows: MatchRow[] = [];
  for (let s = first; s < first + count; s++) {
    let day = Date.UTC(s, 7, 1);
    for (const [h, sh] of strength) for (const [a, sa] of strength) {
      if (h === a) continue;
      rows.push({ date: new Date(day).toISOString().slice(0, 10), home: h, away: a, homeGoals: goals(Math.exp(0.3 + sh - sa)), awayGoals: goals(Math.exp(sa - sh)) });
      day += 86_400_000;
    }
  }
  return rows;
}

test('Elo at each season start ranks the dominant club first, and is zero-sum around 1500 after the summer regression', () => {
  const starts = eloAtSeasonStarts(seasons(2020, 3));
  assert.deepEqual([...starts.keys()], [2020, 2021, 2022, 2023]);
  assert.equal(starts.get(2020)!.size, 0, 'nobody is rated before the first match');
  const next = starts.get(2023)!;
  const ranked = [...next].sort((a, b) => b[1] - a[1]);
  assert.equal(ranked[0][0], 'dominant');
  assert.equal(ranked.at(-1)![0], 'club6');
  const mean = ranked.reduce((s, [, r]) => s + r, 0) / ranked.length;
  assert.ok(Math.abs(mean - 1500) < 1e-6, `mean ${mean}`);
});

test('Elo with Poisson goals: goals rise with the rating gap, and the season predicted is not in the fit', () => {
  const rows = seasons(2019, 4);
  const model = fitEloPoisson(rows, 2022);
  assert.deepEqual(model.fittedSeasons, [2020, 2021], 'the first season has no ratings at its start to regress on');
  assert.ok(model.home.b > 0 && model.away.b > 0, `slopes ${model.home.b}, ${model.away.b}`);
  assert.deepEqual(fitEloPoisson(rows.filter((r) => r.date < '2022-07-01'), 2022).home, model.home);
  const favourite = eloPoissonRates(model, 'dominant', 'club6', 1500), underdog = eloPoissonRates(model, 'club6', 'dominant', 1500);
  assert.ok(favourite.home > favourite.away && underdog.home < underdog.away);
  // a club the ratings do not know plays at the newcomer rating given
  assert.deepEqual(eloPoissonRates(model, 'newcomer', 'club6', 1400), eloPoissonRates({ ...model, ratings: { ...model.ratings, newcomer: 1400 } }, 'newcomer', 'club6', 0));
  assert.equal(goalDifferenceMultiplier(1), 1);
  assert.equal(goalDifferenceMultiplier(-2), 1.5);
  assert.equal(goalDifferenceMultiplier(4), 15 / 8);
});
