/**
 * Elo with Poisson goals: the baseline the field scores match models against. Elo ratings from
 * results (K 20 scaled by the goal difference as eloratings.net does, 65 points of home advantage, a
 * fifth of the distance to the mean removed each summer), and each side's goals Poisson
 * with log rate linear in the rating difference:
 *
 *   log λ_home = a_home + b_home · d,   log λ_away = a_away − b_away · d,   d = (R_home − R_away) / 400,
 *
 * fitted by maximum likelihood on earlier seasons with the ratings each club held at the start of
 * that season, as the baseline is used: ratings frozen on 30 June, every match of the next season
 * predicted from them.
 */
import { seasonOf } from '../../domain/season.js';
import type { MatchRow } from './strength.js';

const K = 20;
const HOME = 65;
const REGRESSION = 0.2;
const START = 1500;

/** eloratings.net: 1 for a one-goal margin, 1.5 for two, (11 + n) / 8 beyond. */
export function goalDifferenceMultiplier(goalDifference: number): number {
  const d = Math.abs(goalDifference);
  if (d <= 1) return 1;
  if (d === 2) return 1.5;
  return (11 + d) / 8;
}

export function eloExpectedScore(homeRating: number, awayRating: number, homeAdvantage: number): number {
  return 1 / (1 + Math.pow(10, -(homeRating + homeAdvantage - awayRating) / 400));
}

export interface EloPoissonModel {
  /** ratings at the start of the season predicted (after the summer's regression) */
  ratings: Record<string, number>;
  home: { a: number; b: number };
  away: { a: number; b: number };
  /** seasons the goal regression was fitted on, and its matches */
  fittedSeasons: number[];
  matches: number;
}

/** Each club's Elo rating at the start of every season from the first match on (after the summer's regression). */
export function eloAtSeasonStarts(rows: readonly MatchRow[]): Map<number, Map<string, number>> {
  const sorted = [...rows].sort((x, y) => (x.date < y.date ? -1 : x.date > y.date ? 1 : x.home < y.home ? -1 : x.home > y.home ? 1 : 0));
  const ratings = new Map<string, number>();
  const starts = new Map<number, Map<string, number>>();
  let season: number | null = null;
  for (const r of sorted) {
    const s = seasonOf(r.date);
    if (s !== season) {
      if (ratings.size > 0) {
        let mean = 0;
        for (const v of ratings.values()) mean += v;
        mean /= ratings.size;
        for (const [c, v] of ratings) ratings.set(c, mean + (1 - REGRESSION) * (v - mean));
      }
      season = s;
      starts.set(s, new Map(ratings));
    }
    const h = ratings.get(r.home) ?? START, a = ratings.get(r.away) ?? START;
    const result = r.homeGoals > r.awayGoals ? 1 : r.homeGoals === r.awayGoals ? 0.5 : 0;
    const delta = K * goalDifferenceMultiplier(r.homeGoals - r.awayGoals) * (result - eloExpectedScore(h, a, HOME));
    ratings.set(r.home, h + delta);
    ratings.set(r.away, a - delta);
  }
  // the season after the last match starts with the summer's regression too
  if (season !== null && ratings.size > 0) {
    let mean = 0;
    for (const v of ratings.values()) mean += v;
    mean /= ratings.size;
    starts.set(season + 1, new Map([...ratings].map(([c, v]) => [c, mean + (1 - REGRESSION) * (v - mean)])));
  }
  return starts;
}

/** Maximum likelihood of log λ = a + b·x for Poisson counts y (Newton's method on two parameters). */
function poissonRegression(x: readonly number[], y: readonly number[]): { a: number; b: number } {
  let a = Math.log(Math.max(1e-6, y.reduce((s, v) => s + v, 0) / Math.max(1, y.length))), b = 0;
  for (let it = 0; it < 50; it++) {
    let ga = 0, gb = 0, haa = 0, hab = 0, hbb = 0;
    for (let i = 0; i < x.length; i++) {
      const mu = Math.exp(a + b * x[i]);
      ga += y[i] - mu;
      gb += (y[i] - mu) * x[i];
      haa += mu;
      hab += mu * x[i];
      hbb += mu * x[i] * x[i];
    }
    const det = haa * hbb - hab * hab;
    if (!(det > 0)) break;
    const da = (hbb * ga - hab * gb) / det, db = (haa * gb - hab * ga) / det;
    a += da;
    b += db;
    if (Math.abs(da) + Math.abs(db) < 1e-10) break;
  }
  return { a, b };
}

/**
 * The baseline as of 30 June before `season`: ratings at its start, the goal regression on the
 * `fitSeasons` seasons before it. A club without a rating (new to the data) gets `newcomer(club)`.
 */
export function fitEloPoisson(rows: readonly MatchRow[], season: number, fitSeasons = 3, starts = eloAtSeasonStarts(rows.filter((r) => seasonOf(r.date) < season))): EloPoissonModel {
  const dh: number[] = [], yh: number[] = [], ya: number[] = [];
  const fitted: number[] = [];
  for (let s = season - fitSeasons; s < season; s++) {
    const at = starts.get(s);
    if (!at || at.size === 0) continue;
    fitted.push(s);
    for (const r of rows) {
      if (seasonOf(r.date) !== s) continue;
      const h = at.get(r.home), a = at.get(r.away);
      if (h === undefined || a === undefined) continue;
      dh.push((h - a) / 400);
      yh.push(r.homeGoals);
      ya.push(r.awayGoals);
    }
  }
  const home = poissonRegression(dh, yh);
  const awayFit = poissonRegression(dh, ya);
  return { ratings: Object.fromEntries(starts.get(season) ?? []), home, away: { a: awayFit.a, b: -awayFit.b }, fittedSeasons: fitted, matches: dh.length };
}

/** The two goal rates of a fixture under the baseline; a club without a rating plays at `newcomerRating`. */
export function eloPoissonRates(m: EloPoissonModel, home: string, away: string, newcomerRating: number): { home: number; away: number } {
  const d = ((m.ratings[home] ?? newcomerRating) - (m.ratings[away] ?? newcomerRating)) / 400;
  return { home: Math.exp(m.home.a + m.home.b * d), away: Math.exp(m.away.a - m.away.b * d) };
}
