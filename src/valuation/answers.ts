import type { Snapshot } from '../domain/snapshot.js';
import { moneyPair, type MoneyPair } from '../money/convert.js';
import type { RateTable } from '../money/rates.js';
import type { ModelBundle } from './bundle.js';
import { predictFee } from './fee/index.js';
import { CATEGORY_NAMES, categoryOfValue, predictFuture, roundedDrivers } from './future/index.js';
import { contractEndUsed, playerWarnings } from './warnings.js';

/**
 * The valuation answers as the API gives them: model outputs (EUR) with every amount as a
 * `x` / `x_in_eur` pair through one rate table. Pure: snapshot, models and rates in, objects out.
 */
export interface Money {
  readonly code: string;
  readonly rates: RateTable;
}

const pair = (eur: number, m: Money): MoneyPair => moneyPair(eur, m.code, m.rates);
const range = (lowEur: number, highEur: number, m: Money) => ({ low: pair(lowEur, m).amount, high: pair(highEur, m).amount });

export interface FeeQuery {
  playerId: string;
  targetClubId?: string | null;
  contractEndDate?: string | null;
}

export function expectedFeeAnswer(bundle: ModelBundle, snapshot: Snapshot, money: Money, q: FeeQuery) {
  const fee = predictFee(bundle.fee, snapshot, q);
  const v = pair(fee.feeEur, money);
  const contractEnd = contractEndUsed(snapshot, q.playerId, q.contractEndDate);
  return {
    feeEur: fee.feeEur,
    body: {
      currency: money.code,
      expected_transfer_value: v.amount,
      expected_transfer_value_in_eur: v.amountEur,
      expected_transfer_value_range: range(fee.lowEur, fee.highEur, money),
      contract_end_date: contractEnd,
      warnings: playerWarnings(snapshot, q.playerId, { clubId: q.targetClubId, contractEnd }),
    },
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

function predictFutureFor(bundle: ModelBundle, snapshot: Snapshot, q: FutureQuery) {
  // His fee today on a neutral market (no buyer named): what he is worth now, whichever club is asked
  // about, so the category says what the three years do to him (a buyer's price framed every star as a decline).
  const baseline = q.baselineValueEur ?? predictFee(bundle.fee, snapshot, { playerId: q.playerId }).feeEur;
  return predictFuture(bundle.future, bundle.rating, snapshot, { playerId: q.playerId, clubId: q.clubId, baselineValueEur: baseline });
}

/** The future value alone (EUR, unrounded), as futureValueAnswer computes it. */
export function futureValueEur(bundle: ModelBundle, snapshot: Snapshot, q: FutureQuery): number {
  return predictFutureFor(bundle, snapshot, q).futureValueEur;
}

export function futureValueAnswer(bundle: ModelBundle, snapshot: Snapshot, money: Money, q: FutureQuery) {
  const f = predictFutureFor(bundle, snapshot, q);
  const v = pair(f.futureValueEur, money);
  const baselineEur = Math.round(f.baselineValueEur);
  return {
    futureValueEur: f.futureValueEur,
    body: {
      currency: money.code,
      future_transfer_value: v.amount,
      future_transfer_value_in_eur: v.amountEur,
      future_transfer_value_range: range(f.lowEur, f.highEur, money),
      baseline_value_in_eur: baselineEur,
      // Rounded as shown: their product times the baseline shown is the median shown.
      drivers: baselineEur > 0 ? roundedDrivers(f.drivers, v.amountEur / baselineEur) : [],
      warnings: playerWarnings(snapshot, q.playerId, { clubId: q.clubId, contractEnd: contractEndUsed(snapshot, q.playerId) }),
      // The band of the amount as shown, so label and number agree to the euro.
      value_category: CATEGORY_NAMES[categoryOfValue(v.amountEur, f.baselineValueEur)],
      probabilities_of_different_outcomes: {
        probabilities: Object.fromEntries(CATEGORY_NAMES.map((c) => [c, f.probabilities[c]])),
        sample_size: f.sampleSize,
      },
      explanations: {
        simulation_years: 3 as const,
        over_thirthy_years: f.overThirty,
        similar_players: f.similarPlayers.map((s) => ({
          name: s.name,
          initial_value: pair(s.initial_value, money).amount,
          initial_rating: Math.round(s.initial_rating),
          initial_potential: Math.round(s.initial_potential),
          later_transfer_value: pair(s.later_transfer_value, money).amount,
          age: Math.round(s.age),
          season: s.season,
          position: s.position,
          best_role: s.best_role,
        })),
      },
    },
  };
}
