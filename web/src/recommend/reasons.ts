import { formatMoney, formatPercent } from '../ui/format';

export interface CandidateFigures {
  readonly expected_transfer_value: number;
  readonly future_transfer_value: number;
  readonly on_field_value: number;
  readonly increase_in_expected_position: number;
  readonly playing_time_percentage: number;
  readonly total_value_created: number;
  readonly return_on_investment: number | null;
}

/** The reasons a candidate ranks where he does, read from the figures the API ranked him by. */
export function reasonsOf(c: CandidateFigures, currency: string): string[] {
  const m = (v: number) => formatMoney(v, currency);
  const out: string[] = [];
  if (c.return_on_investment !== null) out.push(`creates ${c.return_on_investment.toFixed(1)}× what he costs`);
  const growth = c.future_transfer_value - c.expected_transfer_value;
  out.push(growth >= 0 ? `value grows by ${m(growth)} in 3 years` : `value falls by ${m(-growth)} in 3 years`);
  if (c.increase_in_expected_position > 0.05) out.push(`lifts the club ${c.increase_in_expected_position.toFixed(1)} places`);
  out.push(`plays ${formatPercent(c.playing_time_percentage)} of the minutes`);
  if (c.on_field_value > 0) out.push(`worth ${m(c.on_field_value)} on the pitch`);
  return out;
}
