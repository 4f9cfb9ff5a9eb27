import type { FastifyReply } from 'fastify';
import type { Snapshot } from '../domain/snapshot.js';
import type { Money } from '../money/convert.js';
import type { ModelBundle } from '../valuation/bundle.js';
import { ImpactError } from '../valuation/impact/index.js';
import type { HttpDeps } from './deps.js';
import { ApiError, forbidden, notFound } from './errors.js';
import { answerCurrency } from './fields.js';

export const MODEL_VERSION_HEADER = 'Touchline-Model-Version';
/** A club with no domestic league in the analysis season (a national team, a club no league was named for). */
export const NO_DOMESTIC_LEAGUE = 'Club has no domestic league to simulate';

/** What every valuation request needs: data, models, money, and the header naming the models. */
export function valuationContext(deps: HttpDeps, reply: FastifyReply, currency: string | undefined, preferred: string | null) {
  const bundle: ModelBundle | null = deps.models();
  if (!bundle) throw new ApiError(503, 'Models are being trained; try again shortly');
  reply.header(MODEL_VERSION_HEADER, bundle.version);
  const rates = deps.rates();
  const money: Money = { code: answerCurrency(currency, preferred, rates), rates };
  const snapshot: Snapshot = deps.snapshot();
  const versions = `${snapshot.dataVersion}|${snapshot.ratingsVersion}|${snapshot.membershipVersion}|${bundle.version}|${rates.date}|${money.code}`;
  return { bundle, money, snapshot, versions };
}

/** The impact model's own refusals, as API answers. */
export function mapImpactError<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw impactApiError(err);
  }
}

/** mapImpactError for a result computed by the worker pool. */
export async function mapImpactErrorAsync<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (err) {
    throw impactApiError(err);
  }
}

function impactApiError(err: unknown): unknown {
  if (!(err instanceof ImpactError)) return err;
  switch (err.code) {
    case 'unknown_club':
      return notFound.club();
    case 'unknown_player':
      return notFound.player();
    case 'invalid_squad_entry':
      return new ApiError(400, `Invalid squad entry at index ${err.index ?? 0}`);
    case 'club_without_league':
      return new ApiError(400, NO_DOMESTIC_LEAGUE);
    case 'player_not_rated':
    case 'no_training_data':
      return forbidden.analysis();
  }
}
