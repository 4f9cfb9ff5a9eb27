import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LEAGUES } from '../../../src/data/demo/leagues.js';
import {
  expectedRevenueEur, fallbackRevenueTable, placeMoney, placeMoneyFor, REVENUE_TABLES, revenueTableFor,
} from '../../../src/valuation/revenue/index.js';

const REAL_TOP_LEAGUES = [
  'PREMIER_LEAGUE', 'LALIGA', 'BUNDESLIGA', 'SERIE_A', 'LIGUE_1', 'EREDIVISIE', 'LIGA_PORTUGAL_BWIN', 'JUPILER_PRO_LEAGUE',
  'SUPER_LIG', 'SCOTTISH_PREMIERSHIP', 'SUPER_LEAGUE_1', 'SUPERLIGAEN', 'PREMIER_LIGA_UKRAINE', 'PREMIER_LIGA_RUSSIA',
];

test('a table for every demo league and every top league of the real data, with sources and dates', () => {
  for (const id of [...LEAGUES.map((l) => l.id), ...REAL_TOP_LEAGUES]) {
    const t = REVENUE_TABLES.get(id);
    assert.ok(t, `no revenue table for ${id}`);
    assert.ok(t.source.length > 0 && /^\d{4}-\d{2}-\d{2}$/.test(t.as_of), id);
    assert.equal(t.places.length, t.clubs);
  }
  for (const l of LEAGUES) assert.equal(REVENUE_TABLES.get(l.id)!.clubs, l.size, `${l.id} has the demo league's size`);
});

test('money never rises with a worse place', () => {
  for (const t of REVENUE_TABLES.values()) {
    const m = placeMoney(t);
    for (let i = 1; i < m.length; i++) assert.ok(m[i] <= m[i - 1], `${t.league}: place ${i + 1} earns more than place ${i}`);
    assert.ok(m[0] > m[m.length - 1], `${t.league}: first and last earn the same`);
  }
  const f = placeMoney(fallbackRevenueTable('NOWHERE', 16, 0.5));
  for (let i = 1; i < f.length; i++) assert.ok(f[i] <= f[i - 1]);
});

test('expected revenue comes from the whole place distribution, not the mean place', () => {
  const t = REVENUE_TABLES.get('PREMIER_LEAGUE')!;
  const money = placeMoney(t);
  const point = (p: number) => Array.from({ length: 20 }, (_, i) => (i === p - 1 ? 1 : 0));
  assert.equal(expectedRevenueEur(t, point(1)), money[0]);
  assert.equal(expectedRevenueEur(t, point(20)), money[19]);
  // a 50/50 chance of 4th and 6th is not the money of 5th (the Champions League step)
  const split = point(4).map((v, i) => (v + point(6)[i]) / 2);
  assert.ok(Math.abs(expectedRevenueEur(t, split) - (money[3] + money[5]) / 2) < 1e-6);
  assert.notEqual(Math.round(expectedRevenueEur(t, split)), Math.round(money[4]));
  // frequencies are normalised
  assert.ok(Math.abs(expectedRevenueEur(t, split.map((v) => v * 1000)) - expectedRevenueEur(t, split)) < 1e-6);
  assert.throws(() => expectedRevenueEur(t, new Array(20).fill(0)));
});

test('a league of another size reads the table at the same relative height; a league without a file gets the fallback', () => {
  const t = REVENUE_TABLES.get('SERIE_A')!;
  const m18 = placeMoneyFor(t, 18);
  assert.equal(m18.length, 18);
  assert.equal(m18[0], placeMoney(t)[0]);
  assert.equal(m18[17], placeMoney(t)[19]);
  const rich = revenueTableFor('UNKNOWN_LEAGUE', 12, 2);
  const poor = revenueTableFor('UNKNOWN_LEAGUE', 12, 0.5);
  assert.ok(rich.fallback && poor.fallback);
  assert.ok(placeMoney(rich)[0] > placeMoney(poor)[0]);
  assert.equal(revenueTableFor('UNKNOWN_LEAGUE', 12, null).fallback!.valueRatio, 1);
  assert.equal(revenueTableFor('LALIGA', 20).league, 'LALIGA');
});
