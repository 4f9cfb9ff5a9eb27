/**
 * The match backtest: every league match of each held-back season, predicted on the 30 June before
 * it by the match model the simulation plays (league/match.ts, on the impact model fitted at that
 * origin), beside two baselines computed the same way: Elo with Poisson goals and the league's base
 * rates of home wins, draws and away wins. Scored by the ranked probability score of the three
 * ordered outcomes, log loss and accuracy, with the calibration of each outcome by tenth.
 *
 * It also teaches the match model what the strength fit cannot: how far the clubs' strengths should
 * spread (`MatchCalibration.dispersion`), how much further or less in each league (`leagueSpread`)
 * and where a side's expected goals bend (the goal ceiling).
 */
import { seasonLabel } from '../../domain/season.js';
import type { MatchRow } from '../../domain/world.js';
import type { Snapshot } from '../../domain/snapshot.js';
import { leagueMatchModel, leagueStrengths, type ImpactArtifact } from '../impact/index.js';
import { eloAtSeasonStarts, eloPoissonRates, fitEloPoisson } from '../league/elo-poisson.js';
import { goalRates, matchProbabilities, outcomeProbabilities, type GoalCeiling } from '../league/match.js';
import type { MatchRow as StrengthRow } from '../league/strength.js';
import { logLoss, rankedProbabilityScore } from '../ml/metrics.js';
import type { CalibrationBin, MatchCard, MatchMetrics } from './card.js';
import { leagueMatchesOf, type BacktestWorld, type OriginFit } from './origins.js';

/** home win, draw, away win */
type Probs = [number, number, number];
const OUTCOMES = ['home_win', 'draw', 'away_win'] as const;

const outcomeOf = (m: MatchRow) => (m.home_goals > m.away_goals ? 0 : m.home_goals === m.away_goals ? 1 : 2);

export function strengthRows(matches: readonly MatchRow[]): StrengthRow[] {
  return matches.map((m) => ({ date: m.date, home: m.home_club_id, away: m.away_club_id, homeGoals: m.home_goals, awayGoals: m.away_goals, competition: m.competition_id }));
}

export function matchMetrics(probs: readonly Probs[], outcomes: readonly number[]): MatchMetrics {
  let hits = 0;
  probs.forEach((p, i) => {
    const best = p[0] >= p[1] && p[0] >= p[2] ? 0 : p[1] >= p[2] ? 1 : 2;
    if (best === outcomes[i]) hits++;
  });
  return { matches: probs.length, rps: rankedProbabilityScore(probs, outcomes), log_loss: logLoss(probs, outcomes), accuracy: hits / probs.length };
}

/** Predicted against observed frequency of each outcome, by tenth of the predicted probability. */
export function calibrationBins(probs: readonly Probs[], outcomes: readonly number[]): CalibrationBin[] {
  const bins: CalibrationBin[] = [];
  for (let k = 0; k < 3; k++) {
    for (let tenth = 0; tenth < 10; tenth++) {
      let n = 0, predicted = 0, observed = 0;
      probs.forEach((p, i) => {
        if (Math.min(9, Math.floor(p[k] * 10)) !== tenth) return;
        n++;
        predicted += p[k];
        if (outcomes[i] === k) observed++;
      });
      if (n > 0) bins.push({ outcome: OUTCOMES[k], tenth, n, predicted: predicted / n, observed: observed / n });
    }
  }
  return bins;
}

/** A club new to the data at a season's start plays at the mean rating of the clubs that left its league. */
function newcomerRating(ratings: ReadonlyMap<string, number>, leaving: readonly string[]): number {
  const known = leaving.map((c) => ratings.get(c)).filter((r): r is number => r !== undefined);
  if (known.length > 0) return known.reduce((a, b) => a + b, 0) / known.length;
  const all = [...ratings.values()].sort((a, b) => a - b);
  return all.length ? all[Math.floor(all.length * 0.15)] : 1500;
}

interface Side {
  attack: number;
  defence: number;
}

/** One held-back match with what the model's probabilities are made of, before any spread. */
interface MatchInput {
  outcome: number;
  league: string;
  /** home and away club ids */
  clubs: [string, string];
  /** home and away goals */
  goals: [number, number];
  intercept: number;
  homeAdvantage: number;
  rho: number;
  /** the league's mean strength, around which the spread is taken */
  mean: Side;
  home: Side;
  away: Side;
  elo: Probs;
  base: Probs;
}

export interface SeasonInputs {
  season: number;
  origin: string;
  /** the strengths' dispersion as fitted (`strengthDispersion`) */
  dispersion: number;
  matches: MatchInput[];
}

/** What the match model learns from held-back seasons. */
export interface MatchCalibration {
  /** the dispersion the spread strengths should have (null: none learned, spread 1) */
  dispersion: number | null;
  ceiling: GoalCeiling | null;
  /** each league's own factor on that spread (a league not named: 1) */
  leagueSpread: Record<string, number>;
}

/**
 * Matches a league's own spread needs to count as much as the pooled one (about three seasons): a
 * league's best factor on a season or two is mostly noise (it moved Serie A's between 1.15 and 1.55
 * from one origin to the next on the real data).
 */
export const LEAGUE_SPREAD_PRIOR_MATCHES = 1000;

/**
 * How widely a league's strengths set its fixtures apart: the root mean square, over every ordered
 * pair of clubs of the leagues given, of attack[i] − defence[j] measured from the league's mean.
 */
export function strengthDispersion(leagues: ReadonlyArray<{ attack: readonly number[]; defence: readonly number[]; mean: Side }>): number {
  let sum = 0, pairs = 0;
  for (const l of leagues) {
    for (let i = 0; i < l.attack.length; i++) {
      for (let j = 0; j < l.defence.length; j++) {
        if (i === j) continue;
        sum += (l.attack[i] - l.mean.attack - (l.defence[j] - l.mean.defence)) ** 2;
        pairs++;
      }
    }
  }
  return pairs > 0 ? Math.sqrt(sum / pairs) : 0;
}

/** strengthDispersion of the analysis season's leagues (the model's spread as it stands); 0 with none. */
export function dispersionOf(impact: ImpactArtifact, snapshot: Snapshot, leagues: Iterable<string>): number {
  const list = [];
  for (const league of leagues) {
    if ((snapshot.analysisClubsOfLeague.get(league) ?? []).length < 2) continue;
    const s = leagueStrengths(impact, snapshot, league);
    list.push({ attack: s.attack, defence: s.defence, mean: s.ctx.strengthMean });
  }
  return strengthDispersion(list);
}

/**
 * The spread that takes strengths of dispersion `dispersion` to the learned one. The tie's
 * regression towards the mean is stronger at some origins than at others (how much of a squad the
 * ratings cover), so a learned factor lagged behind; the spread-out dispersion stays steadier.
 */
export function spreadFor(c: Pick<MatchCalibration, 'dispersion'>, dispersion: number): number {
  return c.dispersion === null || !(dispersion > 0) ? 1 : Math.round((c.dispersion / dispersion) * 100) / 100;
}

/** The leagues' tie contexts with the calibration's own spread of each (impact/model.ts `strengthOf` reads it). */
export function withLeagueSpreads(leagues: ImpactArtifact['leagues'], c: MatchCalibration): ImpactArtifact['leagues'] {
  return Object.fromEntries(Object.entries(leagues).map(([league, ctx]) => [league, { ...ctx, spread: c.leagueSpread[league] ?? 1 }]));
}

const spreadSide = (s: Side, mean: Side, k: number): Side => ({ attack: mean.attack + k * (s.attack - mean.attack), defence: mean.defence + k * (s.defence - mean.defence) });

/** The match model's probabilities with the strengths spread by `k` around their league's mean (model.ts `spread`) and the goal ceiling. */
function modelProbs(m: MatchInput, k: number, ceiling: GoalCeiling | null): Probs {
  return outcomeProbabilities(goalRates({ intercept: m.intercept, homeAdvantage: m.homeAdvantage, rho: m.rho, ceiling, home: spreadSide(m.home, m.mean, k), away: spreadSide(m.away, m.mean, k) }));
}

/** Every league match of the fit's season with the model's strengths as fitted (spread 1) and the baselines' probabilities. */
export function seasonInputs(w: BacktestWorld, fit: OriginFit): SeasonInputs | null {
  const impact = fit.impact;
  if (!impact) return null;
  const season = fit.season;
  const games = leagueMatchesOf(w, season);
  if (games.length === 0) return null;
  const leagues = new Set(games.map((g) => g.competition_id));
  const before = w.world.matches.filter((m) => m.date <= fit.origin && leagues.has(m.competition_id));
  const starts = eloAtSeasonStarts(strengthRows(before));
  const elo = fitEloPoisson(strengthRows(before), season, 3, starts);
  const ratings = new Map(Object.entries(elo.ratings));
  const matches: MatchInput[] = [];
  const byLeague = new Map<string, MatchRow[]>();
  for (const g of games) byLeague.set(g.competition_id, [...(byLeague.get(g.competition_id) ?? []), g]);
  for (const [league, list] of [...byLeague].sort(([a], [b]) => a.localeCompare(b))) {
    const strengths = leagueStrengths(impact, fit.next, league);
    const constants = leagueMatchModel(impact, league);
    const index = new Map(strengths.clubs.map((c, i) => [c, i]));
    const clubs = new Set(list.flatMap((g) => [g.home_club_id, g.away_club_id]));
    const last = new Set(before.filter((m) => m.competition_id === league && m.season === season - 1).flatMap((m) => [m.home_club_id, m.away_club_id]));
    const newcomer = newcomerRating(ratings, [...last].filter((c) => !clubs.has(c)));
    const counts = [0, 0, 0];
    for (const m of before) if (m.competition_id === league && m.season >= season - 3) counts[outcomeOf(m)]++;
    const total = counts[0] + counts[1] + counts[2];
    const base: Probs = total > 0 ? [counts[0] / total, counts[1] / total, counts[2] / total] : [0.45, 0.27, 0.28];
    for (const g of list) {
      const h = index.get(g.home_club_id), a = index.get(g.away_club_id);
      if (h === undefined || a === undefined) continue;
      const e = matchProbabilities(eloPoissonRates(elo, g.home_club_id, g.away_club_id, newcomer));
      matches.push({
        outcome: outcomeOf(g), league, clubs: [g.home_club_id, g.away_club_id], goals: [g.home_goals, g.away_goals], ...constants, mean: strengths.ctx.strengthMean,
        home: { attack: strengths.attack[h], defence: strengths.defence[h] }, away: { attack: strengths.attack[a], defence: strengths.defence[a] },
        elo: [e.homeWin, e.draw, e.awayWin], base,
      });
    }
  }
  return matches.length ? { season, origin: fit.origin, dispersion: dispersionOf(impact, fit.next, byLeague.keys()), matches } : null;
}

/** The minimum of `f` on [a, b] by golden-section search, to `tol`. */
function goldenMin(f: (x: number) => number, a: number, b: number, tol: number): number {
  const phi = (Math.sqrt(5) - 1) / 2;
  let c = b - phi * (b - a), d = a + phi * (b - a);
  let fc = f(c), fd = f(d);
  while (b - a > tol) {
    if (fc < fd) { b = d; d = c; fd = fc; c = b - phi * (b - a); fc = f(c); }
    else { a = c; c = d; fc = fd; d = a + phi * (b - a); fd = f(d); }
  }
  return (a + b) / 2;
}

/** The dispersion whose spreads give the lowest mean RPS on the seasons given (their spreads 0.5-3 on average). */
function learnDispersion(seasons: readonly SeasonInputs[], ceiling: GoalCeiling | null): number {
  const outcomes = seasons.flatMap((s) => s.matches.map((m) => m.outcome));
  const loss = (target: number) => rankedProbabilityScore(seasons.flatMap((s) => {
    const k = target / s.dispersion;
    return s.matches.map((m) => modelProbs(m, k, ceiling));
  }), outcomes);
  const n = outcomes.length;
  const mean = seasons.reduce((a, s) => a + s.dispersion * s.matches.length, 0) / n;
  return Math.round(goldenMin(loss, 0.5 * mean, 3 * mean, 0.002 * mean) * 10000) / 10000;
}

/**
 * The goal ceiling under which the seasons' goals are likeliest (Poisson), with the strengths spread
 * to `dispersion`: level 1.5-10 goals, sharpness 1-20 (golden sections on their logs, one inside the
 * other). The outcomes barely feel the few most lopsided fixtures; their goals do.
 */
function learnCeiling(seasons: readonly SeasonInputs[], dispersion: number): GoalCeiling {
  const n = seasons.reduce((a, s) => a + 2 * s.matches.length, 0);
  const logRate = new Float64Array(n), goals = new Float64Array(n);
  let i = 0;
  for (const s of seasons) {
    const k = dispersion / s.dispersion;
    for (const m of s.matches) {
      const h = spreadSide(m.home, m.mean, k), a = spreadSide(m.away, m.mean, k);
      logRate[i] = m.intercept + m.homeAdvantage + h.attack - a.defence; goals[i++] = m.goals[0];
      logRate[i] = m.intercept + a.attack - h.defence; goals[i++] = m.goals[1];
    }
  }
  // sideRate in logs: log rate' = log r − log(1 + (r / level)^s) / s (the search calls this a few hundred times)
  const nll = (c: GoalCeiling) => {
    const lnLevel = Math.log(c.level);
    let t = 0;
    for (let j = 0; j < n; j++) {
      const lr = logRate[j] - Math.log1p(Math.exp(c.sharpness * (logRate[j] - lnLevel))) / c.sharpness;
      t += Math.exp(lr) - goals[j] * lr;
    }
    return t;
  };
  const levelFor = (sharpness: number) => Math.exp(goldenMin((l) => nll({ level: Math.exp(l), sharpness }), Math.log(1.5), Math.log(10), 0.002));
  const sharpness = Math.exp(goldenMin((p) => nll({ level: levelFor(Math.exp(p)), sharpness: Math.exp(p) }), 0, Math.log(20), 0.01));
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return { level: round(levelFor(sharpness)), sharpness: round(sharpness) };
}

/**
 * Each league's factor on the spread: the one with the lowest RPS on its matches (0.5-2), shrunk
 * towards 1 by LEAGUE_SPREAD_PRIOR_MATCHES. One dispersion for every league leaves the favourites of
 * the leagues whose strengths the tie compresses most winning more often than called.
 */
function learnLeagueSpreads(seasons: readonly SeasonInputs[], dispersion: number, ceiling: GoalCeiling | null): Record<string, number> {
  const byLeague = new Map<string, { m: MatchInput; k: number }[]>();
  for (const s of seasons) {
    const k = dispersion / s.dispersion;
    for (const m of s.matches) {
      const list = byLeague.get(m.league);
      if (list) list.push({ m, k }); else byLeague.set(m.league, [{ m, k }]);
    }
  }
  const spreads: Record<string, number> = {};
  for (const [league, rows] of [...byLeague].sort(([a], [b]) => a.localeCompare(b))) {
    const outcomes = rows.map((r) => r.m.outcome);
    const best = goldenMin((x) => rankedProbabilityScore(rows.map((r) => modelProbs(r.m, r.k * x, ceiling)), outcomes), 0.5, 2, 0.005);
    spreads[league] = Math.round((1 + ((best - 1) * rows.length) / (rows.length + LEAGUE_SPREAD_PRIOR_MATCHES)) * 100) / 100;
  }
  return spreads;
}

/**
 * The match model's calibration learned from the seasons given: the dispersion by RPS, the goal
 * ceiling by the goals at that dispersion, then the dispersion again under the ceiling, then each
 * league's factor on it. None with no season.
 */
export function learnMatchCalibration(seasons: readonly SeasonInputs[]): MatchCalibration {
  const usable = seasons.filter((s) => s.matches.length > 0 && s.dispersion > 0);
  if (usable.length === 0) return { dispersion: null, ceiling: null, leagueSpread: {} };
  const ceiling = learnCeiling(usable, learnDispersion(usable, null));
  const dispersion = learnDispersion(usable, ceiling);
  return { dispersion, ceiling, leagueSpread: learnLeagueSpreads(usable, dispersion, ceiling) };
}

/**
 * The match card: each season scored with the spread and goal ceiling learned from the seasons
 * before it (`calibrationFor`); seasons without one are left out (they only teach the next).
 */
export function matchBacktest(seasons: readonly SeasonInputs[], calibrationFor: (season: number) => MatchCalibration | null): MatchCard | null {
  const scored = [...seasons].sort((a, b) => a.season - b.season).filter((s) => calibrationFor(s.season) !== null);
  if (scored.length === 0) return null;
  const per = scored.map((s) => {
    const c = calibrationFor(s.season)!;
    const k = spreadFor(c, s.dispersion);
    return { s, k, outcomes: s.matches.map((m) => m.outcome), model: s.matches.map((m) => modelProbs(m, k * (c.leagueSpread[m.league] ?? 1), c.ceiling)), elo: s.matches.map((m) => m.elo), base: s.matches.map((m) => m.base) };
  });
  const all = { outcomes: per.flatMap((p) => p.outcomes), model: per.flatMap((p) => p.model), elo: per.flatMap((p) => p.elo), base: per.flatMap((p) => p.base) };
  return {
    metric: 'rps, log_loss, accuracy',
    origins: per.map((p) => p.s.origin),
    seasons: per.map((p) => ({
      season: seasonLabel(p.s.season),
      spread: p.k,
      model: matchMetrics(p.model, p.outcomes),
      elo_poisson: matchMetrics(p.elo, p.outcomes),
      base_rates: matchMetrics(p.base, p.outcomes),
    })),
    model: matchMetrics(all.model, all.outcomes),
    baselines: { elo_poisson: matchMetrics(all.elo, all.outcomes), base_rates: matchMetrics(all.base, all.outcomes) },
    calibration: calibrationBins(all.model, all.outcomes),
  };
}
