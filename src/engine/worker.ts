/**
 * The entry of an analysis worker thread (piscina). It holds one package's snapshot and models,
 * unpacked when a task names a package it does not hold (the first task, then after a world swap),
 * and answers tasks with runTask, the same function the main thread would run.
 */
import { featureIndex } from '../valuation/features/index.js';
import { positionPools } from '../valuation/recommend/index.js';
import { unpack, type EnginePackage } from './package.js';
import { runTask, type EngineModels, type Task, type TaskResult } from './tasks.js';

export interface WorkerMessage {
  pkg: EnginePackage;
  task: Task;
}

let held: { key: string; models: EngineModels } | null = null;

function modelsOf(pkg: EnginePackage): EngineModels {
  if (held?.key === pkg.key) return held.models;
  held = null; // let the previous world go before the next is built
  const { snapshot, bundle } = unpack(pkg);
  // what ModelState warms on the main thread, paid once here rather than by the first request that needs it
  featureIndex(snapshot);
  if (bundle.impact) positionPools(bundle.impact, snapshot);
  held = { key: pkg.key, models: { snapshot, bundle, rois: new Map() } };
  return held.models;
}

export default function work(msg: WorkerMessage): TaskResult {
  return runTask(modelsOf(msg.pkg), msg.task);
}
