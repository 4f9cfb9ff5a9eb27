import { z } from 'zod';
import { currencyOut, moneyEurOut, moneyOut, rangeOut, warningsOut } from '../schemas.js';

const CATEGORY_BANDS =
  'the band of future value ÷ baseline: Elite Prospect ≥ 2.5, Excellent Opportunity 1.5–2.5, Steady Grower 1.1–1.5, ' +
  'Stable Value 0.8–1.1, Decline 0.5–0.8, Major decline < 0.5 (the baseline is the fee given, else the expected fee)';

/** POST /v1/get_future_transfer_value's answer; the ROI answer holds it too. */
export const futureValueSchema = z
  .object({
    currency: currencyOut(),
    future_transfer_value: moneyOut('Median of the predicted market value 3 years after the as-of date (by default the eve of the analysis season)'),
    future_transfer_value_in_eur: moneyEurOut('future_transfer_value'),
    future_transfer_value_range: rangeOut('the value in 3 years', '10th percentile of the same distribution', '90th percentile'),
    value_category: z.enum(['Elite Prospect', 'Excellent Opportunity', 'Steady Grower', 'Stable Value', 'Decline', 'Major decline'])
      .describe(`The band that holds future_transfer_value: ${CATEGORY_BANDS}`),
    probabilities_of_different_outcomes: z
      .object({
        probabilities: z.record(z.string(), z.number())
          .describe('Each of the six categories to the share of the predicted distribution in its band; they sum to 1'),
        sample_size: z.number().int().nullable().describe('How many comparable historical player-seasons the comparison drew on'),
      })
      .describe('How likely each category is'),
    explanations: z
      .object({
        simulation_years: z.literal(3).describe('Years simulated: always 3'),
        over_thirthy_years: z.boolean().describe('Spelled so by the contract: true when he is over 30 at some point of the 3 years (age + 3 > 30); he is then compared with players on that side of 30'),
        similar_players: z
          .array(
            z
              .object({
                name: z.string().describe('The comparable player'),
                initial_value: z.number().int().describe('His market value when the comparison starts, in `currency`'),
                initial_rating: z.number().int().describe('His rating then, 1-99'),
                initial_potential: z.number().int().describe('His potential then, 1-99'),
                later_transfer_value: z.number().int().describe('His market value 3 years later, in `currency`'),
                age: z.number().int().describe('His age then, whole years'),
                season: z.string().describe('The season the comparison starts, YYYY/YYYY'),
                position: z.string().describe('His position code then'),
                best_role: z.string().describe('His best role then'),
              })
              .describe('A historical player-season like this one, and how his value went'),
          )
          .describe('Up to 10 nearest comparables: same position group and side of 30, close in rating, potential, age, value and club'),
      })
      .describe('What the prediction rests on'),
    baseline_value_in_eur: z.number().int()
      .describe('What value_category compares to, in EUR: expected_transfer_value when given, else his expected fee today on a neutral market (no buyer named)'),
    drivers: z
      .array(
        z
          .object({
            factor: z.enum(['age', 'current_level', 'form', 'playing_time', 'club_level', 'league', 'contract']).describe('What moves the value'),
            effect: z.number().describe('Multiplier on the baseline, 3 decimals (0.85 = -15%)'),
          })
          .describe('One driver'),
      )
      .describe("Why: multipliers whose product times baseline_value_in_eur is future_transfer_value_in_eur (within 1%); factors whose effect rounds to 1 are left out, age always shown. The age driver carries the market's average move at his price over the data's three-year windows: the value is in three years' money, not today's"),
    warnings: warningsOut(),
  })
  .describe('The player\'s market value in 3 years, as one predicted distribution');
