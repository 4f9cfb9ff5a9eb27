/**
 * Latency of the league forecast (GET /v1/league_forecast's computation) on the real data, as of
 * 2024-06-30 unless --as-of says otherwise: ratings and the impact model fitted on that snapshot as
 * `touchline train` does, then every top league's forecast computed once on a fresh snapshot (cold:
 * nothing cached for it) and then asked again through the answer cache the route uses (repeated).
 * The HTTP layer around it adds well under a millisecond (bench/latency.ts).
 * Targets: p95 <= 300 ms cold, <= 5 ms repeated.
 *
 * Run: node --import tsx bench/league-forecast-latency.ts [--world-cache /work/cache/tm-world.json] [--as-of 2024-06-30] [--rounds 3]
 */
import { parseArgs } from 'node:util';
import { buildSnapshot, withSeasonClubs } from '../src/domain/snapshot.js';
import { AnswerCache } from '../src/http/answer-cache.js';
import { defaultRateTable } from '../src/money/rates.js';
import { leagueForecastOf } from '../src/valuation/analysis.js';
import { presentForecast } from '../src/http/present/analysis.js';
import type { ModelBundle } from '../src/valuation/bundle.js';
import { fitImpactModel, withModelRatings } from '../src/valuation/impact/index.js';
import { fitRatingModel, rateAll } from '../src/valuation/rating/index.js';
import { dataDirFromArgs, loadRealWorld, worldCacheFromArgs } from './lib/world.js';

const { values } = parseArgs({
  options: { 'as-of': { type: 'string', default: '2024-06-30' }, rounds: { type: 'string', default: '3' }, 'world-cache': { type: 'string' }, data: { type: 'string' } },
});
const asOf = values['as-of']!;
const rounds = Number(values.rounds);

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

const { world, dataVersion } = await loadRealWorld(dataDirFromArgs(), true, worldCacheFromArgs());
const base = buildSnapshot(world, asOf, dataVersion);
const t0 = performance.now();
const rated = withModelRatings(base, rateAll(fitRatingModel(base, { seed: 3 }), base));
const impact = fitImpactModel(rated);
console.log(`as of ${asOf}: models fitted in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
// Only the impact model is read by the forecast.
const bundle = { impact } as unknown as ModelBundle;
const money = { code: 'EUR', rates: defaultRateTable() };
const leagues = [...rated.clubsOfLeague.keys()].filter((l) => rated.competitions.get(l)?.tier === 1).sort();

const cold: number[] = [];
const repeated: number[] = [];
for (let round = 0; round < rounds; round++) {
  // A new snapshot object (as after `leagues set-clubs`): nothing computed for it is reused.
  const snapshot = withSeasonClubs(rated, [], `bench-${round}`);
  const cache = new AnswerCache(500);
  for (const league of leagues) {
    const key = `forecast|${league}|${snapshot.membershipVersion}`;
    let t = performance.now();
    const answer = cache.get(key, () => presentForecast(leagueForecastOf(bundle, snapshot, league), snapshot, money));
    cold.push(performance.now() - t);
    if (round === 0) console.log(`  ${league.padEnd(24)} ${String(answer.clubs.length).padStart(3)} clubs  cold ${cold[cold.length - 1].toFixed(1)} ms`);
    for (let k = 0; k < 20; k++) {
      t = performance.now();
      cache.get(key, () => presentForecast(leagueForecastOf(bundle, snapshot, league), snapshot, money));
      repeated.push(performance.now() - t);
    }
  }
}
const p95c = percentile(cold, 95), p95r = percentile(repeated, 95);
console.log(`league_forecast cold     n=${cold.length} p50 ${percentile(cold, 50).toFixed(1)} ms  p95 ${p95c.toFixed(1)} ms  max ${Math.max(...cold).toFixed(1)} ms  (target p95 <= 300 ms: ${p95c <= 300 ? 'PASS' : 'FAIL'})`);
console.log(`league_forecast repeated n=${repeated.length} p50 ${percentile(repeated, 50).toFixed(3)} ms  p95 ${p95r.toFixed(3)} ms  (target p95 <= 5 ms: ${p95r <= 5 ? 'PASS' : 'FAIL'})`);
