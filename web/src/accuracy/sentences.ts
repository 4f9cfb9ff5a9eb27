/** The model card's figures as a person reads them: one plain sentence above each chart. */
import type { Models } from './data';

const pct = (x: number | null | undefined) => (x === null || x === undefined ? 'n/a' : `${Math.round(100 * x)}%`);
const two = (x: number | null | undefined) => (x === null || x === undefined ? 'n/a' : x.toFixed(2));
const band = (b: string) => ({ '<5M': 'under €5M', '5-20M': '€5–20M', '>=20M': '€20M and above' })[b] ?? b;

export function feeSentences(fee: NonNullable<Models['fee']>): string[] {
  const bands = fee.by_band.map((b) => `in the ${band(b.band)} band our fee is off by a median ${pct(b.model.mdape)}, the crowd's value by ${pct(b.crowd.mdape)}`);
  return [
    `Over ${fee.n} paid transfers after the origins, ${bands.join('; ')}.`,
    `${pct(fee.range_coverage.inside)} of the fees paid fell inside our 80% range (${pct(fee.range_coverage.below)} below it, ${pct(fee.range_coverage.above)} above it).`,
  ];
}

export function futureSentences(future: NonNullable<Models['future']>): string[] {
  return [
    `Three years on, the value we predicted was off by a median factor of ${Math.exp(future.model.mdale ?? 0).toFixed(2)}, the age curve's by ${Math.exp(future.baselines.age_curve.mdale ?? 0).toFixed(2)}; ` +
      `we ranked the ${future.n} players' changes with a rank correlation of ${two(future.model.spearman)}, the age curve with ${two(future.baselines.age_curve.spearman)}.`,
    `${pct(future.range_coverage.inside)} of the values fell inside the 80% range (${pct(future.range_coverage.below)} below it, ${pct(future.range_coverage.above)} above it).`,
  ];
}

export function leagueSentences(league: NonNullable<Models['league']>): string[] {
  return [
    `Predicted on 30 June, a club's final place was off by ${two(league.model.mae_rank)} places on average, Elo's by ${two(league.baselines.elo.mae_rank)} and last season's table's by ${two(league.baselines.last_season.mae_rank)}.`,
    `Promoted clubs: ${two(league.promoted.model)} places off, against ${two(league.promoted.prior)} for placing each where promoted clubs usually finish.`,
  ];
}

export function matchSentences(match: NonNullable<Models['match']>): string[] {
  return [
    `Over ${match.model.matches} league matches predicted before their season, our ranked probability score is ${match.model.rps?.toFixed(4)}, Elo with Poisson goals ${match.baselines.elo_poisson.rps?.toFixed(4)} and the league's base rates ${match.baselines.base_rates.rps?.toFixed(4)} (lower is better).`,
  ];
}
