import { servedAsOf, type Config } from '../config.js';
import type { DatabaseHandle } from '../data/db.js';
import { bundleSettingsOf, expectedBundleVersion } from './state.js';
import { loadBundle, saveBundle } from './artifacts.js';
import { buildSnapshot, type Snapshot } from '../domain/snapshot.js';
import { loadWorld, readMeta, replaceModelRatings, type WorldSet } from '../data/world-store.js';
import type { ModelBundle } from '../valuation/bundle.js';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { workerModule } from '../threads.js';
import type { TrainJob } from './train-worker.js';
import type { RatingRow, WorldData } from '../domain/world.js';
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

/** The world as stored and its snapshot as of the date in force: what training reads. */
export interface TrainingData {
  world: WorldData;
  snapshot: Snapshot;
}

async function trainingDataOf(handle: DatabaseHandle, config: Config, set: WorldSet): Promise<TrainingData> {
  const meta = await readMeta(handle.db, set);
  const world = await loadWorld(handle.db, set);
  return { world, snapshot: buildSnapshot(world, servedAsOf(config, meta), meta.data_version ?? 'empty', meta.ratings_version) };
}

async function storeRatings(handle: DatabaseHandle, bundle: ModelBundle, rows: RatingRow[], progress: (line: string) => void, set: WorldSet): Promise<number> {
  await replaceModelRatings(handle.db, rows, bundle.version, set);
  progress(`stored ${rows.length} player-season ratings`);
  return rows.length;
}

const trainer = workerModule(import.meta.url, 'train-worker');

/** Trains in a thread of its own (train-worker.ts): the calling thread stays free to serve. */
async function trainInThread(job: TrainJob, progress: (line: string) => void): Promise<{ bundle: ModelBundle; ratings: RatingRow[] }> {
  const pool = new Piscina({ filename: trainer.url.href, execArgv: trainer.execArgv, minThreads: 1, maxThreads: 1 });
  const { port1, port2 } = new MessageChannel();
  port1.on('message', (line: string) => progress(line));
  try {
    return (await pool.run({ job, progress: port2 }, { transferList: [port2] })) as { bundle: ModelBundle; ratings: RatingRow[] };
  } finally {
    port1.close();
    await pool.destroy();
  }
}

/** Fits every model on the data up to the as-of date, stores our ratings and writes the artifact. */
export async function trainModels(
  handle: DatabaseHandle,
  config: Config,
  progress: (line: string) => void,
  /** The world as the caller has just read it; read here otherwise. */
  current?: TrainingData,
  /** The copy trained on and rated: the live world, or an update's staging copy (data/staging.ts). */
  set: WorldSet = 'live',
): Promise<TrainResult> {
  const started = Date.now();
  if (!current) progress('reading the data');
  const { world, snapshot } = current ?? (await trainingDataOf(handle, config, set));
  progress(`fitting the rating, fee, future-value and team-strength models on data up to ${snapshot.asOf}, then backtesting them on the seasons before it`);
  const { bundle, ratings: rows } = await trainInThread({
    world, asOf: snapshot.asOf, dataVersion: snapshot.dataVersion, ratingsVersion: snapshot.ratingsVersion, settings: bundleSettingsOf(config), generatedAt: new Date(started).toISOString(),
  }, progress);
  progress(`fitted (${Object.entries(bundle.stats.fitMs).map(([k, v]) => `${k} ${v} ms`).join(', ')}; backtests ${bundle.card?.backtest_seconds ?? 0} s)`);
  const file = saveBundle(config.modelsDir, bundle);
  const ratings = await storeRatings(handle, bundle, rows, progress, set);
  progress(`models written to ${file}`);
  return { version: bundle.version, data_version: bundle.dataVersion, as_of: bundle.asOf, file, ratings, stats: bundle.stats, ms: Date.now() - started };
}

/**
 * Makes sure models trained on the current data exist and our ratings come from them: nothing to
 * do, ratings only (the artifact exists), or a full training (`train: false` leaves it to the caller:
 * 'missing'). Returns what it did.
 */
export async function ensureModels(
  handle: DatabaseHandle,
  config: Config,
  progress: (line: string) => void,
  /** The world as already read (the server's start-up), so it is not read twice. */
  current?: TrainingData,
  set: WorldSet = 'live',
  opts: { train?: boolean } = {},
): Promise<'ready' | 'rated' | 'trained' | 'missing'> {
  const data = current ?? (await trainingDataOf(handle, config, set));
  const snapshot = data.snapshot;
  const version = expectedBundleVersion(snapshot, bundleSettingsOf(config));
  const bundle = loadBundle(config.modelsDir, version);
  if (bundle && snapshot.ratingsVersion === version) return 'ready';
  if (bundle) {
    await storeRatings(handle, bundle, rateAll(bundle.rating, snapshot), progress, set);
    return 'rated';
  }
  if (opts.train === false) return 'missing';
  progress('no models trained on this data yet: training once now (`touchline train` does this on demand)');
  await trainModels(handle, config, progress, data, set);
  return 'trained';
}
