/** Prediction: base plus the trees (blended by value with the trees without date features), and the range. */
import type { Snapshot } from '../../domain/snapshot.js';
import { playerFacts } from '../../domain/player-facts.js';
import { predictGbm } from '../ml/gbm.js';
import { conformalBounds } from '../ml/conformal.js';
import { featureIndex } from '../features/index.js';
import { F, type FeeArtifact, type FeeBase, type FeeInput, type FeeOutput } from './model.js';
import { feeFeatures, unknownBuyerOf, withAgeFloor } from './features.js';
import { contractLogFactor } from './contract.js';

export function baseOf(b: FeeBase, x: ArrayLike<number>): number {
  const v = x[F.log_value];
  return Number.isFinite(v) ? b.intercept + b.slope * v : b.missing;
}

/** Players worth up to this are priced by the trees with date features, above BLEND_TO_EUR by those without. */
export const BLEND_FROM_EUR = 5e6;
export const BLEND_TO_EUR = 20e6;

/** Weight of the trees without date features at a log value (0 below BLEND_FROM_EUR, 1 above BLEND_TO_EUR). */
function longWeight(logValue: number): number {
  if (!Number.isFinite(logValue)) return 0;
  const a = Math.log(BLEND_FROM_EUR);
  const b = Math.log(BLEND_TO_EUR);
  return Math.min(1, Math.max(0, (logValue - a) / (b - a)));
}

function offsetAt(artifact: FeeArtifact, logValue: number): number {
  const r = artifact.rangeOffsets;
  if (!r || r.offsets.length === 0 || !Number.isFinite(logValue)) return artifact.rangeOffset;
  let i = 0;
  while (i < r.logValueUpper.length - 1 && logValue > r.logValueUpper[i]) i++;
  return r.offsets[i];
}

/** Log of the point fee for a feature row: the centre alone, without the range's two models. */
function logFeeOf(artifact: FeeArtifact, row: ArrayLike<number>): number {
  const x = withAgeFloor(artifact.ageFloors, row);
  const c = predictGbm(artifact.center, x);
  const w = artifact.centerLong ? longWeight(x[F.log_value]) : 0;
  // The date features are missing in every training row of centerLong, so it ignores them in x.
  return baseOf(artifact.base, x) + (w > 0 ? (1 - w) * c + w * predictGbm(artifact.centerLong!, x) : c) + contractLogFactor(artifact.contract, x[F.contract_months]);
}

/** Fee and range for a feature row (log space in, EUR out; low <= fee <= high). */
export function feeFromFeatures(artifact: FeeArtifact, row: ArrayLike<number>): FeeOutput {
  const x = withAgeFloor(artifact.ageFloors, row);
  const b = baseOf(artifact.base, x);
  const c = logFeeOf(artifact, x);
  // By value, not by the predicted fee, so a longer contract never lowers either end.
  const d = offsetAt(artifact, x[F.log_value]);
  const k = contractLogFactor(artifact.contract, x[F.contract_months]);
  if (artifact.backtestRange) {
    // around the point fee, which the contract already moved, so either end follows it
    const r = conformalBounds(artifact.backtestRange, x[F.log_value], Math.exp(c));
    return { feeEur: Math.exp(c), lowEur: r.low, highEur: r.high };
  }
  const lo = Math.min(c, b + predictGbm(artifact.low, x) - d + k);
  const hi = Math.max(c, b + predictGbm(artifact.high, x) + d + k);
  return { feeEur: Math.exp(c), lowEur: Math.exp(lo), highEur: Math.exp(hi) };
}

/** A fee query read at an explicit date of the snapshot (backtests read just before each transfer). */
export function predictFeeAt(artifact: FeeArtifact, snapshot: Snapshot, input: FeeInput & { at: string; sellerClubId?: string | null }): FeeOutput {
  const x = featuresAt(artifact, snapshot, input);
  // A contract that has run out (on or before the date) is a free transfer.
  return x[F.contract_months] === 0 ? { feeEur: 0, lowEur: 0, highEur: 0 } : feeFromFeatures(artifact, x);
}

function featuresAt(artifact: FeeArtifact, snapshot: Snapshot, input: FeeInput & { at: string; sellerClubId?: string | null }): ArrayLike<number> {
  const idx = featureIndex(snapshot);
  const player = snapshot.players.get(input.playerId);
  if (!player) throw new RangeError(`unknown player ${input.playerId}`);
  const seller = input.sellerClubId !== undefined ? input.sellerClubId : playerFacts(snapshot, player).owningClubId;
  return feeFeatures(
    idx,
    { playerId: input.playerId, at: input.at, sellerClubId: seller, buyerClubId: input.targetClubId ?? null, contractEndDate: input.contractEndDate ?? null },
    unknownBuyerOf(artifact),
  );
}

/**
 * Expected fee at the snapshot's as-of date: the seller is the club that owns the registration,
 * `targetClubId` the buyer (else the typical buyer of players at his value), `contractEndDate` replaces the known contract.
 */
export function predictFee(artifact: FeeArtifact, snapshot: Snapshot, input: FeeInput): FeeOutput {
  return predictFeeAt(artifact, snapshot, { ...input, at: snapshot.asOf });
}

/** predictFee's `feeEur` alone, for callers that price every player and show no range (the scouting list). */
export function predictFeePoint(artifact: FeeArtifact, snapshot: Snapshot, input: FeeInput): number {
  const x = featuresAt(artifact, snapshot, { ...input, at: snapshot.asOf });
  return x[F.contract_months] === 0 ? 0 : Math.exp(logFeeOf(artifact, x));
}
