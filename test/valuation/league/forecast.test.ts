import assert from 'node:assert/strict';
import { test } from 'node:test';
import { leagueRevenueTable } from '../../../src/valuation/league/forecast.js';
import { matchPoints as pointsOf } from '../../../src/valuation/league/match.js';

const matchPoints = (home: number, away: number) => pointsOf({ home, away });
import { expectedRevenueEur, placeMoney, REVENUE_TABLES } from '../../../src/valuation/revenue/index.js';

test('expected points of a match: 3 shared out when someone wins, 2 on a draw; the stronger side expects more', () => {
  const even = matchPoints(1.3, 1.3);
  assert.ok(Math.abs(even.home - even.away) < 1e-12);
  for (const [h, a] of [[1.3, 1.3], [2.5, 0.6], [0.4, 1.9], [0.05, 0.05]]) {
    const m = matchPoints(h, a);
    assert.ok(m.home + m.away >= 2 && m.home + m.away <= 3, `${h}-${a}`);
    assert.ok(m.home >= 0 && m.home <= 3 && m.away >= 0 && m.away <= 3);
  }
  assert.ok(matchPoints(2.5, 0.6).home > 2 && matchPoints(2.5, 0.6).away < 0.6);
  // Almost no goals: almost always a draw.
  const dull = matchPoints(0.01, 0.01);
  assert.ok(Math.abs(dull.home - 1) < 0.03 && Math.abs(dull.away - 1) < 0.03);
  // Monotone in the own rate.
  assert.ok(matchPoints(1.6, 1.2).home > matchPoints(1.4, 1.2).home);
});

test('league revenue: what the league pays per place, never negative; sportive impact\'s table keeps the relegation cost', () => {
  let withCost = 0;
  for (const [league, table] of REVENUE_TABLES) {
    const money = placeMoney(leagueRevenueTable(table));
    money.forEach((m, i) => assert.ok(m >= 0, `${league} place ${i + 1}: ${m}`));
    const net = placeMoney(table);
    if (net.some((m) => m < 0)) withCost++;
    // only the relegation places differ
    table.places.forEach((p, i) => assert.equal(money[i] - net[i], p.relegation_eur));
    // a place distribution on the last place earns the last place's merit money
    const last = Array.from({ length: table.clubs }, (_, i) => (i === table.clubs - 1 ? 1 : 0));
    assert.equal(expectedRevenueEur(leagueRevenueTable(table), last), money[table.clubs - 1]);
  }
  assert.ok(withCost > 0, 'some tables have places whose net money is negative');
});
