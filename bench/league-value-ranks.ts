/**
 * How far the squads' market values alone place each league's clubs: on 30 June before each
 * held-back season of the league backtest (docs/models.md), each domestic league's clubs of that
 * season ranked by the summed latest market value of the players at the club that day (all of them,
 * and the 18 most valuable), scored by mean absolute rank error against the final table, as the
 * model card scores the league forecast (bench/model-card.ts prints the model's own).
 *
 * Run: node --import tsx bench/league-value-ranks.ts [--world-cache FILE] [--data DIR] [--seasons 2021,2022,2023]
 */
import { parseArgs } from 'node:util';
import { buildSnapshot } from '../src/domain/snapshot.js';
import { featureIndex, latestValue } from '../src/valuation/features/index.js';
import { seasonTable } from '../src/valuation/league/promoted.js';
import { dataDirFromArgs, loadRealWorld, worldCacheFromArgs } from './lib/world.js';

const { values } = parseArgs({ options: { seasons: { type: 'string', default: '2021,2022,2023' }, 'world-cache': { type: 'string' }, data: { type: 'string' } } });
const seasons = values.seasons!.split(',').map(Number);
const { world, dataVersion } = await loadRealWorld(values.data ?? dataDirFromArgs(), true, worldCacheFromArgs());
const leagues = new Set(world.competitions.filter((c) => c.type === 'DOMESTIC_LEAGUE').map((c) => c.id));

/** Ranks 1..n of `clubs` by `score`, highest first (ties by id). */
const ranksBy = (clubs: readonly string[], score: (c: string) => number) => {
  const order = [...clubs].sort((a, b) => score(b) - score(a) || a.localeCompare(b));
  return new Map(order.map((c, i) => [c, i + 1]));
};

const pooled = { n: 0, all: 0, top18: 0 };
for (const season of seasons) {
  const origin = `${season}-06-30`;
  const snapshot = buildSnapshot(world, origin, dataVersion);
  const idx = featureIndex(snapshot);
  const squadValues = (club: string, top: number) =>
    (snapshot.squads.get(club) ?? []).map((p) => latestValue(idx, p, origin)?.valueEur ?? 0).sort((a, b) => b - a).slice(0, top).reduce((a, b) => a + b, 0);
  const byLeague = new Map<string, typeof world.matches>();
  for (const m of world.matches) {
    if (m.season !== season || !leagues.has(m.competition_id)) continue;
    byLeague.set(m.competition_id, [...(byLeague.get(m.competition_id) ?? []), m]);
  }
  const err = { n: 0, all: 0, top18: 0 };
  for (const games of byLeague.values()) {
    const table = seasonTable(games).map((l) => l.club);
    const all = ranksBy(table, (c) => squadValues(c, Infinity)), top18 = ranksBy(table, (c) => squadValues(c, 18));
    table.forEach((c, i) => {
      err.n++;
      err.all += Math.abs(all.get(c)! - (i + 1));
      err.top18 += Math.abs(top18.get(c)! - (i + 1));
    });
  }
  pooled.n += err.n; pooled.all += err.all; pooled.top18 += err.top18;
  console.log(`${season}/${season + 1}: ${err.n} clubs, rank error by squad value ${(err.all / err.n).toFixed(2)}, by the 18 most valuable ${(err.top18 / err.n).toFixed(2)}`);
}
console.log(`pooled: ${pooled.n} clubs, rank error by squad value ${(pooled.all / pooled.n).toFixed(2)}, by the 18 most valuable ${(pooled.top18 / pooled.n).toFixed(2)}`);
