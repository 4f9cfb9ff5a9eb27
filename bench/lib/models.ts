/**
 * The models trained on a world, as the server serves them (backtests and their calibrations
 * included): the bundle, and the snapshot holding our ratings (as `touchline train` stores them). Training the real world takes minutes, so with
 * `cachePath` (outside the repository) a previous training is read back from there, or this one
 * written there.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildSnapshot, type Snapshot } from '../../src/domain/snapshot.js';
import type { RatingRow, WorldData } from '../../src/domain/world.js';
import { artifactJson } from '../../src/data/artifact-files.js';
import { bundleVersion, revivedBundle, trainBundleWithBacktests, type BundleSettings, type ModelBundle } from '../../src/valuation/bundle.js';

/** `--models-cache FILE` from argv. */
export function modelsCacheFromArgs(argv: readonly string[] = process.argv.slice(2)): string | null {
  const i = argv.indexOf('--models-cache');
  return i >= 0 && argv[i + 1] ? resolve(argv[i + 1]) : null;
}

export interface ServedModels {
  bundle: ModelBundle;
  /** The world's snapshot with our ratings in it, as the server builds it after a training. */
  snapshot: Snapshot;
  trainMs: number | null;
}

export function trainedModels(world: WorldData, dataVersion: string, asOf: string, cachePath: string | null, settings: BundleSettings = {}): ServedModels {
  let bundle: ModelBundle;
  let ratings: RatingRow[];
  let trainMs: number | null = null;
  const cached = cachePath && existsSync(cachePath) ? (JSON.parse(readFileSync(cachePath, 'utf8')) as { bundle: ModelBundle; ratings: RatingRow[] }) : null;
  // A cache trained for other data or another as-of date is not these models.
  if (cached && cached.bundle.asOf === asOf && cached.bundle.dataVersion === dataVersion && cached.bundle.version === bundleVersion(dataVersion, asOf, settings)) {
    ({ bundle, ratings } = cached);
    bundle = revivedBundle(bundle);
  } else {
    const t0 = performance.now();
    ({ bundle, ratings } = trainBundleWithBacktests(world, buildSnapshot(world, asOf, dataVersion), settings, new Date().toISOString(), (line) => console.error(line)));
    trainMs = performance.now() - t0;
    if (cachePath) writeFileSync(cachePath, artifactJson({ bundle, ratings }));
  }
  const rated: WorldData = { ...world, ratings: [...world.ratings.filter((r) => r.source !== 'model'), ...ratings] };
  return { bundle, snapshot: buildSnapshot(rated, asOf, dataVersion, bundle.version), trainMs };
}
