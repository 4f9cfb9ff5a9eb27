/**
 * The match backtest: every league match of each held-back season, predicted on the 30 June before
 * it by the match model the simulation plays (league/match.ts, on the impact model fitted at that
 * origin), beside two baselines computed the same way: Elo with Poisson goals and the league's base
 * rates of home wins, draws and away wins. Scored by the ranked probability score of the three
 * ordered outcomes, log loss and accuracy, with the calibration of each outcome by tenth.
 */
import { seasonLabel } from '../../domain/season.js';
import type { MatchRow } from '../../domain/world.js';
import { leagueMatchModel, leagueStrengths } from '../impact/index.js';
import { eloAtSeasonStarts, eloPoissonRates, fitEloPoisson } from '../league/elo-poisson.js';
import { goalRates, matchProbabilities } from '../league/match.js';
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
  matches: MatchInput[];
}

const spreadSide = (s: Side, mean: Side, k: number): Side => ({ attack: mean.attack + k * (s.attack - mean.attack), defence: mean.defence + k * (s.defence - mean.defence) });

/** The match model's probabilities with the strengths spread by `k` around their league's mean (model.ts `spread`). */
function modelProbs(m: MatchInput, k: number): Probs {
  const p = matchProbabilities(goalRates({ intercept: m.intercept, homeAdvantage: m.homeAdvantage, rho: m.rho, home: spreadSide(m.home, m.mean, k), away: spreadSide(m.away, m.mean, k) }));
  return [p.homeWin, p.draw, p.awayWin];
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
        outcome: outcomeOf(g), ...constants, mean: strengths.ctx.strengthMean,
        home: { attack: strengths.attack[h], defence: strengths.defence[h] }, away: { attack: strengths.attack[a], defence: strengths.defence[a] },
        elo: [e.homeWin, e.draw, e.awayWin], base,
      });
    }
  }
  return matches.length ? { season, origin: fit.origin, matches } : null;
}

/** The spread with the lowest mean RPS on the seasons given (golden-section search on 0.5-3); 1 with none. */
export function learnSpread(seasons: readonly SeasonInputs[]): number {
  const matches = seasons.flatMap((s) => s.matches);
  if (matches.length === 0) return 1;
  const loss = (k: number) => rankedProbabilityScore(matches.map((m) => modelProbs(m, k)), matches.map((m) => m.outcome));
  const phi = (Math.sqrt(5) - 1) / 2;
  let a = 0.5, b = 3, c = b - phi * (b - a), d = a + phi * (b - a);
  let fc = loss(c), fd = loss(d);
  while (b - a > 0.01) {
    if (fc < fd) { b = d; d = c; fd = fc; c = b - phi * (b - a); fc = loss(c); }
    else { a = c; c = d; fc = fd; d = a + phi * (b - a); fd = loss(d); }
  }
  return Math.round(((a + b) / 2) * 100) / 100;
}

/**
 * The match card: each season scored with the spread learned from the seasons before it (`spreadFor`);
 * seasons without one are left out (they only teach the next).
 */
export function matchBacktest(seasons: readonly SeasonInputs[], spreadFor: (season: number) => number | null): MatchCard | null {
  const scored = [...seasons].sort((a, b) => a.season - b.season).filter((s) => spreadFor(s.season) !== null);
  if (scored.length === 0) return null;
  const per = scored.map((s) => {
    const k = spreadFor(s.season)!;
    return { s, outcomes: s.matches.map((m) => m.outcome), model: s.matches.map((m) => modelProbs(m, k)), elo: s.matches.map((m) => m.elo), base: s.matches.map((m) => m.base) };
  });
  const all = { outcomes: per.flatMap((p) => p.outcomes), model: per.flatMap((p) => p.model), elo: per.flatMap((p) => p.elo), base: per.flatMap((p) => p.base) };
  return {
    metric: 'rps, log_loss, accuracy',
    origins: per.map((p) => p.s.origin),
    seasons: per.map((p) => ({
      season: seasonLabel(p.s.season),
      spread: spreadFor(p.s.season)!,
      model: matchMetrics(p.model, p.outcomes),
      elo_poisson: matchMetrics(p.elo, p.outcomes),
      base_rates: matchMetrics(p.base, p.outcomes),
    })),
    model: matchMetrics(all.model, all.outcomes),
    baselines: { elo_poisson: matchMetrics(all.elo, all.outcomes), base_rates: matchMetrics(all.base, all.outcomes) },
    calibration: calibrationBins(all.model, all.outcomes),
  };
}
