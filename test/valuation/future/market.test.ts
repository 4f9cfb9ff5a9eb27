import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSnapshot } from '../../../src/domain/snapshot.js';
import type { WorldData } from '../../../src/domain/world.js';
import { featureIndex, yearFraction } from '../../../src/valuation/features/index.js';
import { fitFutureModel, predictFuture, type MarketMode } from '../../../src/valuation/future/index.js';
import { marketLevelAt, marketTrendFor } from '../../../src/valuation/future/market.js';
import { fitRatingModel } from '../../../src/valuation/rating/index.js';
import { median } from '../../../src/valuation/ml/metrics.js';
import { clubIds, syntheticWorld } from '../features/synthetic.js';

const AS_OF = '2020-06-30';
const base = syntheticWorld({ seed: 21, players: 300 });

/** The same world in a market whose every value is scaled by `factor(date)`. */
function scaled(world: WorldData, factor: (date: string) => number): WorldData {
  return { ...world, market_values: world.market_values.map((v) => ({ ...v, value_eur: Math.round(v.value_eur * factor(v.date)) })) };
}

test('the market level moves with a market-wide change of values and reads nothing after its date', () => {
  const doubled = scaled(base, (d) => (d >= '2017-01-01' ? 2 : 1));
  const a = featureIndex(buildSnapshot(base, AS_OF, 'base'));
  const b = featureIndex(buildSnapshot(doubled, AS_OF, 'doubled'));
  // Every value of the year before is doubled: the level is log 2 higher; before the change, equal.
  assert.ok(Math.abs(marketLevelAt(b, '2019-06-30') - marketLevelAt(a, '2019-06-30') - Math.log(2)) < 1e-3);
  assert.ok(Math.abs(marketLevelAt(b, '2016-06-30') - marketLevelAt(a, '2016-06-30')) < 1e-9);
  assert.throws(() => marketLevelAt(a, '2020-07-01'), /after the snapshot's as-of date/);
});

test('a market-wide rise in the training years is learned as the market\'s, not as the players\' own', () => {
  // Values rise 15% a year market-wide on top of the world's own paths: log 0.45 in three years.
  const rising = scaled(base, (d) => Math.exp(0.15 * (yearFraction(d) - 2005)));
  const fit = (world: WorldData, market: MarketMode) => {
    const snap = buildSnapshot(world, AS_OF, `${market}-${world === base ? 'base' : 'rising'}`);
    const rating = fitRatingModel(snap, { seed: 1 });
    const future = fitFutureModel(snap, rating, { k: 20, market, distribution: { location: { minSamplesLeaf: 20 }, scale: { minSamplesLeaf: 40 } } });
    const outs = [...snap.players.values()].slice(0, 60).map((p) => predictFuture(future, rating, snap, { playerId: p.id, clubId: clubIds()[3] }));
    return { future, outs, ratios: outs.map((o) => o.futureValueEur / o.anchorEur) };
  };
  const shift = (a: number[], b: number[]) => median(a.map((r, i) => Math.log(b[i] / r)));
  // Raw ratios carry the market's rise into every player's future value ...
  assert.ok(shift(fit(base, 'off').ratios, fit(rising, 'off').ratios) > 0.25);
  // ... ratios net of the market's move do not: held flat, the same future as in the flat market.
  const flatBase = fit(base, 'flat');
  const flatRising = fit(rising, 'flat');
  assert.ok(Math.abs(shift(flatBase.ratios, flatRising.ratios)) < 0.1);
  assert.equal(flatRising.future.market.trend, null);
  // Served with the trend, the market's mean move at his price point is added, and it is the rise.
  const trend = fit(rising, 'trend');
  trend.outs.forEach((o, i) => {
    const added = marketTrendFor(trend.future.market.trend, Math.log(o.anchorEur));
    assert.ok(Math.abs(Math.log(trend.ratios[i] / flatRising.ratios[i]) - added) < 1e-9, `player ${i}: ${added}`);
  });
  // Price point by price point, the trend is the world's own plus the rise.
  const own = fit(base, 'trend').future.market.trend!;
  const risen = trend.future.market.trend!;
  assert.equal(risen.moves.length, own.moves.length);
  risen.moves.forEach((m, i) => assert.ok(Math.abs(m - own.moves[i] - 0.45) < 0.1, `rank point ${i}: ${m} vs ${own.moves[i]}`));
});
