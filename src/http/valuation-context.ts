import type { FastifyReply } from 'fastify';
import type { Snapshot } from '../domain/snapshot.js';
import type { Money } from '../money/convert.js';
import type { ModelBundle } from '../valuation/bundle.js';
import type { HttpDeps } from './deps.js';
import { ApiError } from './errors.js';
import { answerCurrency } from './fields.js';

export const MODEL_VERSION_HEADER = 'Touchline-Model-Version';

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
