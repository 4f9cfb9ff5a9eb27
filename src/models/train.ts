import { servedAsOf, type Config } from '../config.js';
import type { DatabaseHandle } from '../data/db.js';
import { DEFAULT_BUNDLE_SETTINGS, expectedBundleVersion } from './state.js';
import { loadBundle, saveBundle } from './artifacts.js';
import { buildSnapshot, type Snapshot } from '../domain/snapshot.js';
import { loadWorld, readMeta, replaceModelRatings, type WorldSet } from '../data/world-store.js';
import { trainBundleWithRatings, type ModelBundle } from '../valuation/bundle.js';
import type { RatingRow } from '../domain/world.js';
import { rateAll } from '../valuation/rating/index.js';

export interface TrainResult {
  version: string;
  data_version: string;
  as_of: string;
  file: string;
  ratings: number;
  stats: ModelBundle['stats'];
  ms: number;
}

async function snapshotOf(handle: DatabaseHandle, config: Config, set: WorldSet): Promise<Snapshot> {
  const meta = await readMeta(handle.db, set);
  return buildSnapshot(await loadWorld(handle.db, set), servedAsOf(config, meta), meta.data_version ?? 'empty', meta.ratings_version);
}

async function storeRatings(handle: DatabaseHandle, bundle: ModelBundle, rows: RatingRow[], progress: (line: string) => void, set: WorldSet): Promise<number> {
  await replaceModelRatings(handle.db, rows, bundle.version, set);
  progress(`stored ${rows.length} player-season ratings`);
  return rows.length;
}

/** Fits every model on the data up to the as-of date, stores our ratings and writes the artifact. */
export async function trainModels(
  handle: DatabaseHandle,
  config: Config,
  progress: (line: string) => void,
  /** The world as the caller has just read it; read here otherwise. */
  current?: Snapshot,
  /** The copy trained on and rated: the live world, or an update's staging copy (data/staging.ts). */
  set: WorldSet = 'live',
): Promise<TrainResult> {
  const started = Date.now();
  if (!current) progress('reading the data');
  const snapshot = current ?? (await snapshotOf(handle, config, set));
  progress(`fitting the rating, fee, future-value and team-strength models on data up to ${snapshot.asOf}`);
  const { bundle, ratings: rows } = trainBundleWithRatings(snapshot, DEFAULT_BUNDLE_SETTINGS);
  progress(`fitted (${Object.entries(bundle.stats.fitMs).map(([k, v]) => `${k} ${v} ms`).join(', ')})`);
  const file = saveBundle(config.modelsDir, bundle);
  const ratings = await storeRatings(handle, bundle, rows, progress, set);
  progress(`models written to ${file}`);
  return { version: bundle.version, data_version: bundle.dataVersion, as_of: bundle.asOf, file, ratings, stats: bundle.stats, ms: Date.now() - started };
}

/**
 * Makes sure models trained on the current data exist and our ratings come from them: nothing to
 * do, ratings only (the artifact exists), or a full training. Returns what it did.
 */
export async function ensureModels(
  handle: DatabaseHandle,
  config: Config,
  progress: (line: string) => void,
  /** The world as already read (the server's start-up), so it is not read twice. */
  current?: Snapshot,
  set: WorldSet = 'live',
): Promise<'ready' | 'rated' | 'trained'> {
  const snapshot = current ?? (await snapshotOf(handle, config, set));
  const version = expectedBundleVersion(snapshot);
  const bundle = loadBundle(config.modelsDir, version);
  if (bundle && snapshot.ratingsVersion === version) return 'ready';
  if (bundle) {
    await storeRatings(handle, bundle, rateAll(bundle.rating, snapshot), progress, set);
    return 'rated';
  }
  progress('no models trained on this data yet: training once now (`touchline train` does this on demand)');
  await trainModels(handle, config, progress, snapshot, set);
  return 'trained';
}
