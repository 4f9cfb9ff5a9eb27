/**
 * What the data shows of players' values some years on, by the year they start from: the median
 * ratio (value H years later / value at 30 June of the start year) of players worth 5M or 20M or more
 * at 21-23 and 24-27, for H = 2 and 3, with how many are no longer valued then; and, over the ten
 * start years the future model learns from as of 2024-06-30, the share no longer valued 3 years on
 * (retired, or gone where nobody values him) by age and value. The future model's training rows are
 * the players still valued (docs/models.md, "Future transfer value"). First the market's level by
 * year (future/market.ts), and under each line of ratios the same net of the market's move over the
 * window: of the level of its top, and of the level at each player's price point.
 *
 * Run: node --import tsx bench/future-by-start-year.ts --world-cache /tmp/recommend-tm-world.json
 */
import { parseArgs } from 'node:util';
import { buildSnapshot } from '../src/domain/snapshot.js';
import { addYears, ageAt, featureIndex, logValueAt } from '../src/valuation/features/index.js';
import { FRESH_VALUE_DAYS } from '../src/valuation/future/index.js';
import { MARKET_TOP, fitMarketTrend, marketLevelAt, marketMoveAt } from '../src/valuation/future/market.js';
import { median } from '../src/valuation/ml/metrics.js';
import { dataDirFromArgs, loadRealWorld, worldCacheFromArgs } from './lib/world.js';

const { values: args } = parseArgs({ options: { 'world-cache': { type: 'string' }, data: { type: 'string' }, 'as-of': { type: 'string', default: '2024-06-30' } } });
const asOf = args['as-of']!;
const last = Number(asOf.slice(0, 4));
const { world, dataVersion } = await loadRealWorld(dataDirFromArgs(args.data ? ['--data', args.data] : []), true, worldCacheFromArgs(args['world-cache'] ? ['--world-cache', args['world-cache']] : []));
const idx = featureIndex(buildSnapshot(world, asOf, dataVersion));
const ids = [...idx.values.keys()];

console.log(`data ${dataVersion} as of ${asOf}: the market's level (mean log value of its ${MARKET_TOP} most valuable, future/market.ts) on 30 June, and its move over the next 2 and 3 years`);
for (let y = last - 14; y <= last; y++) {
  const d0 = `${y}-06-30`;
  const lv = marketLevelAt(idx, d0);
  const mv = (h: number) => (y + h <= last ? `x${Math.exp(marketLevelAt(idx, addYears(d0, h)) - lv).toFixed(2)}` : '   -');
  console.log(`  ${y} level ${lv.toFixed(3)}  2 years ${mv(2)}  3 years ${mv(3)}`);
}
// What the future model serves on top of a player's own path: the mean 3-year move at his price point over the windows it learns from.
const windows = Array.from({ length: 10 }, (_, i) => `${last - 12 + i}-06-30`);
const trend = fitMarketTrend(idx, windows, 3);
if (trend) {
  console.log(`the market's mean 3-year move by price point (value as of ${asOf}) over the windows from ${windows[0]} to ${windows[windows.length - 1]}:`);
  console.log(`  ${trend.logValues.map((v, i) => `${(Math.exp(v) / 1e6).toFixed(1)}M x${Math.exp(trend.moves[i]).toFixed(2)}`).join(' | ')}`);
}
console.log(`median ratio value H years on / value at the start, players worth at least the value shown; (n, no longer valued)`);
for (const H of [2, 3]) {
  for (const [lo, hi] of [[21, 24], [24, 28]]) {
    for (const vmin of [5e6, 20e6]) {
      const cells: string[] = [];
      const netCells: string[] = [];
      for (let y = last - 14; y + H <= last; y++) {
        const d0 = `${y}-06-30`;
        const ratios: number[] = [];
        const net: number[] = [];
        const netRank: number[] = [];
        let gone = 0;
        const move = marketLevelAt(idx, addYears(d0, H)) - marketLevelAt(idx, d0);
        for (const id of ids) {
          const a = logValueAt(idx, id, d0, FRESH_VALUE_DAYS);
          if (!(Math.exp(a) >= vmin)) continue;
          const age = ageAt(idx, id, d0);
          if (!(age >= lo && age < hi)) continue;
          const b = logValueAt(idx, id, addYears(d0, H), FRESH_VALUE_DAYS);
          if (Number.isFinite(b)) {
            ratios.push(Math.exp(b - a));
            net.push(Math.exp(b - a - move));
            netRank.push(Math.exp(b - a - marketMoveAt(idx, a, d0, addYears(d0, H))));
          } else gone++;
        }
        cells.push(`${y} ${ratios.length ? median(ratios).toFixed(2) : ' n/a'} (${ratios.length}, ${gone})`);
        netCells.push(`${y} ${net.length ? median(net).toFixed(2) : ' n/a'} / ${netRank.length ? median(netRank).toFixed(2) : ' n/a'}`);
      }
      console.log(`${H} years, age ${lo}-${hi - 1}, ${vmin / 1e6}M+: ${cells.join(' | ')}`);
      console.log(`  net of the market's move (top ${MARKET_TOP} / at his price point): ${netCells.join(' | ')}`);
    }
  }
}

const bands = [0, 1e6, 5e6, 20e6, Infinity];
const counts = new Map<string, [number, number]>();
for (let y = last - 3 - 9; y <= last - 3; y++) {
  const d0 = `${y}-06-30`;
  for (const id of ids) {
    const a = logValueAt(idx, id, d0, FRESH_VALUE_DAYS);
    const age = Math.floor(ageAt(idx, id, d0));
    if (!Number.isFinite(a) || !Number.isFinite(age)) continue;
    const band = bands.findIndex((x, i) => Math.exp(a) >= x && Math.exp(a) < bands[i + 1]);
    const key = `${Math.min(38, Math.max(17, age))}|${band}`;
    const c = counts.get(key) ?? [0, 0];
    c[0]++;
    if (!Number.isFinite(logValueAt(idx, id, addYears(d0, 3), FRESH_VALUE_DAYS))) c[1]++;
    counts.set(key, c);
  }
}
console.log(`\nshare no longer valued 3 years on, start years ${last - 12}-${last - 3}, by age (17 and under, 38 and over pooled) and value: share/n`);
console.log(`  age  ${['<1M', '1-5M', '5-20M', '20M+'].map((b) => b.padStart(12)).join('')}`);
for (let age = 17; age <= 38; age++) {
  console.log(`  ${String(age).padStart(3)}  ${[0, 1, 2, 3].map((b) => {
    const c = counts.get(`${age}|${b}`);
    return (c ? `${(c[1] / c[0]).toFixed(2)}/${c[0]}` : '-').padStart(12);
  }).join('')}`);
}
