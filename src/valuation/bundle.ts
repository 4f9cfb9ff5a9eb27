/**
 * One call that fits every Valuation I model on a snapshot, for `touchline train` and the server.
 * The bundle is JSON but for a few large typed arrays (revivedBundle turns them back after reading);
 * its version names the data, the as-of date, the settings and the model versions, so the same
 * inputs always give the same version.
 */
import { createHash } from 'node:crypto';
import type { Snapshot } from '../domain/snapshot.js';
import { FEE_MODEL_VERSION, fitFeeModel, type FeeArtifact, type FeeSettings } from './fee/index.js';
import { FUTURE_MODEL_VERSION, fitFutureModel, revivedFuture, type FutureArtifact, type FutureSettings } from './future/index.js';
import { RATING_MODEL_VERSION, fitRatingModel, rateAll, type RatingArtifact, type RatingSettings } from './rating/index.js';
import { IMPACT_MODEL_VERSION, ImpactError, fitImpactModel, withModelRatings, type ImpactArtifact, type ImpactSettings } from './impact/index.js';
import type { RatingRow, WorldData } from '../domain/world.js';
import { BACKTEST_VERSION, runBacktests } from './backtest/index.js';
import { dispersionOf, spreadFor, withLeagueSpreads } from './backtest/match.js';
import type { ModelCard } from './backtest/card.js';

export const BUNDLE_FORMAT = 1;

export interface BundleSettings {
  seed?: number;
  /** false: no backtests at training (no card, nothing calibrated from them); default true */
  backtests?: boolean;
  rating?: RatingSettings;
  fee?: FeeSettings;
  future?: FutureSettings;
  impact?: ImpactSettings;
}

export interface ModelBundle {
  kind: 'touchline-models';
  format: number;
  version: string;
  dataVersion: string;
  asOf: string;
  settings: BundleSettings;
  rating: RatingArtifact;
  fee: FeeArtifact;
  future: FutureArtifact;
  /** null when the data holds no league results to fit team strength on. */
  impact: ImpactArtifact | null;
  /** What the backtests at training measured (GET /v1/model_card); null when trained without them. */
  card: ModelCard | null;
  stats: {
    fitMs: { rating: number; fee: number; future: number; impact: number };
    rating: RatingArtifact['calibration'];
    fee: FeeArtifact['stats'];
    future: FutureArtifact['stats'];
  };
}

export function bundleVersion(dataVersion: string, asOf: string, settings: BundleSettings): string {
  const h = createHash('sha256')
    .update(JSON.stringify({ settings, models: [RATING_MODEL_VERSION, FEE_MODEL_VERSION, FUTURE_MODEL_VERSION, IMPACT_MODEL_VERSION, BACKTEST_VERSION, BUNDLE_FORMAT] }))
    .digest('hex')
    .slice(0, 10);
  return `${dataVersion}@${asOf}#${h}`;
}

/** Data without league results (a players-only import) still gets its rating, fee and value models. */
function fitImpactOrNull(snapshot: Snapshot, settings: ImpactSettings | undefined): ImpactArtifact | null {
  try {
    return fitImpactModel(snapshot, settings);
  } catch (err) {
    if (err instanceof ImpactError && err.code === 'no_training_data') return null;
    throw err;
  }
}

/** Fits every model on the snapshot (nothing after its as-of date is visible). */
/** The bundle from its JSON (data/artifact-files.ts writes typed arrays as arrays). */
export function revivedBundle(json: ModelBundle): ModelBundle {
  return { ...json, future: revivedFuture(json.future) };
}

export function trainBundle(snapshot: Snapshot, settings: BundleSettings = {}): ModelBundle {
  return trainBundleWithRatings(snapshot, settings).bundle;
}

/**
 * Fits rating, fee and future models, rates every player-season with our rating model, and fits
 * the team-strength model on those ratings. The ratings come back beside the bundle for storing,
 * with the snapshot holding them (the one the team-strength model was fitted on).
 */
export function trainBundleWithRatings(snapshot: Snapshot, settings: BundleSettings = {}): { bundle: ModelBundle; ratings: RatingRow[]; rated: Snapshot } {
  const seed = settings.seed ?? 0;
  // Timings are reported for the operator; they do not change the fitted models.
  const t0 = performance.now();
  const rating = fitRatingModel(snapshot, { seed, ...settings.rating });
  const t1 = performance.now();
  const fee = fitFeeModel(snapshot, { seed, ...settings.fee });
  const t2 = performance.now();
  const future = fitFutureModel(snapshot, rating, { seed, ...settings.future });
  const t3 = performance.now();
  const ratings = rateAll(rating, snapshot);
  const rated = withModelRatings(snapshot, ratings);
  const impact = fitImpactOrNull(rated, settings.impact);
  const t4 = performance.now();
  const bundle: ModelBundle = {
    kind: 'touchline-models',
    format: BUNDLE_FORMAT,
    version: bundleVersion(snapshot.dataVersion, snapshot.asOf, settings),
    dataVersion: snapshot.dataVersion,
    asOf: snapshot.asOf,
    settings,
    rating,
    fee,
    future,
    impact,
    card: null,
    stats: {
      fitMs: { rating: Math.round(t1 - t0), fee: Math.round(t2 - t1), future: Math.round(t3 - t2), impact: Math.round(t4 - t3) },
      rating: rating.calibration,
      fee: fee.stats,
      future: future.stats,
    },
  };
  return { bundle, ratings, rated };
}

/**
 * trainBundleWithRatings, then the backtests on the same data (backtest/index.ts): the served models
 * take what the backtests calibrate (the match model's spread and goal ceiling, the fee's and the future value's
 * ranges) and the bundle carries the card. `generatedAt` is when the card is made (the caller's clock).
 */
export function trainBundleWithBacktests(
  world: WorldData,
  snapshot: Snapshot,
  settings: BundleSettings,
  generatedAt: string,
  progress: (line: string) => void = () => {},
): { bundle: ModelBundle; ratings: RatingRow[] } {
  const { bundle, ratings, rated } = trainBundleWithRatings(snapshot, settings);
  if (settings.backtests === false) return { bundle, ratings };
  const t0 = performance.now();
  const seed = settings.seed ?? 0;
  const result = runBacktests(world, snapshot, { seed, rating: settings.rating, fee: settings.fee, future: settings.future, impact: settings.impact }, progress);
  bundle.fee.backtestRange = result.calibration.feeRange;
  bundle.future.rangeScales = result.calibration.futureScales;
  if (bundle.impact) {
    // measured on a copy: the strengths memo is kept per artifact, and these are the ones before the spread
    const dispersion = dispersionOf({ ...bundle.impact }, rated, rated.analysisClubsOfLeague.keys());
    bundle.impact.spread = spreadFor(result.calibration.match, dispersion);
    bundle.impact.leagues = withLeagueSpreads(bundle.impact.leagues, result.calibration.match);
    bundle.impact.ceiling = result.calibration.match.ceiling;
  }
  bundle.card = {
    as_of: bundle.asOf,
    data_version: bundle.dataVersion,
    model_version: bundle.version,
    generated_at: generatedAt,
    backtest_seconds: Math.round((performance.now() - t0) / 100) / 10,
    models: result.models,
  };
  return { bundle, ratings };
}
