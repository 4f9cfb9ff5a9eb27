/** What a what-if simulation of one club's league takes and gives (scenarios.ts runs it, baseline-runs.ts replays it on kept baselines). */
import type { GoalCeiling } from '../league/match.js';

export interface ScenarioStrengths {
  /** attack per club, in the order of `clubIds` */
  attack: readonly number[];
  defence: readonly number[];
}

export interface ScenarioLeagueInput {
  clubIds: readonly string[];
  intercept: number;
  /** the league's home advantage */
  homeAdvantage: number;
  /** the match model's low-score dependence (league/match.ts; 0: independent goals) */
  rho: number;
  /** where a side's expected goals bend (league/match.ts); absent or null: none */
  ceiling?: GoalCeiling | null;
  /** the club whose rank is tracked */
  target: string;
  scenarios: readonly ScenarioStrengths[];
}

export interface ScenarioSettings {
  seed: number;
  /** standard error of the tracked club's expected position in every scenario; default 0.05 */
  targetStandardError?: number;
  /** scenario whose standard error sets the run count; default 0 */
  runsFrom?: number;
  /** default 512 */
  pilotRuns?: number;
  /** default 100000 */
  maxRuns?: number;
  /** goals per side are capped here (tail mass on the cap); default 20 */
  maxGoals?: number;
  /** fixed run count (no adaptation; rounded up to whole antithetic pairs), for tests and benches */
  runs?: number;
}

export interface ScenarioOutcome {
  expectedPosition: number;
  standardError: number;
  /** probability of each final place, index 0 = first */
  positionProbabilities: number[];
}

export interface ScenarioResult {
  seed: number;
  runs: number;
  clubs: number;
  outcomes: ScenarioOutcome[];
}
