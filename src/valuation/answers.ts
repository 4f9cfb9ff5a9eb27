import type { Snapshot } from '../domain/snapshot.js';
import type { ModelBundle } from './bundle.js';
import { predictFee, type FeeOutput } from './fee/index.js';
import { predictFuture, type FutureOutput } from './future/index.js';
import { contractEndUsed, playerWarnings, type Warning } from './warnings.js';

/**
 * The valuation answers as results: every amount in EUR, unrounded. Pure: snapshot and models in,
 * typed values out; http/ names, converts and rounds them.
 */
export interface FeeQuery {
  playerId: string;
  targetClubId?: string | null;
  contractEndDate?: string | null;
}

/** The expected transfer fee and its 80% range, the contract it assumed (null: unknown) and its warnings. */
export type FeeEstimate = FeeOutput & { contractEndDate: string | null; warnings: Warning[] };

export function expectedFee(bundle: ModelBundle, snapshot: Snapshot, q: FeeQuery): FeeEstimate {
  const contractEndDate = contractEndUsed(snapshot, q.playerId, q.contractEndDate);
  return {
    ...predictFee(bundle.fee, snapshot, q),
    contractEndDate,
    warnings: playerWarnings(snapshot, q.playerId, { clubId: q.targetClubId, contractEnd: contractEndDate }),
  };
}

export interface FutureQuery {
  playerId: string;
  clubId: string;
  /**
   * Frames the bands of future value / baseline; when absent, his expected fee with no buyer named
   * (a neutral market). The distribution itself starts from his own latest market value.
   */
  baselineValueEur?: number | null;
}

/** The predicted distribution of his market value in 3 years, with its drivers and warnings. */
export type FutureValue = FutureOutput & { warnings: Warning[] };

export function futureValue(bundle: ModelBundle, snapshot: Snapshot, q: FutureQuery): FutureValue {
  // His fee today on a neutral market (no buyer named): what he is worth now, whichever club is asked
  // about, so the category says what the three years do to him (a buyer's price framed every star as a decline).
  const baseline = q.baselineValueEur ?? predictFee(bundle.fee, snapshot, { playerId: q.playerId }).feeEur;
  return {
    ...predictFuture(bundle.future, bundle.rating, snapshot, { playerId: q.playerId, clubId: q.clubId, baselineValueEur: baseline }),
    warnings: playerWarnings(snapshot, q.playerId, { clubId: q.clubId, contractEnd: contractEndUsed(snapshot, q.playerId) }),
  };
}
