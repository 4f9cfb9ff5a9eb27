/**
 * How newly promoted clubs actually did, learned from the seasons in the data: a club in a league's
 * season that was not in its previous season (both seasons in the data) is promoted. Per promoted
 * club we read its first season's goals scored and conceded per game against the league's average
 * per game, and its final place. In a double round robin everybody meets everybody twice, so
 * log(goals per game / league average) is the Poisson attack of the club (and minus the same for
 * goals conceded its defence), in the units of the simulation's strengths, without a schedule fit.
 *
 * A league's figures are its own promoted clubs' means shrunk towards the pooled mean of every
 * league (`shrink` clubs' worth of the pooled mean), so a league with few promotions in the data
 * leans on the others. Only seasons complete by the as-of date are read.
 */
import type { MatchRow } from '../../domain/world.js';
import { outcomeProbabilities, sideRate, type GoalCeiling } from './match.js';
import { median } from '../ml/metrics.js';

export interface PromotedLevel {
  /** mean attack and defence of promoted clubs in their first season, against their league's mean (0) */
  attack: number;
  defence: number;
  /** mean final place of promoted clubs as a share of the league: (place - 1) / (clubs - 1), 0 first, 1 last */
  finish: number;
  /** promoted club-seasons behind the league's own means */
  clubs: number;
}

export interface PromotedPrior {
  pooled: PromotedLevel;
  leagues: Record<string, PromotedLevel>;
  shrink: number;
}

interface Line { club: string; pts: number; gd: number; gf: number; ga: number; games: number }

/** The season's table: points, goal difference, goals scored, then club id. */
export function seasonTable(games: readonly MatchRow[]): Line[] {
  const rows = new Map<string, Line>();
  const line = (c: string) => {
    let r = rows.get(c);
    if (!r) rows.set(c, (r = { club: c, pts: 0, gd: 0, gf: 0, ga: 0, games: 0 }));
    return r;
  };
  for (const g of games) {
    const h = line(g.home_club_id), a = line(g.away_club_id);
    h.games++; a.games++;
    h.gf += g.home_goals; h.ga += g.away_goals; a.gf += g.away_goals; a.ga += g.home_goals;
    h.gd += g.home_goals - g.away_goals; a.gd += g.away_goals - g.home_goals;
    if (g.home_goals > g.away_goals) h.pts += 3;
    else if (g.home_goals < g.away_goals) a.pts += 3;
    else { h.pts++; a.pts++; }
  }
  return [...rows.values()].sort((x, y) => y.pts - x.pts || y.gd - x.gd || y.gf - x.gf || (x.club < y.club ? -1 : 1));
}

/** One promoted club's first season. */
export interface PromotedSeason { league: string; season: number; club: string; attack: number; defence: number; finish: number; place: number; clubs: number }

/**
 * Every promoted club-season of the leagues given, from their matches: seasons whose last game is on
 * or before `asOf` and whose previous season is in the data.
 */
export function promotedSeasons(matches: readonly MatchRow[], leagues: ReadonlySet<string>, asOf: string): PromotedSeason[] {
  const bySeason = new Map<string, MatchRow[]>();
  for (const m of matches) {
    if (!leagues.has(m.competition_id)) continue;
    const key = `${m.competition_id}|${m.season}`;
    const list = bySeason.get(key);
    if (list) list.push(m); else bySeason.set(key, [m]);
  }
  const out: PromotedSeason[] = [];
  for (const [key, games] of [...bySeason].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const [league, s] = key.split('|');
    const season = Number(s);
    if (games.some((g) => g.date > asOf)) continue;
    // a season still being played is not a finish: every club must have met every other twice
    const table = seasonTable(games);
    const n = table.length;
    if (n < 4 || table.some((l) => l.games < 2 * (n - 1))) continue;
    const previous = bySeason.get(`${league}|${season - 1}`);
    if (!previous) continue;
    const before = new Set(previous.flatMap((g) => [g.home_club_id, g.away_club_id]));
    const goals = table.reduce((a, l) => a + l.gf, 0);
    const perGame = goals / table.reduce((a, l) => a + l.games, 0);
    if (!(perGame > 0)) continue;
    table.forEach((l, i) => {
      if (before.has(l.club) || l.games === 0) return;
      // half a goal keeps a goalless season finite
      out.push({
        league, season, club: l.club,
        attack: Math.log(Math.max(0.5, l.gf) / l.games / perGame),
        defence: -Math.log(Math.max(0.5, l.ga) / l.games / perGame),
        finish: i / (n - 1), place: i + 1, clubs: n,
      });
    });
  }
  return out;
}

const mean = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0) / Math.max(1, xs.length);

/** Learns the level of promoted clubs per league (see the header). */
export function fitPromotedPrior(matches: readonly MatchRow[], leagues: ReadonlySet<string>, asOf: string, shrink = 8): PromotedPrior {
  const rows = promotedSeasons(matches, leagues, asOf);
  const pooled: PromotedLevel = {
    attack: mean(rows.map((r) => r.attack)), defence: mean(rows.map((r) => r.defence)), finish: rows.length ? mean(rows.map((r) => r.finish)) : 0.75, clubs: rows.length,
  };
  const leaguesOut: Record<string, PromotedLevel> = {};
  for (const league of [...new Set(rows.map((r) => r.league))].sort()) {
    const own = rows.filter((r) => r.league === league);
    const w = own.length / (own.length + shrink);
    const blend = (f: (r: PromotedSeason) => number, p: number) => w * mean(own.map(f)) + (1 - w) * p;
    leaguesOut[league] = { attack: blend((r) => r.attack, pooled.attack), defence: blend((r) => r.defence, pooled.defence), finish: blend((r) => r.finish, pooled.finish), clubs: own.length };
  }
  return { pooled, leagues: leaguesOut, shrink };
}

/** The level of a promoted club in `league`: its own (shrunk) figures, else the pooled ones. */
export function promotedLevel(prior: PromotedPrior, league: string): PromotedLevel {
  return prior.leagues[league] ?? prior.pooled;
}

/**
 * Where a newly named club is expected to finish, as a share of the table (0 first, 1 last): an
 * empirical-Bayes blend of what its squad says and where the league's promoted clubs finished,
 *
 *   place = prior + offset + squadWeight × (squad − prior)
 *
 * `prior` is the league's promoted finish (`PromotedLevel.finish`), `squad` the place the club's
 * completed squad gives against the league's other clubs (`expectedPlaces`). squadWeight 1 and
 * offset 0 trust the squad alone; 0 puts every promoted club at the prior. Learned by
 * `fitPromotedBlend` from promoted clubs whose first season has finished; the club is then
 * simulated at the strength that gives the blended place (`shiftForPlace`).
 */
export interface PromotedBlend {
  squadWeight: number;
  offset: number;
}

/** Trusts the squad alone: the model before the blend. */
export const SQUAD_ONLY_BLEND: PromotedBlend = { squadWeight: 1, offset: 0 };

/** The blended place (share of the table) of a newly named club, within [0, 1]. */
export function blendedPlace(blend: PromotedBlend, prior: number, squad: number): number {
  return Math.min(1, Math.max(0, prior + blend.offset + blend.squadWeight * (squad - prior)));
}

/** One promoted club of a finished season: its prior and squad places at the origin and its final place (shares of the table). */
export interface PromotedOutcome { prior: number; squad: number; actual: number }

/**
 * Least absolute deviations of (actual − prior) on (squad − prior): the rank error is what the
 * forecast is judged on, and it is smallest at the median, not the mean. The weight is searched on
 * a grid of 0.01 within [0, 1] (a squad never counts against itself, nor more than the whole), the
 * offset is the median residual for each. With fewer than `minClubs` clubs: the squad alone.
 */
export function fitPromotedBlend(rows: readonly PromotedOutcome[], minClubs = 20): PromotedBlend {
  if (rows.length < minClubs) return SQUAD_ONLY_BLEND;
  let best = SQUAD_ONLY_BLEND, bestLoss = Infinity;
  for (let k = 0; k <= 100; k++) {
    const w = k / 100;
    const offset = median(rows.map((r) => r.actual - r.prior - w * (r.squad - r.prior)));
    const loss = rows.reduce((a, r) => a + Math.abs(r.actual - blendedPlace({ squadWeight: w, offset }, r.prior, r.squad)), 0);
    if (loss < bestLoss - 1e-12) { best = { squadWeight: w, offset }; bestLoss = loss; }
  }
  return best;
}

export interface LeagueStrengths {
  intercept: number;
  homeAdvantage: number;
  /** the match model's low-score dependence (match.ts) */
  rho: number;
  /** where a side's expected goals bend (match.ts); absent or null: none */
  ceiling?: GoalCeiling | null;
  attack: readonly number[];
  defence: readonly number[];
}

/** goals beyond are left out and the rest renormalised (P(more than 10) is below 0.003 at 4 goals a game) */
const MAX_GOALS = 10;

/** Mean and variance of the points of both sides in one match of the match model (match.ts). */
function pointsMoments(homeRate: number, awayRate: number, rho: number): { home: number; away: number; homeVar: number; awayVar: number } {
  const [win, draw, loss] = outcomeProbabilities({ home: homeRate, away: awayRate, rho }, MAX_GOALS);
  const home = 3 * win + draw, away = 3 * loss + draw;
  return { home, away, homeVar: 9 * win + draw - home * home, awayVar: 9 * loss + draw - away * away };
}

/** Standard normal distribution function, logistic approximation (error below 0.01: enough for a place). */
const normalCdf = (z: number) => 1 / (1 + Math.exp(-1.702 * z));

/** Season points of every club: exact means and variances under the Poisson model (double round robin). */
function seasonPoints(league: LeagueStrengths, skip = -1): { mean: Float64Array; variance: Float64Array } {
  const n = league.attack.length;
  const { intercept: mu, homeAdvantage: ha, rho, ceiling, attack, defence } = league;
  const mean = new Float64Array(n), variance = new Float64Array(n);
  for (let h = 0; h < n; h++) {
    for (let a = 0; a < n; a++) {
      if (h === a || h === skip || a === skip) continue;
      const m = pointsMoments(sideRate(mu + ha + attack[h] - defence[a], ceiling), sideRate(mu + attack[a] - defence[h], ceiling), rho);
      mean[h] += m.home; mean[a] += m.away; variance[h] += m.homeVar; variance[a] += m.awayVar;
    }
  }
  return { mean, variance };
}

function placeFromPoints(mean: Float64Array, variance: Float64Array, i: number): number {
  let place = 1;
  for (let k = 0; k < mean.length; k++) if (k !== i) place += normalCdf((mean[k] - mean[i]) / Math.sqrt(variance[k] + variance[i] + 1e-9));
  return place;
}

/**
 * Expected place of every club (1 = first): 1 + Σ over the others of P(they finish above it), each
 * club's season points taken as normal. A quick stand-in for the simulated expected positions.
 */
export function expectedPlaces(league: LeagueStrengths): number[] {
  const { mean, variance } = seasonPoints(league);
  return Array.from(mean, (_, i) => placeFromPoints(mean, variance, i));
}

/**
 * Expected place of club `i` as a function of a shift of its attack and defence (both by the same
 * amount), as `expectedPlaces` computes it; the matches not involving the club are summed once.
 */
export function placeCurve(league: LeagueStrengths, i: number): (shift: number) => number {
  const n = league.attack.length;
  const { intercept: mu, homeAdvantage: ha, rho, ceiling, attack, defence } = league;
  const { mean, variance } = seasonPoints(league, i);
  return (shift: number) => {
    const m = Float64Array.from(mean), v = Float64Array.from(variance);
    const ai = attack[i] + shift, di = defence[i] + shift;
    for (let k = 0; k < n; k++) {
      if (k === i) continue;
      const home = pointsMoments(sideRate(mu + ha + ai - defence[k], ceiling), sideRate(mu + attack[k] - di, ceiling), rho);
      const away = pointsMoments(sideRate(mu + ha + attack[k] - di, ceiling), sideRate(mu + ai - defence[k], ceiling), rho);
      m[i] += home.home + away.away; v[i] += home.homeVar + away.awayVar;
      m[k] += home.away + away.home; v[k] += home.awayVar + away.homeVar;
    }
    return placeFromPoints(m, v, i);
  };
}

/**
 * The shift at which a place curve gives `place` (the place falls as the shift grows): regula falsi
 * with the Illinois step within ±1.5, widened to ±3 when the place lies outside, to 0.0001 of a place
 * (each step evaluates the curve once; a plain bisection needed about four times as many).
 */
export function shiftForPlace(curve: (shift: number) => number, place: number): number {
  let lo = -1.5, hi = 1.5;
  let flo = curve(lo) - place, fhi = curve(hi) - place;
  if (flo < 0 || fhi > 0) {
    lo = -3; hi = 3;
    flo = curve(lo) - place; fhi = curve(hi) - place;
    if (flo <= 0) return lo;
    if (fhi >= 0) return hi;
  }
  let side = 0;
  for (let it = 0; it < 60; it++) {
    const x = (lo * fhi - hi * flo) / (fhi - flo);
    const fx = curve(x) - place;
    if (Math.abs(fx) < 1e-4) return x;
    if (fx > 0) {
      lo = x; flo = fx;
      if (side === 1) fhi /= 2;
      side = 1;
    } else {
      hi = x; fhi = fx;
      if (side === -1) flo /= 2;
      side = -1;
    }
  }
  return (lo + hi) / 2;
}

/**
 * Expected places are not ranks: they crowd towards the middle of the table, while a final table
 * spreads its clubs from 1 to n. A club is ranked among the others' expected places: a club level
 * with the j-th of the others ranks j + 0.5, between them linearly, 1 above all and n below all.
 * `rankOf` maps an expected place to that rank, `placeOfRank` back.
 */
export function rankScale(others: readonly number[]): { rankOf: (place: number) => number; placeOfRank: (rank: number) => number } {
  const s = [...others].sort((a, b) => a - b);
  const m = s.length;
  const rankOf = (e: number): number => {
    if (m === 0) return 1;
    if (e <= s[0]) return 1 + 0.5 * Math.max(0, Math.min(1, 1 - (s[0] - e)));
    if (e >= s[m - 1]) return m + 0.5 + 0.5 * Math.max(0, Math.min(1, e - s[m - 1]));
    let j = 0;
    while (s[j + 1] < e) j++;
    const gap = s[j + 1] - s[j];
    return j + 1.5 + (gap > 0 ? (e - s[j]) / gap : 0.5);
  };
  const placeOfRank = (r: number): number => {
    if (m === 0) return 1;
    if (r <= 1.5) return s[0] - (1.5 - Math.max(1, r)) * 2;
    if (r >= m + 0.5) return s[m - 1] + (Math.min(m + 1, r) - m - 0.5) * 2;
    const j = Math.floor(r - 1.5);
    return s[j] + (r - 1.5 - j) * (s[j + 1] - s[j]);
  };
  return { rankOf, placeOfRank };
}
