/**
 * A transfer's feature row as known the day before it, and the buyer assumed when none is named (the
 * typical buyer of players at that value), with the age floor of the value the trees saw.
 */
import type { TransferRow } from '../../domain/world.js';
import type { Snapshot } from '../../domain/snapshot.js';
import { ageAt, clubAt, clubStrengthAt, contractMonthsAt, GROUP_CODE, inflationAt, joinedClubOn, leagueStrengthAt, logValueAt, minutesShareAt, peakLogValueAt, positionGroupOf, positionOf, tierAt, valueTrendAt, yearFraction, latestValue, type FeatureIndex } from '../features/index.js';
import { addDays, dayOf } from '../../domain/days.js';
import { type BuyerFeatures, F, FEE_FEATURES, type FeeArtifact } from './model.js';
import { median } from '../ml/metrics.js';

/** Paid, permanent transfers dated on or before the snapshot's as-of date. */
export function paidTransfers(snapshot: Snapshot): TransferRow[] {
  return snapshot.transfers.filter((t) => t.fee_eur !== null && t.fee_eur > 0 && !t.is_loan);
}

export interface FeeQuery {
  playerId: string;
  /** Features are read as of this date (inclusive). */
  at: string;
  sellerClubId: string | null;
  /** null: the buyer of a query without one (see unknownBuyerOf). */
  buyerClubId: string | null;
  contractEndDate?: string | null;
}

/** The buyer of a query without one: fixed, or chosen by the player's log value. */
export type UnknownBuyer = BuyerFeatures | ((logValue: number) => BuyerFeatures);

export function feeFeatures(idx: FeatureIndex, q: FeeQuery, unknownBuyer: UnknownBuyer | null): Float64Array {
  const x = new Float64Array(FEE_FEATURES.length);
  const { playerId, at } = q;
  x[F.log_value] = logValueAt(idx, playerId, at, 100_000);
  const v = latestValue(idx, playerId, at);
  x[F.value_age_days] = v ? dayOf(at) - dayOf(v.date) : NaN;
  x[F.log_peak_value] = peakLogValueAt(idx, playerId, at);
  x[F.value_trend] = valueTrendAt(idx, playerId, at);
  x[F.age] = ageAt(idx, playerId, at);
  x[F.position_group] = GROUP_CODE[positionGroupOf(positionOf(idx, playerId))];
  x[F.contract_months] = contractMonthsAt(idx, playerId, at, q.contractEndDate);
  const joined = joinedClubOn(idx, playerId, at);
  x[F.tenure_years] = joined ? (dayOf(at) - dayOf(joined)) / 365.2425 : NaN;
  x[F.seller_strength] = clubStrengthAt(idx, q.sellerClubId, at);
  x[F.seller_league_strength] = leagueStrengthAt(idx, q.sellerClubId, at);
  x[F.seller_tier] = tierAt(idx, q.sellerClubId, at);
  if (q.buyerClubId === null && unknownBuyer) {
    const averageBuyer = typeof unknownBuyer === 'function' ? unknownBuyer(x[F.log_value]) : unknownBuyer;
    // After a JSON round trip an unknown (NaN) median is null.
    x[F.buyer_strength] = averageBuyer.strength ?? NaN;
    x[F.buyer_league_strength] = averageBuyer.leagueStrength ?? NaN;
    x[F.buyer_tier] = averageBuyer.tier ?? NaN;
  } else {
    x[F.buyer_strength] = clubStrengthAt(idx, q.buyerClubId, at);
    x[F.buyer_league_strength] = leagueStrengthAt(idx, q.buyerClubId, at);
    x[F.buyer_tier] = tierAt(idx, q.buyerClubId, at);
  }
  x[F.year] = yearFraction(at);
  x[F.inflation] = inflationAt(idx, at);
  x[F.minutes_share] = minutesShareAt(idx, playerId, at);
  // What the seller paid for him anchors what it asks.
  const paid = lastPaidTransfer(idx.snapshot, playerId, at);
  x[F.last_fee_to_value] = paid ? Math.log(paid.fee_eur!) - x[F.log_value] : NaN;
  x[F.years_since_last_fee] = paid ? (dayOf(at) - dayOf(paid.date)) / 365.2425 : NaN;
  // A buyer he already plays for (a loan made permanent) often pays a fee agreed in advance.
  x[F.at_buyer] = q.buyerClubId !== null && clubAt(idx, playerId, at) === q.buyerClubId ? 1 : 0;
  return x;
}

/** A permanent move for a fee: the only transfers the fee model reads when it prices a player. */
export function isPaidPermanent(t: TransferRow): boolean {
  return t.fee_eur !== null && t.fee_eur > 0 && !t.is_loan;
}

/** His latest paid permanent transfer dated on or before `at`. */
function lastPaidTransfer(snapshot: Snapshot, playerId: string, at: string): TransferRow | null {
  const rows = snapshot.transfersOfPlayer.get(playerId);
  if (!rows) return null;
  for (let i = rows.length - 1; i >= 0; i--) {
    const t = rows[i];
    if (t.date <= at && isPaidPermanent(t)) return t;
  }
  return null;
}

/** The feature row of a past transfer, as known the day before it. */
export function transferFeatures(idx: FeatureIndex, t: TransferRow, unknownBuyer: UnknownBuyer | null = null): Float64Array {
  return feeFeatures(idx, { playerId: t.player_id, at: addDays(t.date, -1), sellerClubId: t.from_club_id, buyerClubId: t.to_club_id }, unknownBuyer);
}


/** Training transfers per value bin of the typical buyer (the top of the market gets its own bins). */
const TYPICAL_BUYER_BIN_ROWS = 150;

/**
 * Median buyer features of the training transfers in value bins (equal counts), made monotone so a
 * more valuable player never gets a weaker typical buyer.
 */
export function typicalBuyersOf(X: Float64Array[]): NonNullable<FeeArtifact['typicalBuyers']> {
  const rows = X.filter((x) => Number.isFinite(x[F.log_value])).sort((a, b) => a[F.log_value] - b[F.log_value]);
  const logValueUpper: number[] = [];
  const buyers: BuyerFeatures[] = [];
  const bins = Math.max(1, Math.floor(rows.length / TYPICAL_BUYER_BIN_ROWS));
  for (let b = 0; b < bins; b++) {
    const part = rows.slice(Math.floor((b * rows.length) / bins), Math.floor(((b + 1) * rows.length) / bins));
    if (part.length === 0) continue;
    const prev = buyers[buyers.length - 1];
    const strength = median(part.map((x) => x[F.buyer_strength]));
    const leagueStrength = median(part.map((x) => x[F.buyer_league_strength]));
    const tier = median(part.map((x) => x[F.buyer_tier]));
    buyers.push(
      prev
        ? { strength: Math.max(prev.strength, strength), leagueStrength: Math.max(prev.leagueStrength, leagueStrength), tier: Math.min(prev.tier, tier) }
        : { strength, leagueStrength, tier },
    );
    logValueUpper.push(part[part.length - 1][F.log_value]);
  }
  return { logValueUpper, buyers };
}

/** Training transfers per value bin of the age floor. */
const AGE_FLOOR_BIN_ROWS = 150;
const AGE_FLOOR_QUANTILE = 0.1;

/**
 * The age floors of the training transfers (FeeArtifact.ageFloors). Teenagers are sold at a premium
 * over their market value when they are cheap (a 17-year-old worth 1M leaves for 3M), and hardly ever
 * when they are worth 40M or more: under-21s sold at 40M+ went for 0.95 of their value (median, 15
 * transfers to 2024), while trees that split on age apart from value gave a 17-year-old worth 90M the
 * premium of the cheap ones (1.7-2.0 of his value). The floor keeps his age within what was sold at his price.
 */
export function ageFloorsOf(X: readonly ArrayLike<number>[]): NonNullable<FeeArtifact['ageFloors']> {
  const rows = X.filter((x) => Number.isFinite(x[F.log_value]) && Number.isFinite(x[F.age])).map((x) => [x[F.log_value], x[F.age]] as const);
  rows.sort((a, b) => a[0] - b[0]);
  const bins = Math.max(1, Math.floor(rows.length / AGE_FLOOR_BIN_ROWS));
  const logValue: number[] = [];
  const age: number[] = [];
  for (let b = 0; b < bins; b++) {
    const part = rows.slice(Math.floor((b * rows.length) / bins), Math.floor(((b + 1) * rows.length) / bins));
    if (part.length === 0) continue;
    const ages = part.map((r) => r[1]).sort((p, q) => p - q);
    logValue.push(part[part.length >> 1][0]);
    age.push(ages[Math.floor(AGE_FLOOR_QUANTILE * (ages.length - 1))]);
  }
  return { logValue, age };
}

/** The age floor at a log value (NaN without floors or value). */
export function ageFloorAt(floors: FeeArtifact['ageFloors'], logValue: number): number {
  if (!floors || floors.age.length === 0 || !Number.isFinite(logValue)) return NaN;
  const { logValue: xs, age } = floors;
  if (logValue <= xs[0]) return age[0];
  const n = xs.length;
  if (logValue >= xs[n - 1]) return age[n - 1];
  let i = 1;
  while (xs[i] < logValue) i++;
  const t = xs[i] > xs[i - 1] ? (logValue - xs[i - 1]) / (xs[i] - xs[i - 1]) : 1;
  return age[i - 1] + t * (age[i] - age[i - 1]);
}

/** The row with his age raised to the floor at his value (the same row when he is older). */
export function withAgeFloor(floors: FeeArtifact['ageFloors'], x: ArrayLike<number>): ArrayLike<number> {
  const floor = ageFloorAt(floors, x[F.log_value]);
  if (!(x[F.age] < floor)) return x;
  const out = Float64Array.from(x);
  out[F.age] = floor;
  return out;
}

/** The buyer a query without one is priced with. */
export function unknownBuyerOf(artifact: FeeArtifact): UnknownBuyer {
  const t = artifact.typicalBuyers;
  if (!t || t.buyers.length === 0) return artifact.averageBuyer;
  return (logValue: number) => {
    if (!Number.isFinite(logValue)) return artifact.averageBuyer;
    let i = 0;
    while (i < t.logValueUpper.length - 1 && logValue > t.logValueUpper[i]) i++;
    return t.buyers[i];
  };
}
