import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultAgeCurve, ageDelta, projectRating, fitAgeCurve, parametricDelta, DEFAULT_AGE_CURVE_PARAMS } from '../../../src/valuation/league/age-curve.js';

test('default curve: growth when young, plateau 27-29, decline from 30, steeper by 33', () => {
  const c = defaultAgeCurve();
  assert.ok(ageDelta(c, 19) > ageDelta(c, 23) && ageDelta(c, 23) > 0);
  assert.equal(ageDelta(c, 27.5), 0);
  assert.equal(ageDelta(c, 28.9), 0);
  assert.ok(ageDelta(c, 30) < 0);
  assert.ok(ageDelta(c, 33) < ageDelta(c, 31) && ageDelta(c, 31) < ageDelta(c, 30));
  assert.ok(ageDelta(c, 33) <= -2.5);
});

test('projection: a young player grows towards his potential and never passes it; a veteran declines', () => {
  const c = defaultAgeCurve();
  const young = projectRating(c, { rating: 62, age: 19, potential: 80 }, 3);
  assert.equal(young.length, 3);
  assert.ok(young[0] > 62 && young[1] > young[0] && young[2] > young[1] && young[2] <= 80);
  const capped = projectRating(c, { rating: 70, age: 20, potential: 70 }, 3);
  assert.deepEqual(capped, [70, 70, 70]);
  const unknownPotential = projectRating(c, { rating: 62, age: 19 }, 3);
  assert.ok(unknownPotential[2] > 62);
  const veteran = projectRating(c, { rating: 80, age: 32 }, 3);
  assert.ok(veteran[0] < 80 && veteran[2] < veteran[1] && veteran[1] < veteran[0]);
  assert.ok(veteran[1] - veteran[2] > 80 - veteran[0], 'the decline gets steeper');
  assert.ok(projectRating(c, { rating: 1, age: 38 }, 3).every((r) => r >= 0));
});

test('fitAgeCurve recovers binned means where data is rich and stays near the prior where sparse', () => {
  const rows: { age: number; ratingDelta: number }[] = [];
  for (let i = 0; i < 400; i++) {
    rows.push({ age: 21 + (i % 10) / 10, ratingDelta: 4 + ((i % 5) - 2) * 0.5 });
    rows.push({ age: 32 + (i % 10) / 10, ratingDelta: -1 + ((i % 7) - 3) * 0.3 });
  }
  rows.push({ age: 36.5, ratingDelta: 15 }, { age: Number.NaN, ratingDelta: 1 });
  const c = fitAgeCurve(rows);
  const bin = (a: number) => c.table!.find((b) => b.age === a)!;
  assert.equal(bin(21).n, 400);
  // smoothing mixes in the neighbours (prior-dominated), so the rich bins move most of the way
  assert.ok(bin(21).delta > 2.9 && bin(21).delta < 4, `age 21: ${bin(21).delta}`);
  assert.ok(bin(32).delta > -1.6 && bin(32).delta < -1, `age 32: ${bin(32).delta}`);
  const prior36 = parametricDelta(DEFAULT_AGE_CURVE_PARAMS, 36);
  assert.ok(Math.abs(bin(36).delta - prior36) < 1.2, 'a single outlier barely moves a sparse bin');
  // inside the table the fitted values are used, outside the parametric curve
  assert.equal(ageDelta(c, 21), bin(21).delta);
  assert.equal(ageDelta(c, 45), parametricDelta(c.params, 45));
});

test('fitAgeCurve counts careers ending past the peak: drop-outs above the prime-age rate pull veterans towards the drop level', () => {
  const rows: { age: number; ratingDelta: number; dropped?: boolean }[] = [];
  for (let a = 20; a <= 37; a++) {
    // survivors decline gently at every age (the biased view); drop-outs rise from 5% to 60%
    const dropShare = a < 31 ? 0.05 : Math.min(0.6, 0.05 + 0.1 * (a - 30));
    for (let i = 0; i < 200; i++) {
      const dropped = i < Math.round(200 * dropShare);
      rows.push({ age: a + (i % 10) / 10, ratingDelta: a < 27 ? 1 : -0.5, dropped });
    }
  }
  const naive = fitAgeCurve(rows.filter((r) => !r.dropped));
  const c = fitAgeCurve(rows, { dropLevel: 40 });
  assert.equal(c.dropLevel, 40);
  assert.equal(naive.dropLevel, undefined);
  // survivors' change is the same; prime ages get no drop rate (5% everywhere is moves, not careers ending)
  assert.deepEqual(c.table!.map((b) => b.delta), naive.table!.map((b) => b.delta));
  assert.ok((c.table!.find((b) => b.age === 29)!.dropRate ?? 0) < 0.01);
  const rates = c.table!.filter((b) => b.age >= 29).map((b) => b.dropRate!);
  for (let i = 1; i < rates.length; i++) assert.ok(rates[i] >= rates[i - 1]);
  assert.ok(rates[rates.length - 1] > 0.3);
  const vet = { rating: 80, age: 35 };
  const before = projectRating(naive, vet, 3), after = projectRating(c, vet, 3);
  assert.ok(before[2] > 75, `${before}`);
  assert.ok(after[2] < 62 && after[2] > 40, `${after}`);
  for (let i = 1; i < 3; i++) assert.ok(after[i] < after[i - 1]);
  // a prime-age player is unchanged
  assert.deepEqual(projectRating(c, { rating: 80, age: 25 }, 3), projectRating(naive, { rating: 80, age: 25 }, 3));
  // deltas never rise again past the peak
  const past = c.table!.filter((b) => b.age > c.params.peakEnd).map((b) => b.delta);
  for (let i = 1; i < past.length; i++) assert.ok(past[i] <= past[i - 1]);
});
