import type { Money } from '../../money/convert.js';
import type { FeeEstimate, FutureValue } from '../../valuation/answers.js';
import { CATEGORY_NAMES, categoryOfValue, roundedDrivers } from '../../valuation/future/index.js';
import { pair, range } from './money.js';

/** GET /v1/expected_transfer_value's body. */
export function presentFee(fee: FeeEstimate, money: Money) {
  const v = pair(fee.feeEur, money);
  return {
    currency: money.code,
    expected_transfer_value: v.amount,
    expected_transfer_value_in_eur: v.amountEur,
    expected_transfer_value_range: range(fee.lowEur, fee.highEur, money),
    contract_end_date: fee.contractEndDate,
    warnings: fee.warnings,
  };
}

/** POST /v1/get_future_transfer_value's body (also inside the ROI answer). */
export function presentFuture(f: FutureValue, money: Money) {
  const v = pair(f.futureValueEur, money);
  const baselineEur = Math.round(f.baselineValueEur);
  return {
    currency: money.code,
    future_transfer_value: v.amount,
    future_transfer_value_in_eur: v.amountEur,
    future_transfer_value_range: range(f.lowEur, f.highEur, money),
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
    baseline_value_in_eur: baselineEur,
    // Rounded as shown: their product times the baseline shown is the median shown.
    drivers: baselineEur > 0 ? roundedDrivers(f.drivers, v.amountEur / baselineEur) : [],
    warnings: f.warnings,
  };
}
