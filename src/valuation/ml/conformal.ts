/**
 * Split-conformal ranges: on held-back outcomes, how far below and above a point forecast the
 * outcomes fell, per bin of a key (a player's value), as log quantiles. A range made from them covers
 * the nominal share of such outcomes, with the misses split evenly below and above.
 */
export interface ConformalRange {
  /** bin i holds keys up to upper[i] (the last bin everything above) */
  upper: number[];
  /** per bin, the log ratio (outcome / forecast) at the low and high quantile: low <= 0 <= high */
  low: number[];
  high: number[];
  nominal: number;
}

export interface ConformalRow {
  key: number;
  /** log(outcome / forecast) */
  logRatio: number;
}

function quantileOf(sorted: readonly number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  return sorted[lo] + (sorted[Math.min(lo + 1, sorted.length - 1)] - sorted[lo]) * (h - lo);
}

export function binOf(r: ConformalRange, key: number): number {
  let i = 0;
  while (i < r.upper.length && key > r.upper[i]) i++;
  return i;
}

/**
 * The range's log quantiles per bin (`upper` the bins' upper keys); a bin with fewer than `minRows`
 * rows takes the pooled quantiles. Null without enough rows at all.
 */
export function fitConformalRange(rows: readonly ConformalRow[], upper: readonly number[], nominal = 0.8, minRows = 30): ConformalRange | null {
  const finite = rows.filter((r) => Number.isFinite(r.logRatio) && Number.isFinite(r.key));
  if (finite.length < minRows) return null;
  const tail = (1 - nominal) / 2;
  const ends = (list: readonly ConformalRow[]) => {
    const sorted = list.map((r) => r.logRatio).sort((a, b) => a - b);
    return { low: Math.min(0, quantileOf(sorted, tail)), high: Math.max(0, quantileOf(sorted, 1 - tail)) };
  };
  const pooled = ends(finite);
  const shape: ConformalRange = { upper: [...upper], low: [], high: [], nominal };
  for (let i = 0; i <= upper.length; i++) {
    const inBin = finite.filter((r) => binOf(shape, r.key) === i);
    const e = inBin.length >= minRows ? ends(inBin) : pooled;
    shape.low.push(e.low);
    shape.high.push(e.high);
  }
  return shape;
}

/** The range around a forecast for a key. */
export function conformalBounds(r: ConformalRange, key: number, forecast: number): { low: number; high: number } {
  const i = Number.isFinite(key) ? binOf(r, key) : 0;
  return { low: forecast * Math.exp(r.low[i]), high: forecast * Math.exp(r.high[i]) };
}

/**
 * Conformal scales for a predictive distribution's two halves: per bin, how much to stretch (above 1)
 * or shrink the distance from its median to its low and high quantile so that the nominal share of
 * held-back outcomes falls between them, the misses split evenly. The median stays; a distribution
 * stretched this way keeps its shape on each side (future/distribution.ts reads it through `scaled`).
 */
export interface HalfScales {
  upper: number[];
  below: number[];
  above: number[];
  nominal: number;
}

export interface HalfScaleRow {
  key: number;
  /** log(outcome / median) */
  logRatio: number;
  /** log(median / low quantile) and log(high quantile / median), both > 0 */
  down: number;
  up: number;
}

export function fitHalfScales(rows: readonly HalfScaleRow[], upper: readonly number[], nominal = 0.8, minRows = 30): HalfScales | null {
  const usable = rows.filter((r) => Number.isFinite(r.logRatio) && r.down > 0 && r.up > 0 && Number.isFinite(r.key));
  if (usable.length < minRows) return null;
  const tail = 1 - (1 - nominal) / 2;
  const scales = (list: readonly HalfScaleRow[]) => ({
    below: quantileOf(list.map((r) => -r.logRatio / r.down).sort((a, b) => a - b), tail),
    above: quantileOf(list.map((r) => r.logRatio / r.up).sort((a, b) => a - b), tail),
  });
  const pooled = scales(usable);
  const out: HalfScales = { upper: [...upper], below: [], above: [], nominal };
  for (let i = 0; i <= upper.length; i++) {
    const inBin = usable.filter((r) => binOf({ upper: out.upper, low: [], high: [], nominal }, r.key) === i);
    const s = inBin.length >= minRows ? scales(inBin) : pooled;
    // a half never collapses onto the median
    out.below.push(Math.max(0.05, s.below));
    out.above.push(Math.max(0.05, s.above));
  }
  return out;
}

/** The scales of the bin `key` falls in (1 and 1 without scales). */
export function halfScalesAt(s: HalfScales | null, key: number): { below: number; above: number } {
  if (!s || !Number.isFinite(key)) return { below: 1, above: 1 };
  const i = binOf({ upper: s.upper, low: [], high: [], nominal: s.nominal }, key);
  return { below: s.below[i], above: s.above[i] };
}
