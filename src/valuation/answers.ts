import { playerFacts } from '../domain/player-facts.js';
import type { Snapshot } from '../domain/snapshot.js';
import type { ModelBundle } from './bundle.js';
import { predictFee, type FeeOutput } from './fee/index.js';
import { predictFuture, type FutureOutput } from './future/index.js';

/**
 * The valuation answers as results: every amount in EUR, unrounded. Pure: snapshot and models in,
 * typed values out; http/ names, converts and rounds them.
 */
export interface FeeQuery {
  playerId: string;
  targetClubId?: string | null;
  contractEndDate?: string | null;
}

/** The expected transfer fee and its 80% range. */
export type FeeEstimate = FeeOutput;

export function expectedFee(bundle: ModelBundle, snapshot: Snapshot, q: FeeQuery): FeeEstimate {
  return predictFee(bundle.fee, snapshot, q);
}

export interface FutureQuery {
  playerId: string;
  clubId: string;
  /**
   * Frames the bands of future value / baseline; when absent, the expected fee for a move to the
   * club, or at his own club his expected fee with no buyer named (a club does not buy its own player,
   * and pricing him as if it did inflated the baseline of every star at a rich club).
   * The distribution itself starts from his own latest market value.
   */
  baselineValueEur?: number | null;
}

/** The predicted distribution of his market value in 3 years. */
export type FutureValue = FutureOutput;

/** True when the club is his current team or owns him. */
export function isOwnClub(snapshot: Snapshot, playerId: string, clubId: string): boolean {
  const player = snapshot.players.get(playerId);
  const facts = player ? playerFacts(snapshot, player) : null;
  return facts !== null && (facts.currentTeamId === clubId || facts.owningClubId === clubId);
}

export function futureValue(bundle: ModelBundle, snapshot: Snapshot, q: FutureQuery): FutureValue {
  const baseline = q.baselineValueEur ??
    predictFee(bundle.fee, snapshot, { playerId: q.playerId, targetClubId: isOwnClub(snapshot, q.playerId, q.clubId) ? null : q.clubId }).feeEur;
  return predictFuture(bundle.future, bundle.rating, snapshot, { playerId: q.playerId, clubId: q.clubId, baselineValueEur: baseline });
}
