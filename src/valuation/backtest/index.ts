/**
 * The backtests every training runs, on the data before the as-of date only, with rolling origins:
 * each held-back season is predicted by models fitted on the 30 June before it. They give the model
 * card (card.ts) and what the served models calibrate from them: the match model's spread of
 * strengths and goal ceiling (learned from the seasons before each scored season; the served model
 * from all of them).
 *
 * Origins: the last `SEASONS` seasons finished by the as-of date; the first of them only teaches the
 * spread. The fee is scored on the last `FEE_ORIGINS` of them, the future value at the origin
 * three years before the as-of date (its horizon), ratings on the latest.
 */
import type { Snapshot } from '../../domain/snapshot.js';
import type { WorldData } from '../../domain/world.js';
import type { FeeSettings } from '../fee/index.js';
import type { FutureSettings } from '../future/index.js';
import { fitFutureModel, HORIZON_YEARS } from '../future/index.js';
import { conformalBounds, fitConformalRange, fitHalfScales, type ConformalRange, type HalfScales } from '../ml/conformal.js';
import { hashString } from '../../domain/hash.js';
import type { ImpactSettings } from '../impact/index.js';
import type { RatingSettings } from '../rating/index.js';
import type { ModelCardModels } from './card.js';
import { feeCard, feeRows, type FeeRow } from './fee.js';
import { futureCard, futureRows, type FutureRow } from './future.js';
import { leagueBacktest } from './league.js';
import { learnMatchCalibration, matchBacktest, seasonInputs, spreadFor, withLeagueSpreads, type MatchCalibration, type SeasonInputs } from './match.js';
import { finishedSeasons, fitAtOrigin, originOf, type BacktestWorld, type OriginFit } from './origins.js';
import { ratingBacktest } from './rating.js';

/** Names what the backtests do and calibrate: a bundle trained with other backtests is another version. */
export const BACKTEST_VERSION = 3;
export const SEASONS = 4;
export const FEE_ORIGINS = 2;

export interface BacktestSettings {
  seed: number;
  rating?: RatingSettings;
  fee?: FeeSettings;
  future?: FutureSettings;
  impact?: ImpactSettings;
}

/** What the served models take from the backtests. */
export interface Calibration {
  /** the impact model's spread (through the dispersion) and goal ceiling */
  match: MatchCalibration;
  /** the fee model's `backtestRange` */
  feeRange: ConformalRange | null;
  /** the future model's `rangeScales` */
  futureScales: HalfScales | null;
}

/** Bins of a player's value for the calibrated ranges: up to 1M, 5M, 20M, and above (log EUR). */
export const VALUE_BINS = [Math.log(1e6), Math.log(5e6), Math.log(20e6)];

export interface BacktestResult {
  models: ModelCardModels;
  calibration: Calibration;
  /** what each part cost, in milliseconds */
  ms: Record<string, number>;
}

/** Runs every backtest on the world up to `last.asOf`; `progress` hears each step. */
export function runBacktests(world: WorldData, last: Snapshot, settings: BacktestSettings, progress: (line: string) => void = () => {}): BacktestResult {
  const w: BacktestWorld = { world, asOf: last.asOf, dataVersion: last.dataVersion, rating: settings.rating ?? {}, impact: settings.impact ?? {} };
  const ms: Record<string, number> = {};
  const timed = <T>(name: string, f: () => T): T => {
    const t = performance.now();
    const out = f();
    ms[name] = (ms[name] ?? 0) + Math.round(performance.now() - t);
    return out;
  };
  const seasons = finishedSeasons(w).slice(0, SEASONS).sort((a, b) => a - b);
  // the latest origin fits its rating model; the earlier ones are rated with it (origins.ts)
  const fits: OriginFit[] = [];
  for (const season of [...seasons].reverse()) {
    progress(`backtest: fitting the models as of ${originOf(season)}`);
    fits.unshift(timed('origins', () => fitAtOrigin(w, season, settings.seed, fits.at(-1)?.rating)));
  }

  // match model: the spread and goal ceiling each season is scored with come from the seasons before it
  const inputs = timed('match', () => fits.map((f) => seasonInputs(w, f)).filter((s): s is SeasonInputs => s !== null));
  const calibrationOf = new Map<number, MatchCalibration>();
  for (const s of inputs) {
    const earlier = inputs.filter((x) => x.season < s.season);
    if (earlier.length > 0) calibrationOf.set(s.season, timed('match', () => learnMatchCalibration(earlier)));
  }
  const calibration = timed('match', () => learnMatchCalibration(inputs));
  const match = timed('match', () => matchBacktest(inputs, (season) => calibrationOf.get(season) ?? null));
  progress('backtest: league tables');
  const dispersionOfSeason = new Map(inputs.map((s) => [s.season, s.dispersion]));
  const league = timed('league', () => leagueBacktest(w, fits.filter((f) => f.impact && calibrationOf.has(f.season)).map((f) => {
    const c = calibrationOf.get(f.season)!;
    return { fit: f, model: { ...f.impact!, spread: spreadFor(c, dispersionOfSeason.get(f.season)!), ceiling: c.ceiling, leagues: withLeagueSpreads(f.impact!.leagues, c) } };
  })));

  progress('backtest: fees');
  const feeOrigins = fits.slice(-FEE_ORIGINS).map((f) => ({ origin: f.origin, snapshot: f.base }));
  let feeRange: ConformalRange | null = null;
  const fee = timed('fee', () => {
    const { rows } = feeRows(last, feeOrigins, { seed: settings.seed, ...settings.fee });
    const conformal = (list: readonly FeeRow[]) => fitConformalRange(list.map((r) => ({ key: Math.log(r.last), logRatio: Math.log(r.fee / r.pred) })), VALUE_BINS);
    feeRange = conformal(rows);
    // each origin's rows get the range learned from the other origins' (none left: the model's own)
    const byOrigin = new Map(feeOrigins.map((o) => [o.origin, conformal(rows.filter((r) => r.origin !== o.origin))]));
    return feeCard(rows, feeOrigins.map((o) => o.origin), (r) => {
      const range = byOrigin.get(r.origin);
      return range ? conformalBounds(range, Math.log(r.last), r.pred) : { low: r.low, high: r.high };
    });
  });

  progress('backtest: future values');
  // the origin three years before the as-of date: the horizon the model answers
  const futureSeason = Number(last.asOf.slice(0, 4)) - HORIZON_YEARS - (last.asOf.slice(5) >= '06-30' ? 0 : 1);
  const futureFit = fits.find((f) => f.season === futureSeason);
  let futureScales: HalfScales | null = null;
  const future = futureFit ? timed('future', () => {
    const model = fitFutureModel(futureFit.base, futureFit.rating, { seed: settings.seed, ...settings.future });
    const raw = futureRows(last, futureFit.base, futureFit.rating, model);
    const scalesOf = (list: readonly FutureRow[]) => fitHalfScales(list.map((r) => ({
      key: Math.log(r.start), logRatio: Math.log(r.actual / r.pred), down: Math.log(r.pred / r.low), up: Math.log(r.high / r.pred),
    })), VALUE_BINS);
    futureScales = scalesOf(raw);
    // two halves of the players, each predicted with the scales the other half gives
    const half = (r: { playerId: string }) => hashString(r.playerId) & 1;
    const calibrated = [0, 1].flatMap((h) => futureRows(last, futureFit.base, futureFit.rating, { ...model, rangeScales: scalesOf(raw.filter((r) => half(r) !== h)) },
      new Set(raw.filter((r) => half(r) === h).map((r) => r.playerId))));
    return futureCard(raw, calibrated, [futureFit.origin]);
  }) : null;

  const rating = timed('rating', () => ratingBacktest(last, fits.slice(-1)));
  const models: ModelCardModels = {};
  if (fee) models.fee = fee;
  if (future) models.future = future;
  if (rating) models.rating = rating;
  if (league) models.league = league;
  if (match) models.match = match;
  return { models, calibration: { match: calibration, feeRange, futureScales }, ms };
}
