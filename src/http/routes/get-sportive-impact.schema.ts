import { z } from 'zod';
import { currencyOut, moneyEurOut, moneyOut, warningsOut } from '../schemas.js';

/** POST /v1/get_sportive_impact's answer; the ROI answer holds it too. */
export const sportiveImpactSchema = z.object({
  currency: currencyOut(),
  on_field_value: moneyOut(
    'Extra league money (prize and TV money by final place) the club expects with him, summed over the 3 simulated seasons, floored at 0',
  ),
  on_field_value_in_eur: moneyEurOut('on_field_value'),
  simulation: z.object({
    increase_in_expected_position: z.number()
      .describe('original_expected_position minus new_expected_position, floored at 0'),
    new_expected_position: z.number()
      .describe('Expected league position with the player, averaged over the 3 simulated seasons (the analysis season and the two after it); 1 is best'),
    original_expected_position: z.number()
      .describe('Expected league position without the player, averaged over the 3 simulated seasons (the analysis season and the two after it), ' +
        'so it differs from squad_analysis\'s expected_league_rank, which is the analysis season alone; 1 is best'),
  }).describe('The club\'s expected league position without and with him'),
  playing_time_percentage: z.number().min(0).max(0.9)
    .describe('Expected share of the club\'s league matches he starts in the analysis season (0 to 0.9); what he adds to the club\'s strength comes from those matches only'),
  warnings: warningsOut(),
}).describe('What he adds on the pitch for the club over the 3 simulated seasons');
