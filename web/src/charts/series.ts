/** Plain-array helpers the charts share; no drawing here, so they are tested in Node. */

export interface ValuePoint {
  /** Time in fractional years (2024.5 is mid-2024). */
  readonly t: number;
  readonly value: number;
  /** The 80% range around the value, when a model gives one. */
  readonly low?: number;
  readonly high?: number;
  /** Named points (the model's) are labelled with their value; history points are not. */
  readonly label?: string;
}

/** 2024-06-30 -> 2024.49 */
export function yearFraction(date: string): number {
  const [y, m, d] = date.split('-').map(Number);
  return y + ((m - 1) * 30.44 + (d - 1)) / 365.25;
}

/** Whole years from the first point's year to the year after the last, for the time axis. */
export function yearSpan(points: readonly ValuePoint[]): [number, number] {
  if (points.length === 0) return [0, 1];
  const t0 = Math.floor(Math.min(...points.map((p) => p.t)));
  const t1 = Math.ceil(Math.max(...points.map((p) => p.t)));
  return [t0, Math.max(t1, t0 + 1)];
}

/** Year ticks at most `max` of them, on whole years. */
export function yearTicks([t0, t1]: [number, number], max = 6): number[] {
  const step = Math.max(1, Math.ceil((t1 - t0) / max));
  const ticks: number[] = [];
  for (let t = t0; t <= t1; t += step) ticks.push(t);
  return ticks;
}

/** The top of the value axis: the highest value or range end (0 and the ranges drawn honestly from zero). */
export function valueTop(points: readonly ValuePoint[]): number {
  const top = Math.max(0, ...points.map((p) => p.high ?? p.value));
  return top > 0 ? top : 1;
}

/** The dashed path of the model: from the last known market value through the modelled points. */
export function trendPath(history: readonly ValuePoint[], model: readonly ValuePoint[]): ValuePoint[] {
  return [...history.slice(-1), ...model];
}
