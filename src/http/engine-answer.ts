import { EngineBusyError } from '../engine/pool.js';
import type { Task } from '../engine/tasks.js';
import { ImpactError } from '../valuation/impact/index.js';
import type { ModelBundle } from '../valuation/bundle.js';
import type { Snapshot } from '../domain/snapshot.js';
import type { HttpDeps } from './deps.js';
import { ApiError } from './errors.js';

export const ENGINE_BUSY = 'Too many analyses are waiting; try again shortly';

/**
 * A task's answer from the worker pool, on the snapshot and models the request read: the body, an
 * ImpactError for the route's own mapping, or 503 with Retry-After when the pool's queue is full.
 */
export async function engineAnswer<T>(deps: HttpDeps, ctx: { snapshot: Snapshot; bundle: ModelBundle }, task: Task): Promise<T> {
  let result;
  try {
    result = await deps.engine.run({ snapshot: ctx.snapshot, source: deps.source(), bundle: ctx.bundle }, task);
  } catch (err) {
    if (err instanceof EngineBusyError) {
      throw new ApiError(503, ENGINE_BUSY, { retry_after_seconds: err.retryAfterSeconds }, { 'Retry-After': String(err.retryAfterSeconds) });
    }
    throw err;
  }
  if (!result.ok) throw new ImpactError(result.code, result.message, result.index);
  return result.result as T;
}
