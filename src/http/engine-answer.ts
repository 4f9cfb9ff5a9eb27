import { EngineBusyError } from '../engine/pool.js';
import type { Task, TaskResult } from '../engine/tasks.js';
import type { ModelBundle } from '../valuation/bundle.js';
import type { Snapshot } from '../domain/snapshot.js';
import type { HttpDeps } from './deps.js';
import { ApiError, forbidden, notFound } from './errors.js';

export const ENGINE_BUSY = 'Too many analyses are waiting; try again shortly';
/** A club with no domestic league in the analysis season (a national team, a club no league was named for). */
export const NO_DOMESTIC_LEAGUE = 'Club has no domestic league to simulate';

/**
 * A task's answer from the worker pool, on the snapshot and models the request read: the body, or
 * the API's answer to the models' refusal (the one place an engine refusal becomes HTTP), or 503
 * with Retry-After when the pool's queue is full.
 */
export async function engineAnswer<T>(deps: HttpDeps, ctx: { snapshot: Snapshot; bundle: ModelBundle }, task: Task): Promise<T> {
  let result: TaskResult;
  try {
    result = await deps.engine.run({ snapshot: ctx.snapshot, source: deps.source(), bundle: ctx.bundle }, task);
  } catch (err) {
    if (err instanceof EngineBusyError) {
      throw new ApiError(503, ENGINE_BUSY, { retry_after_seconds: err.retryAfterSeconds }, { 'Retry-After': String(err.retryAfterSeconds) });
    }
    throw err;
  }
  if (!result.ok) throw refusalAnswer(result);
  return result.result as T;
}

function refusalAnswer(refusal: Extract<TaskResult, { ok: false }>): ApiError {
  switch (refusal.code) {
    case 'unknown_club':
      return notFound.club();
    case 'unknown_player':
      return notFound.player();
    case 'invalid_squad_entry':
      return new ApiError(400, `Invalid squad entry at index ${refusal.index ?? 0}`);
    case 'club_without_league':
      return new ApiError(400, NO_DOMESTIC_LEAGUE);
    case 'player_not_rated':
    case 'no_training_data':
      return forbidden.analysis();
  }
}
