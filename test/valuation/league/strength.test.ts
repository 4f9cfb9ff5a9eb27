import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CROWDLESS, fitStrength, homeAdvantageIn, predictMatch, clubStrength, type MatchRow } from '../../../src/valuation/league/strength.js';
import { seededGenerator, uniform01, type RandomGenerator } from '../../../src/domain/random.js';

function poisson(rng: RandomGenerator, lambda: number): number {
  const u = uniform01(rng);
  let k = 0, p = Math.exp(-lambda), c = p;
  while (u >= c && k < 30) { k++; p = (p * lambda) / k; c += p; }
  return k;
}

function addDays(iso: string, days: number): string {
  return new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Double round-robins with known parameters, one match day every 3 days from `start`. */
function synthetic(clubs: { id: string; attack: number; defence: number }[], seasons: number, seed: number, start = '2022-08-01', home: number | ((date: string) => number) = 0.25, intercept = 0.1): MatchRow[] {
  const homeOn = typeof home === 'number' ? () => home : home;
  const rng = seededGenerator(seed);
  const rows: MatchRow[] = [];
  let day = 0;
  for (let s = 0; s < seasons; s++) {
    for (const h of clubs) {
      for (const a of clubs) {
        if (h === a) continue;
        const date = addDays(start, day);
        rows.push({
          date, home: h.id, away: a.id,
          homeGoals: poisson(rng, Math.exp(intercept + homeOn(date) + h.attack - a.defence)),
          awayGoals: poisson(rng, Math.exp(intercept + a.attack - h.defence)),
          competition: 'TEST_LEAGUE',
        });
        day += 1;
      }
    }
  }
  return rows;
}

function spearman(a: number[], b: number[]): number {
  const rank = (v: number[]) => { const o = v.map((x, i) => [x, i]).sort((p, q) => p[0] - q[0]); const r = new Array(v.length); o.forEach(([, i], k) => (r[i] = k)); return r; };
  const ra = rank(a), rb = rank(b), n = a.length;
  const d2 = ra.reduce((s, x, i) => s + (x - rb[i]) ** 2, 0);
  return 1 - (6 * d2) / (n * (n * n - 1));
}

const planted = Array.from({ length: 12 }, (_, i) => ({
  id: `club${String(i).padStart(2, '0')}`,
  attack: 0.5 - (i * 1.0) / 11,
  defence: 0.35 - (((i * 5) % 12) * 0.7) / 11,
}));

test('recovers planted attack, defence and home advantage from synthetic results', () => {
  const rows = synthetic(planted, 4, 11, '2021-08-01');
  const last = rows[rows.length - 1].date;
  const art = fitStrength(rows, { asOf: last, xi: 0, ridge: 0.5, maxAgeDays: 3000 });
  assert.ok(art.converged);
  assert.equal(art.matchesUsed, rows.length);
  const att = planted.map((c) => art.clubs[c.id].attack);
  const def = planted.map((c) => art.clubs[c.id].defence);
  assert.ok(spearman(att, planted.map((c) => c.attack)) > 0.85, `attack rank correlation ${spearman(att, planted.map((c) => c.attack))}`);
  assert.ok(spearman(def, planted.map((c) => c.defence)) > 0.8, `defence rank correlation ${spearman(def, planted.map((c) => c.defence))}`);
  assert.ok(Math.abs(art.homeAdvantage - 0.25) < 0.1, `home advantage ${art.homeAdvantage}`);
  const rmse = Math.sqrt(planted.reduce((s, c) => s + (art.clubs[c.id].attack - c.attack) ** 2 + (art.clubs[c.id].defence - c.defence) ** 2, 0) / (2 * planted.length));
  assert.ok(rmse < 0.15, `parameter rmse ${rmse}`);
  assert.ok(Math.abs(art.rho) < 0.3);
  const p = predictMatch(art, 'club00', 'club11');
  assert.ok(Math.abs(p.homeWin + p.draw + p.awayWin - 1) < 1e-12);
  assert.ok(p.homeWin > 0.6 && p.homeExpectedGoals > p.awayExpectedGoals);
});

test('the fit does not depend on the order of the rows', () => {
  const rows = synthetic(planted.slice(0, 6), 1, 3);
  const asOf = rows[rows.length - 1].date;
  const a = fitStrength(rows, { asOf });
  const b = fitStrength([...rows].reverse(), { asOf });
  assert.deepEqual(a, b);
});

test('matches after the as-of date are ignored; a match on the as-of date is used', () => {
  const rows = synthetic(planted.slice(0, 6), 1, 5, '2023-08-01');
  const asOf = rows[rows.length - 1].date;
  const future: MatchRow[] = [
    { date: addDays(asOf, 1), home: 'club00', away: 'club05', homeGoals: 0, awayGoals: 9 },
    { date: addDays(asOf, 30), home: 'newclub', away: 'club01', homeGoals: 7, awayGoals: 0 },
  ];
  const base = fitStrength(rows, { asOf });
  const withFuture = fitStrength([...rows, ...future], { asOf });
  assert.equal(withFuture.rowsAfterAsOf, 2);
  assert.equal(withFuture.clubs.newclub, undefined);
  assert.deepEqual({ ...withFuture, rowsAfterAsOf: 0 }, base);

  const onDay: MatchRow = { date: asOf, home: 'club05', away: 'club00', homeGoals: 8, awayGoals: 0 };
  const withOnDay = fitStrength([...rows, onDay], { asOf });
  assert.equal(withOnDay.matchesUsed, base.matchesUsed + 1);
  assert.ok(withOnDay.clubs.club05.attack > base.clubs.club05.attack);

  const earlier = fitStrength([...rows, ...future], { asOf: rows[10].date });
  assert.ok(earlier.matchesUsed <= 11 && earlier.rowsAfterAsOf >= rows.length - 11);
});

test('time decay downweights old matches', () => {
  const clubs = ['A', 'B', 'C', 'D'];
  const rows: MatchRow[] = [];
  // two years ago A won everything heavily; in the last weeks A lost everything
  let d = 0;
  for (const o of clubs.slice(1)) {
    for (let k = 0; k < 3; k++) {
      rows.push({ date: addDays('2022-09-01', d++), home: 'A', away: o, homeGoals: 4, awayGoals: 0 });
      rows.push({ date: addDays('2022-09-01', d++), home: o, away: 'A', homeGoals: 0, awayGoals: 3 });
    }
  }
  d = 0;
  for (const o of clubs.slice(1)) {
    rows.push({ date: addDays('2024-05-01', d++), home: 'A', away: o, homeGoals: 0, awayGoals: 2 });
    rows.push({ date: addDays('2024-05-01', d++), home: o, away: 'A', homeGoals: 2, awayGoals: 0 });
  }
  for (const h of clubs.slice(1)) for (const a of clubs.slice(1)) if (h !== a) rows.push({ date: '2024-04-01', home: h, away: a, homeGoals: 1, awayGoals: 1 });
  const asOf = '2024-06-30';
  const flat = fitStrength(rows, { asOf, xi: 0 });
  const decayed = fitStrength(rows, { asOf, xi: 0.01 });
  assert.ok(flat.clubs.A.attack > 0, `without decay A's old dominance counts: ${flat.clubs.A.attack}`);
  assert.ok(decayed.clubs.A.attack < 0, `with decay A's recent losses dominate: ${decayed.clubs.A.attack}`);
  assert.ok(decayed.clubs.A.weight < flat.clubs.A.weight);
  const old = fitStrength(rows, { asOf, maxAgeDays: 365 });
  assert.ok(old.rowsTooOld > 0);
});

test('ridge keeps a club with one match near average; unknown clubs are average', () => {
  const rows = synthetic(planted.slice(0, 6), 2, 9);
  const asOf = rows[rows.length - 1].date;
  const art = fitStrength([...rows, { date: asOf, home: 'promoted', away: 'club00', homeGoals: 6, awayGoals: 0 }], { asOf, ridge: 2 });
  assert.ok(art.clubs.promoted.attack < 1 && art.clubs.promoted.defence < 1);
  assert.deepEqual(clubStrength(art, 'nobody'), { attack: 0, defence: 0, matches: 0, weight: 0 });
});

test('invalid rows are counted, not used', () => {
  const rows: MatchRow[] = [
    { date: '2024-01-01', home: 'A', away: 'B', homeGoals: 1, awayGoals: 0 },
    { date: '2024-13-01', home: 'A', away: 'B', homeGoals: 1, awayGoals: 0 },
    { date: '2024-01-02', home: 'A', away: 'A', homeGoals: 1, awayGoals: 0 },
    { date: '2024-01-03', home: 'A', away: 'B', homeGoals: -1, awayGoals: 0 },
  ];
  const art = fitStrength(rows, { asOf: '2024-06-30' });
  assert.equal(art.rowsInvalid, 3);
  assert.equal(art.matchesUsed, 1);
  assert.throws(() => fitStrength(rows, { asOf: '30/06/2024' }));
});

test('each league gets its own home advantage, shrunk towards the pooled one, and the pooled one elsewhere', () => {
  const other = planted.map((c) => ({ ...c, id: `other${c.id.slice(4)}` }));
  const a = synthetic(planted, 4, 21, '2021-08-01', 0.45);
  const b = synthetic(other, 4, 22, '2021-08-01', 0.05).map((r) => ({ ...r, competition: 'OTHER_LEAGUE' }));
  const rows = [...a, ...b];
  const asOf = rows.map((r) => r.date).sort().at(-1)!;
  const art = fitStrength(rows, { asOf, xi: 0, ridge: 0.5, maxAgeDays: 3000 });
  assert.ok(art.converged);
  const high = homeAdvantageIn(art, 'TEST_LEAGUE'), low = homeAdvantageIn(art, 'OTHER_LEAGUE');
  assert.ok(Math.abs(high - 0.45) < 0.1 && Math.abs(low - 0.05) < 0.1, `home advantages ${high}, ${low}`);
  assert.ok(high > art.homeAdvantage && art.homeAdvantage > low);
  assert.equal(homeAdvantageIn(art, 'NOT_FITTED'), art.homeAdvantage);
  assert.equal(homeAdvantageIn(art, null), art.homeAdvantage);
  // a strong prior keeps every league at the pooled value
  const pooled = fitStrength(rows, { asOf, xi: 0, ridge: 0.5, maxAgeDays: 3000, homeRidge: 1e9 });
  assert.ok(Math.abs(homeAdvantageIn(pooled, 'TEST_LEAGUE') - pooled.homeAdvantage) < 1e-6);
  assert.ok(Math.abs(pooled.homeAdvantage - 0.25) < 0.06, `pooled ${pooled.homeAdvantage}`);
});

test('matches behind closed doors get a home offset of their own, so the home advantage is that of matches with crowds', () => {
  // six double round robins from August 2019, one match a day: 480 of the 792 between March 2020 and June 2021
  const crowdless = (date: string) => date >= CROWDLESS.from && date <= CROWDLESS.to;
  const rows = synthetic(planted, 6, 31, '2019-08-01', (date) => (crowdless(date) ? 0 : 0.35));
  const asOf = rows.map((r) => r.date).sort().at(-1)!;
  const art = fitStrength(rows, { asOf, xi: 0, ridge: 0.5, maxAgeDays: 3000 });
  assert.ok(art.converged);
  assert.equal(art.crowdless.matches, rows.filter((r) => crowdless(r.date)).length);
  assert.ok(art.crowdless.matches > 150);
  assert.ok(Math.abs(art.homeAdvantage - 0.35) < 0.08, `home advantage with crowds ${art.homeAdvantage}`);
  assert.ok(Math.abs(art.homeAdvantage + art.crowdless.homeOffset) < 0.12, `crowdless offset ${art.crowdless.homeOffset}`);
  // without the term the fit averages the two and calls home wins too rarely
  const blind = fitStrength(rows, { asOf, xi: 0, ridge: 0.5, maxAgeDays: 3000, crowdless: null });
  assert.equal(blind.crowdless.matches, 0);
  assert.equal(blind.crowdless.homeOffset, 0);
  assert.ok(blind.homeAdvantage < art.homeAdvantage - 0.05, `blind ${blind.homeAdvantage} against ${art.homeAdvantage}`);
  assert.ok(predictMatch(art, 'club05', 'club06').homeWin > predictMatch(blind, 'club05', 'club06').homeWin);
  assert.throws(() => fitStrength(rows, { asOf, crowdless: { from: '2020-03', to: '2021-06-30' } }), /crowdless/);
});
