/**
 * Latency of sportive impact and squad analysis on the demo world, cold: every call is a new
 * (player, club) pair or club, so nothing is reused but the fitted artifact (which is loaded at
 * start in the server). Ratings are the model's own (fitRatingModel + rateAll), as served.
 *
 * Run: node --import tsx bench/impact-latency.ts [--pairs 100]
 */
import { generateDemoWorld } from '../src/data/demo/index.js';
import { buildSnapshot } from '../src/domain/snapshot.js';
import { fitRatingModel, rateAll } from '../src/valuation/rating/index.js';
import { fitImpactModel, sportiveImpact, squadAnalysis, withModelRatings } from '../src/valuation/impact/index.js';
import { createRng } from '../src/domain/random.js';

const AS_OF = '2026-06-30';

function quantile(sorted: number[], q: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i];
}

function report(name: string, times: number[]): void {
  const s = [...times].sort((a, b) => a - b);
  console.log(`${name.padEnd(34)} n=${s.length}  p50 ${quantile(s, 0.5).toFixed(1)} ms  p95 ${quantile(s, 0.95).toFixed(1)} ms  max ${s[s.length - 1].toFixed(1)} ms`);
}

function main(): void {
  const i = process.argv.indexOf('--pairs');
  const pairs = i >= 0 ? Number(process.argv[i + 1]) : 100;
  let t = performance.now();
  const world = generateDemoWorld({ seed: 42, asOf: AS_OF });
  const base = buildSnapshot(world, AS_OF, 'bench');
  const rating = fitRatingModel(base, { seed: 1 });
  const snap = withModelRatings(base, rateAll(rating, base));
  console.log(`demo world and ratings: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  t = performance.now();
  const art = fitImpactModel(snap);
  console.log(`fitImpactModel: ${(performance.now() - t).toFixed(0)} ms (${art.stats.clubsTied} clubs tied, age curve ${art.stats.ageCurveSource})`);

  const rng = createRng(7);
  const clubs = [...snap.leagueOfClub.keys()].sort();
  const players = [...snap.ratings.keys()].filter((id) => {
    const r = snap.ratings.get(id)!;
    return r[r.length - 1].season >= snap.currentSeason - 1;
  }).sort();
  const seen = new Set<string>();
  const impact: number[] = [];
  const runs: number[] = [];
  while (impact.length < pairs) {
    const player = players[rng.int(0, players.length - 1)];
    const club = clubs[rng.int(0, clubs.length - 1)];
    if (seen.has(`${player}|${club}`)) continue;
    seen.add(`${player}|${club}`);
    const t0 = performance.now();
    const r = sportiveImpact(art, snap, { playerId: player, clubId: club });
    impact.push(performance.now() - t0);
    runs.push(...r.seasons.map((s) => s.runs));
  }
  const squadTimes: number[] = [];
  const customTimes: number[] = [];
  for (let k = 0; k < pairs; k++) {
    const club = clubs[k % clubs.length];
    const t0 = performance.now();
    const actual = squadAnalysis(art, snap, { clubId: club });
    squadTimes.push(performance.now() - t0);
    // a what-if: the squad with one player swapped for a random one from elsewhere
    const incoming = players[rng.int(0, players.length - 1)];
    const squad = actual.squad.filter((e) => e.playerId !== incoming).slice(1).map((e) => ({ playerId: e.playerId, position: e.position }));
    squad.push({ playerId: incoming, position: 'CM' });
    const t1 = performance.now();
    squadAnalysis(art, snap, { clubId: club, squad });
    customTimes.push(performance.now() - t1);
  }
  report('sportiveImpact (cold pairs)', impact);
  report('squadAnalysis actual (cold clubs)', squadTimes);
  report('squadAnalysis custom (what-if)', customTimes);
  runs.sort((a, b) => a - b);
  console.log(`Monte Carlo runs per simulated season: median ${quantile(runs, 0.5)}, p95 ${quantile(runs, 0.95)}`);
}

main();
