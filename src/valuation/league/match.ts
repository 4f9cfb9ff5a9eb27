/**
 * One match as the season simulation plays it, the one match model of the service: home goals
 * Poisson with rate exp(intercept + home advantage + attack[home] − defence[away]), away goals
 * Poisson with rate exp(intercept + attack[away] − defence[home]), the two independent (the
 * simulation draws each side on its own uniform, impact/poisson-draws.ts). The league forecast's
 * expected points, GET /v1/match_forecast and the match backtest read these probabilities; the
 * league simulation, the sportive impact and the recommendations draw from the same rates.
 */
import { poissonPmf } from './strength.js';

/** Goals per side are capped here, as in the simulation (the tail beyond is negligible). */
export const MATCH_MAX_GOALS = 20;

export interface GoalRates {
  home: number;
  away: number;
}

export interface ScoreProbability {
  home: number;
  away: number;
  probability: number;
}

export interface MatchProbabilities {
  homeWin: number;
  draw: number;
  awayWin: number;
  expectedGoals: GoalRates;
  /** the likeliest scores, most likely first (as many as asked for) */
  likelyScores: ScoreProbability[];
}

/** What the rates of a fixture are made of: the league model's constants and each side's strength. */
export interface MatchStrengths {
  intercept: number;
  homeAdvantage: number;
  home: { attack: number; defence: number };
  away: { attack: number; defence: number };
}

/** The goal rates of a fixture; at a neutral venue neither side has the home advantage. */
export function goalRates(s: MatchStrengths, neutral = false): GoalRates {
  return {
    home: Math.exp(s.intercept + (neutral ? 0 : s.homeAdvantage) + s.home.attack - s.away.defence),
    away: Math.exp(s.intercept + s.away.attack - s.home.defence),
  };
}

/** Win, draw and loss probabilities of the home side (summing to 1), and the `likely` likeliest scores. */
export function matchProbabilities(rates: GoalRates, likely = 0): MatchProbabilities {
  const ph = poissonPmf(rates.home, MATCH_MAX_GOALS), pa = poissonPmf(rates.away, MATCH_MAX_GOALS);
  let win = 0, draw = 0, loss = 0;
  for (let x = 0; x <= MATCH_MAX_GOALS; x++) {
    for (let y = 0; y <= MATCH_MAX_GOALS; y++) {
      const p = ph[x] * pa[y];
      if (x > y) win += p; else if (x === y) draw += p; else loss += p;
    }
  }
  const total = win + draw + loss;
  return { homeWin: win / total, draw: draw / total, awayWin: loss / total, expectedGoals: rates, likelyScores: likeliestScores(ph, pa, total, likely) };
}

function likeliestScores(ph: Float64Array, pa: Float64Array, total: number, k: number): ScoreProbability[] {
  if (k <= 0) return [];
  // the likeliest scores lie among the few goals either side: a 10 x 10 corner holds them for any real rate
  const corner = Math.min(10, MATCH_MAX_GOALS);
  const all: ScoreProbability[] = [];
  for (let x = 0; x <= corner; x++) for (let y = 0; y <= corner; y++) all.push({ home: x, away: y, probability: (ph[x] * pa[y]) / total });
  all.sort((a, b) => b.probability - a.probability || a.home - b.home || a.away - b.away);
  return all.slice(0, k);
}

/** Expected points of home and away (3 for a win, 1 for a draw). */
export function matchPoints(rates: GoalRates): { home: number; away: number } {
  const m = matchProbabilities(rates);
  return { home: 3 * m.homeWin + m.draw, away: 3 * m.awayWin + m.draw };
}
