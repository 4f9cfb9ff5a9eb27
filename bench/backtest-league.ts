/**
 * Out-of-time backtest of the league model on the real data.
 *
 * As of 2023-06-30: ratings from the rating model fitted then (fitRatingModel + rateAll on the
 * 2023-06-30 snapshot), squads as of that date, the impact model (Dixon–Coles with decay tied to
 * squad strength) fitted on the same snapshot. For every top league with 2023/24 games in the
 * data, the clubs of the 2023/24 season are those that played its games (membership is known at
 * the start of a season, so this uses no outcome). Each league is simulated (double round robin,
 * seeded Monte Carlo) and the clubs ranked by expected position; the actual table is computed from
 * the 2023/24 league games (points, goal difference, goals scored).
 *
 * Baselines on the same clubs:
 *  - last season: the 2022/23 table (from its games); promoted clubs at the bottom, ordered by name;
 *  - Elo only: fitElo as of 2023-06-30, simulated the same way, with attack = defence = k * (elo - 1500) / 400
 *    where k is fitted on 2022/23 games with Elo as of 2022-06-30 (out of sample); a club without an
 *    Elo rating (promoted from a league not in the data) gets the mean Elo of the clubs that left the league.
 *
 * Run: node --import tsx bench/backtest-league.ts --data ../shared/data/transfermarkt [--world-cache /tmp/tm-world.json]
 */
import { buildSnapshot } from '../src/domain/snapshot.js';
import type { MatchRow as StoredMatch, WorldData } from '../src/domain/world.js';
import { fitRatingModel, rateAll } from '../src/valuation/rating/index.js';
import { fitImpactModel, withModelRatings } from '../src/valuation/impact/index.js';
import { baselineFeatures, leagueContext, strengthOf } from '../src/valuation/impact/model.js';
import { fitElo, type EloArtifact, type MatchRow } from '../src/valuation/league/strength.js';
import { simulateLeague, type LeagueInput } from '../src/valuation/league/simulate.js';
import { hashString } from '../src/valuation/league/random.js';
import { meanAbsoluteError, spearman } from '../src/valuation/ml/metrics.js';
import { dataDirFromArgs, loadRealWorld, worldCacheFromArgs } from './lib/world.js';

const AS_OF = '2023-06-30';
const SEASON = 2023;
const RUNS = 4000;
const f2 = (x: number) => x.toFixed(2);
const f3 = (x: number) => x.toFixed(3);

interface TableRow { club: string; pts: number; gd: number; gf: number }

/** Final table from a season's games: points, goal difference, goals scored, then club id. */
function table(games: readonly StoredMatch[]): string[] {
  const rows = new Map<string, TableRow>();
  const row = (c: string) => {
    let r = rows.get(c);
    if (!r) rows.set(c, (r = { club: c, pts: 0, gd: 0, gf: 0 }));
    return r;
  };
  for (const g of games) {
    const h = row(g.home_club_id), a = row(g.away_club_id);
    h.gf += g.home_goals; h.gd += g.home_goals - g.away_goals;
    a.gf += g.away_goals; a.gd += g.away_goals - g.home_goals;
    if (g.home_goals > g.away_goals) h.pts += 3;
    else if (g.home_goals < g.away_goals) a.pts += 3;
    else { h.pts++; a.pts++; }
  }
  return [...rows.values()].sort((x, y) => y.pts - x.pts || y.gd - x.gd || y.gf - x.gf || (x.club < y.club ? -1 : 1)).map((r) => r.club);
}

/** Predicted order from expected positions of a simulation. */
function predictedOrder(input: LeagueInput, seed: number): string[] {
  const sim = simulateLeague(input, { seed, runs: RUNS });
  return sim.clubs.map((c) => ({ id: c.id, e: c.expectedPosition })).sort((a, b) => a.e - b.e || (a.id < b.id ? -1 : 1)).map((c) => c.id);
}

function ranksOf(order: readonly string[], clubs: readonly string[]): number[] {
  const pos = new Map(order.map((c, i) => [c, i + 1]));
  return clubs.map((c) => pos.get(c)!);
}

function domesticRows(world: WorldData, leagues: ReadonlySet<string>): MatchRow[] {
  return world.matches
    .filter((m) => leagues.has(m.competition_id))
    .map((m) => ({ date: m.date, home: m.home_club_id, away: m.away_club_id, homeGoals: m.home_goals, awayGoals: m.away_goals, competition: m.competition_id }));
}

/** attack = defence = k * z with z = (elo - 1500) / 400: the k with the best Poisson likelihood on the games. */
function fitEloScale(elo: EloArtifact, games: readonly StoredMatch[], intercept: number, home: number, fallback: (club: string) => number): number {
  const z = (c: string) => ((elo.ratings[c]?.rating ?? fallback(c)) - 1500) / 400;
  let best = 0, bestLl = -Infinity;
  for (let k = 0; k <= 3.0001; k += 0.02) {
    let ll = 0;
    for (const g of games) {
      const zh = z(g.home_club_id), za = z(g.away_club_id);
      const lh = Math.exp(intercept + home + k * (zh - za)), la = Math.exp(intercept + k * (za - zh));
      ll += g.home_goals * Math.log(lh) - lh + g.away_goals * Math.log(la) - la;
    }
    if (ll > bestLl) { bestLl = ll; best = k; }
  }
  return best;
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const { world, dataVersion } = await loadRealWorld(dataDirFromArgs(), true, worldCacheFromArgs());
  console.log(`data ${dataVersion}: loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const base = buildSnapshot(world, AS_OF, dataVersion);
  const t1 = performance.now();
  const rating = fitRatingModel(base, { seed: 3 });
  const snap = withModelRatings(base, rateAll(rating, base));
  const t2 = performance.now();
  const art = fitImpactModel(snap);
  const t3 = performance.now();
  console.log(`as of ${AS_OF}: ratings (target ${rating.target}) ${((t2 - t1) / 1000).toFixed(1)} s; impact model ${((t3 - t2) / 1000).toFixed(1)} s ` +
    `(${art.stats.matchesUsed} matches, ${art.stats.clubsTied} clubs tied, R2 attack ${f3(art.stats.tieRSquared.attack)} defence ${f3(art.stats.tieRSquared.defence)}, age curve ${art.stats.ageCurveSource})`);

  const topLeagues = [...world.competitions.values()].filter((c) => c.type === 'DOMESTIC_LEAGUE' && c.tier === 1).map((c) => c.id).sort();
  const leagueSet = new Set(topLeagues);
  const rows = domesticRows(world, leagueSet);
  const elo = fitElo(rows, { asOf: AS_OF });
  const eloBefore = fitElo(rows, { asOf: '2022-06-30' });

  const all = { model: [] as number[], last: [] as number[], elo: [] as number[], actual: [] as number[] };
  const rho = { model: [] as number[], last: [] as number[], elo: [] as number[] };
  console.log('\nleague                     clubs  MAE model  last  elo   | Spearman model  last   elo');
  for (const league of topLeagues) {
    const games = world.matches.filter((m) => m.competition_id === league && m.season === SEASON);
    if (games.length === 0) continue;
    const clubs = [...new Set(games.flatMap((g) => [g.home_club_id, g.away_club_id]))].sort();
    const actualRanks = ranksOf(table(games), clubs);
    const seed = hashString(`${league}|${SEASON}`) | 0;

    // model: strengths from the squads as of the date, tied to results
    const feats = clubs.map((c) => baselineFeatures(art, snap, c, 0));
    const ctx = leagueContext(art, league, feats);
    const modelInput: LeagueInput = {
      intercept: art.strength.intercept, homeAdvantage: art.strength.homeAdvantage,
      clubs: clubs.map((c, i) => ({ id: c, ...strengthOf(art, ctx, c, feats[i]) })),
    };
    const modelRanks = ranksOf(predictedOrder(modelInput, seed), clubs);

    // last season's table, promoted clubs at the bottom by name
    const prevGames = world.matches.filter((m) => m.competition_id === league && m.season === SEASON - 1);
    const prevOrder = table(prevGames).filter((c) => clubs.includes(c));
    const promoted = clubs.filter((c) => !prevOrder.includes(c))
      .sort((a, b) => (world.clubs.find((x) => x.id === a)?.name ?? a).localeCompare(world.clubs.find((x) => x.id === b)?.name ?? b));
    const lastRanks = ranksOf([...prevOrder, ...promoted], clubs);

    // Elo only
    const prevClubs = [...new Set(prevGames.flatMap((g) => [g.home_club_id, g.away_club_id]))];
    const left = prevClubs.filter((c) => !clubs.includes(c) && elo.ratings[c]);
    const leftMean = left.length ? left.reduce((a, c) => a + elo.ratings[c].rating, 0) / left.length : 1500;
    const prevPrevClubs = new Set(world.matches.filter((m) => m.competition_id === league && m.season === SEASON - 2).flatMap((g) => [g.home_club_id, g.away_club_id]));
    const leftBefore = [...prevPrevClubs].filter((c) => !prevClubs.includes(c) && eloBefore.ratings[c]);
    const leftBeforeMean = leftBefore.length ? leftBefore.reduce((a, c) => a + eloBefore.ratings[c].rating, 0) / leftBefore.length : 1500;
    const k = fitEloScale(eloBefore, prevGames, art.strength.intercept, art.strength.homeAdvantage, () => leftBeforeMean);
    const eloZ = (c: string) => ((elo.ratings[c]?.rating ?? leftMean) - 1500) / 400;
    const eloInput: LeagueInput = {
      intercept: art.strength.intercept, homeAdvantage: art.strength.homeAdvantage,
      clubs: clubs.map((c) => ({ id: c, attack: k * eloZ(c), defence: k * eloZ(c) })),
    };
    const eloRanks = ranksOf(predictedOrder(eloInput, seed), clubs);

    const mae = (r: number[]) => meanAbsoluteError(actualRanks, r);
    const sp = (r: number[]) => spearman(actualRanks, r);
    console.log(
      `${league.padEnd(26)} ${String(clubs.length).padStart(5)}  ${f2(mae(modelRanks)).padStart(9)} ${f2(mae(lastRanks)).padStart(5)} ${f2(mae(eloRanks)).padStart(5)} | ` +
        `${f3(sp(modelRanks)).padStart(14)} ${f3(sp(lastRanks)).padStart(5)} ${f3(sp(eloRanks)).padStart(5)}` +
        `   (${promoted.length} new, Elo k ${k.toFixed(2)})`,
    );
    all.model.push(...modelRanks); all.last.push(...lastRanks); all.elo.push(...eloRanks); all.actual.push(...actualRanks);
    rho.model.push(sp(modelRanks)); rho.last.push(sp(lastRanks)); rho.elo.push(sp(eloRanks));
  }
  const meanOf = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length;
  console.log(
    `${'overall (clubs; mean rho)'.padEnd(26)} ${String(all.actual.length).padStart(5)}  ${f2(meanAbsoluteError(all.actual, all.model)).padStart(9)} ` +
      `${f2(meanAbsoluteError(all.actual, all.last)).padStart(5)} ${f2(meanAbsoluteError(all.actual, all.elo)).padStart(5)} | ` +
      `${f3(meanOf(rho.model)).padStart(14)} ${f3(meanOf(rho.last)).padStart(5)} ${f3(meanOf(rho.elo)).padStart(5)}`,
  );
  const better = meanAbsoluteError(all.actual, all.model) < Math.min(meanAbsoluteError(all.actual, all.last), meanAbsoluteError(all.actual, all.elo)) &&
    meanOf(rho.model) > Math.max(meanOf(rho.last), meanOf(rho.elo));
  console.log(`\nbar (better than both baselines overall on MAE and Spearman): ${better ? 'met' : 'NOT met'}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
