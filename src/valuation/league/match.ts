/**
 * One match as the season simulation plays it, the one match model of the service: home goals
 * Poisson with rate exp(intercept + home advantage of the league + attack[home] − defence[away]),
 * away goals Poisson with rate exp(intercept + attack[away] − defence[home]), joined by the
 * Dixon–Coles low-score dependence: the probability of a score (x, y) is
 *
 *   P(x, y) = tau(x, y) · Poisson(x; home) · Poisson(y; away)
 *   tau(0, 0) = 1 − home·away·rho, tau(0, 1) = 1 + home·rho, tau(1, 0) = 1 + away·rho, tau(1, 1) = 1 − rho
 *
 * and 1 elsewhere. tau keeps both sides' Poisson marginals (the expected goals are the rates), and
 * with rho < 0 moves probability from 1-0 and 0-1 to 0-0 and 1-1. rho is clamped to the range where
 * every tau is non-negative (`effectiveRho`). The simulation draws the home goals from their
 * marginal and the away goals from their law given the home goals (impact/poisson-draws.ts), so it
 * plays exactly this joint distribution. The league forecast's expected points, GET
 * /v1/match_forecast, the promoted clubs' placing and the match backtest read these probabilities.
 *
 * A side's expected goals bend below a ceiling (`GoalCeiling`, learned by the match backtest): the
 * log-linear rate keeps growing with the strength gap, while the goals of the most lopsided fixtures
 * do not (a side three goals up stops pressing).
 */

export function poissonPmf(lambda: number, maxGoals: number): Float64Array {
  const p = new Float64Array(maxGoals + 1);
  p[0] = Math.exp(-lambda);
  for (let k = 1; k <= maxGoals; k++) p[k] = (p[k - 1] * lambda) / k;
  return p;
}

/** Goals per side are capped here, as in the simulation (the tail beyond is negligible). */
export const MATCH_MAX_GOALS = 20;

export interface GoalRates {
  home: number;
  away: number;
  /** the Dixon–Coles dependence of the two sides' goals (0: independent); absent is 0 */
  rho?: number;
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
  expectedGoals: { home: number; away: number };
  /** the likeliest scores, most likely first (as many as asked for) */
  likelyScores: ScoreProbability[];
}

/**
 * Where a side's expected goals bend: rate = r · (1 + (r / level)^sharpness)^(−1 / sharpness) for
 * the log-linear rate r, so r well below `level` is kept and r far above it approaches `level`.
 */
export interface GoalCeiling {
  level: number;
  sharpness: number;
}

/** A side's expected goals from its log-linear rate exp(`logRate`), bent below the ceiling (none: as is). */
export function sideRate(logRate: number, ceiling?: GoalCeiling | null): number {
  const r = Math.exp(logRate);
  return ceiling ? r * Math.pow(1 + Math.pow(r / ceiling.level, ceiling.sharpness), -1 / ceiling.sharpness) : r;
}

/** What a fixture is made of: the league model's constants and each side's strength. */
export interface MatchStrengths {
  intercept: number;
  /** the home advantage of the home side's league */
  homeAdvantage: number;
  rho: number;
  /** absent or null: no ceiling */
  ceiling?: GoalCeiling | null;
  home: { attack: number; defence: number };
  away: { attack: number; defence: number };
}

/** The goal rates and dependence of a fixture; at a neutral venue neither side has the home advantage. */
export function goalRates(s: MatchStrengths, neutral = false): GoalRates {
  return {
    home: sideRate(s.intercept + (neutral ? 0 : s.homeAdvantage) + s.home.attack - s.away.defence, s.ceiling),
    away: sideRate(s.intercept + s.away.attack - s.home.defence, s.ceiling),
    rho: s.rho,
  };
}

/** rho within the range where every tau(x, y) is non-negative for these rates. */
export function effectiveRho(home: number, away: number, rho: number): number {
  if (!(rho !== 0) || !Number.isFinite(rho)) return 0;
  const lo = Math.max(-1 / home, -1 / away), hi = Math.min(1 / (home * away), 1);
  return Math.min(hi, Math.max(lo, rho));
}

/** tau(x, y) of the header (1 outside the four low scores). */
export function tau(x: number, y: number, home: number, away: number, rho: number): number {
  if (x > 1 || y > 1) return 1;
  if (x === 0) return y === 0 ? 1 - home * away * rho : 1 + home * rho;
  return y === 0 ? 1 + away * rho : 1 - rho;
}

/**
 * Home win, draw and away win of the joint model with goals capped at `maxGoals` (renormalised).
 * tau moves rho·home·away·e^(−home−away) from each of 1-0 and 0-1 to each of 0-0 and 1-1, so the
 * correction is added to the independent sums in closed form.
 */
export function outcomeProbabilities(rates: GoalRates, maxGoals = MATCH_MAX_GOALS): [number, number, number] {
  const ph = poissonPmf(rates.home, maxGoals), pa = poissonPmf(rates.away, maxGoals);
  let win = 0, draw = 0, below = 0, totalH = 0;
  for (let x = 0; x <= maxGoals; x++) {
    win += ph[x] * below;
    draw += ph[x] * pa[x];
    below += pa[x];
    totalH += ph[x];
  }
  const total = totalH * below;
  let loss = total - win - draw;
  const rho = effectiveRho(rates.home, rates.away, rates.rho ?? 0);
  if (rho !== 0) {
    const c = rho * ph[1] * pa[1];
    win += c; loss += c; draw -= 2 * c;
  }
  return [win / total, draw / total, loss / total];
}

/** Win, draw and loss probabilities of the home side (summing to 1), and the `likely` likeliest scores. */
export function matchProbabilities(rates: GoalRates, likely = 0): MatchProbabilities {
  const [homeWin, draw, awayWin] = outcomeProbabilities(rates);
  return { homeWin, draw, awayWin, expectedGoals: { home: rates.home, away: rates.away }, likelyScores: likeliestScores(rates, likely) };
}

/** The probability of every score up to `maxGoals` a side, row x (home goals) by column y, summing to 1. */
export function scoreGrid(rates: GoalRates, maxGoals = MATCH_MAX_GOALS): Float64Array {
  const ph = poissonPmf(rates.home, maxGoals), pa = poissonPmf(rates.away, maxGoals);
  const rho = effectiveRho(rates.home, rates.away, rates.rho ?? 0);
  const k1 = maxGoals + 1;
  const grid = new Float64Array(k1 * k1);
  let total = 0;
  for (let x = 0; x <= maxGoals; x++) {
    for (let y = 0; y <= maxGoals; y++) {
      const p = ph[x] * pa[y] * tau(x, y, rates.home, rates.away, rho);
      grid[x * k1 + y] = p;
      total += p;
    }
  }
  for (let i = 0; i < grid.length; i++) grid[i] /= total;
  return grid;
}

function likeliestScores(rates: GoalRates, k: number): ScoreProbability[] {
  if (k <= 0) return [];
  const grid = scoreGrid(rates);
  const k1 = MATCH_MAX_GOALS + 1;
  // the likeliest scores lie among the few goals either side: a 10 x 10 corner holds them for any real rate
  const corner = Math.min(10, MATCH_MAX_GOALS);
  const all: ScoreProbability[] = [];
  for (let x = 0; x <= corner; x++) for (let y = 0; y <= corner; y++) all.push({ home: x, away: y, probability: grid[x * k1 + y] });
  all.sort((a, b) => b.probability - a.probability || a.home - b.home || a.away - b.away);
  return all.slice(0, k);
}

/** Expected points of home and away (3 for a win, 1 for a draw). */
export function matchPoints(rates: GoalRates): { home: number; away: number } {
  const [win, draw, loss] = outcomeProbabilities(rates);
  return { home: 3 * win + draw, away: 3 * loss + draw };
}
