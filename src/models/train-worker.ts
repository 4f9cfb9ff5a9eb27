/**
 * The training thread (a piscina task, models/train.ts): fits every model and runs the backtests
 * (valuation/bundle.ts `trainBundleWithBacktests`) off the thread that serves, so a server keeps
 * answering while it trains. Progress lines go to the port given; the bundle and our ratings are
 * the task's answer.
 */
import type { MessagePort } from 'node:worker_threads';
import { buildSnapshot } from '../domain/snapshot.js';
import type { RatingRow, WorldData } from '../domain/world.js';
import { trainBundleWithBacktests, type BundleSettings, type ModelBundle } from '../valuation/bundle.js';

export interface TrainJob {
  world: WorldData;
  asOf: string;
  dataVersion: string;
  ratingsVersion: string;
  settings: BundleSettings;
  generatedAt: string;
}

export default function train({ job, progress }: { job: TrainJob; progress: MessagePort }): { bundle: ModelBundle; ratings: RatingRow[] } {
  const snapshot = buildSnapshot(job.world, job.asOf, job.dataVersion, job.ratingsVersion);
  try {
    return trainBundleWithBacktests(job.world, snapshot, job.settings, job.generatedAt, (line) => progress.postMessage(line));
  } finally {
    progress.close();
  }
}
