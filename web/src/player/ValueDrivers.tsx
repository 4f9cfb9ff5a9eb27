import { BarChart } from '../charts/BarChart';

export interface Driver {
  readonly factor: string;
  readonly effect: number;
}

const NAMES: Record<string, string> = {
  age: 'Age',
  current_level: 'Current level',
  form: 'Form',
  playing_time: 'Playing time',
  club_level: 'Club level',
  league: 'League',
  contract: 'Contract',
};

const times = (v: number) => `×${v.toFixed(2)}`;

/**
 * Why the value in 3 years is what it is: the API's multipliers on the baseline, drawn as bars
 * (1 = no effect), then the sum written out: baseline × product ≈ the median.
 */
export function ValueDrivers({ drivers, baseline, median, format }: { drivers: readonly Driver[]; baseline: number; median: number; format: (v: number) => string }) {
  if (drivers.length === 0) return null;
  const product = drivers.reduce((p, d) => p * d.effect, 1);
  const max = Math.max(1, ...drivers.map((d) => d.effect)) * 1.15;
  return (
    <div class="drivers">
      <h3>What drives the value in 3 years</h3>
      <BarChart title="Multiplier of each factor on the baseline (1 = no effect)" bars={drivers.map((d) => ({ label: NAMES[d.factor] ?? d.factor, value: d.effect }))} max={max} format={times} />
      <p class="drivers-sum">
        Baseline {format(baseline)} {drivers.map((d) => `${times(d.effect)} (${(NAMES[d.factor] ?? d.factor).toLowerCase()})`).join(' ')} = {times(product)} → {format(baseline * product)}
        <span class="range"> (median {format(median)})</span>
      </p>
    </div>
  );
}
