/**
 * Age curve: expected yearly change of a player's rating (0-100) with age, used to move ratings
 * seasons ahead. Young players grow (towards their potential when it is known), ratings plateau
 * around 27-29, decline from about 30 and faster every year after (by 33 about 2.8 points a year
 * with the defaults).
 *
 * Default (parametric, documented so it can be replaced by a fit):
 *   age < peakStart:            + youthGrowth * (peakStart - age) / (peakStart - 18), at most 1.5 * youthGrowth
 *   peakStart <= age < peakEnd: 0
 *   peakEnd <= age < declineStart: linear from 0 to -declineRate
 *   age >= declineStart:        -(declineRate + declineAcceleration * (age - declineStart))
 * With a known potential, a player before peakStart closes at least growthShare of the gap to it
 * each year and never passes it.
 */

export interface AgeCurveParams {
  peakStart: number;
  peakEnd: number;
  /** rating points a year at 18 for a player of unknown potential */
  youthGrowth: number;
  /** share of the gap to potential closed per year before peakStart */
  growthShare: number;
  declineStart: number;
  /** rating points lost in the year from declineStart */
  declineRate: number;
  /** added to the yearly loss for each year beyond declineStart */
  declineAcceleration: number;
}

export const DEFAULT_AGE_CURVE_PARAMS: Readonly<AgeCurveParams> = {
  peakStart: 27,
  peakEnd: 29,
  youthGrowth: 3,
  growthShare: 0.3,
  declineStart: 30,
  declineRate: 1,
  declineAcceleration: 0.6,
};

export interface AgeCurveBin {
  /** completed years at the start of the year of change */
  age: number;
  /** expected rating change over that year */
  delta: number;
  /** observations in the bin (survivors and drop-outs) */
  n: number;
  /** yearly chance past the peak that the career ends (drop-outs above the prime-age rate; fits with drop-outs only) */
  dropRate?: number;
}

export interface AgeCurve {
  kind: 'age-curve';
  version: 1;
  params: AgeCurveParams;
  /** fitted yearly changes by age; null for the parametric default */
  table: AgeCurveBin[] | null;
  /** rating that replaces a player whose career ends (with dropRate in the table) */
  dropLevel?: number;
}

export function defaultAgeCurve(params: Partial<AgeCurveParams> = {}): AgeCurve {
  return { kind: 'age-curve', version: 1, params: { ...DEFAULT_AGE_CURVE_PARAMS, ...params }, table: null };
}

/** The parametric yearly change at `age` (see the formula at the top). */
export function parametricDelta(p: AgeCurveParams, age: number): number {
  if (age < p.peakStart) {
    const g = (p.youthGrowth * (p.peakStart - age)) / Math.max(1e-9, p.peakStart - 18);
    return Math.min(g, 1.5 * p.youthGrowth);
  }
  if (age < p.peakEnd) return 0;
  if (age < p.declineStart) return (-p.declineRate * (age - p.peakEnd)) / Math.max(1e-9, p.declineStart - p.peakEnd);
  return -(p.declineRate + p.declineAcceleration * (age - p.declineStart));
}

/** Expected yearly change at `age`: the fitted table (linear between ages) inside its range, the parametric curve outside. */
export function ageDelta(curve: AgeCurve, age: number): number {
  const t = curve.table;
  if (!t || t.length === 0 || age < t[0].age) return parametricDelta(curve.params, age);
  // past the table the decline never slows down below its last fitted year
  if (age > t[t.length - 1].age) return Math.min(parametricDelta(curve.params, age), t[t.length - 1].delta);
  let i = 0;
  while (i + 1 < t.length && t[i + 1].age <= age) i++;
  if (i + 1 >= t.length || t[i].age === age) return t[i].delta;
  const f = (age - t[i].age) / (t[i + 1].age - t[i].age);
  return t[i].delta + f * (t[i + 1].delta - t[i].delta);
}

export interface AgingPlayer {
  rating: number;
  /** age (years, may be fractional) now */
  age: number;
  potential?: number | null;
}

/** Chance that a career ends in the year from `age` (0 without fitted drop-outs; the last fitted rate past the table). */
export function dropRate(curve: AgeCurve, age: number): number {
  const t = curve.table;
  if (!t || t.length === 0 || curve.dropLevel === undefined) return 0;
  const a = Math.min(t[t.length - 1].age, Math.floor(age));
  return t.find((b) => b.age === a)?.dropRate ?? 0;
}

/**
 * Expected ratings after 1..years seasons, clamped to 0-100: the survivors' change by age, and,
 * past the peak, the chance that the career ends, after which the drop level stands in for him.
 */
export function projectRating(curve: AgeCurve, player: AgingPlayer, years: number): number[] {
  const p = curve.params;
  const out: number[] = [];
  let r = player.rating;
  const pot = player.potential ?? null;
  for (let y = 0; y < years; y++) {
    const age = player.age + y;
    const base = ageDelta(curve, age);
    if (pot !== null && age < p.peakStart) {
      if (pot > r) r = Math.min(pot, r + Math.max(base, p.growthShare * (pot - r)));
      else r += Math.min(base, 0);
    } else {
      r += base;
    }
    const h = dropRate(curve, age);
    if (h > 0 && curve.dropLevel !== undefined && r > curve.dropLevel) r = (1 - h) * r + h * curve.dropLevel;
    r = Math.min(100, Math.max(0, r));
    out.push(r);
  }
  return out;
}

export interface AgeCurveFitSettings {
  /** parametric prior the bins are shrunk towards; default DEFAULT_AGE_CURVE_PARAMS */
  prior?: Partial<AgeCurveParams>;
  /** pseudo-observations of the prior per bin; default 20 */
  priorWeight?: number;
  minAge?: number;
  maxAge?: number;
  /** single yearly changes beyond this are clipped (data errors, long injuries); default 20 */
  clip?: number;
  /** ages whose pooled drop-out rate is the baseline (moves out of the data, not careers ending); default [20, 30] */
  baselineAges?: readonly [number, number];
  /** rating that replaces a player whose career ends; without it drop-outs are not counted */
  dropLevel?: number;
}

export interface AgeCurveRow {
  age: number;
  /** change to next season's rating (ignored for drop-outs) */
  ratingDelta: number;
  /** no rating in any later season although that season is in the data */
  dropped?: boolean;
}

/**
 * Binned mean of yearly rating changes by completed age, shrunk towards the parametric prior (so
 * sparse ages stay sane) and smoothed by a weighted 3-point moving average; from peakEnd on it is
 * made non-increasing (a decline never slows with age).
 *
 * Survivorship: players who vanish leave no next-season rating, so the survivors alone make the
 * decline at 33+ far too gentle. With a dropLevel, rows marked `dropped` count: past peakEnd, the
 * drop-out rate above the pooled rate at baselineAges (which counts moves out of the covered
 * leagues rather than careers ending) is the yearly chance that the career ends, shrunk towards 0,
 * smoothed the same way and made non-decreasing with age.
 */
export function fitAgeCurve(rows: readonly AgeCurveRow[], settings: AgeCurveFitSettings = {}): AgeCurve {
  const params = { ...DEFAULT_AGE_CURVE_PARAMS, ...settings.prior };
  const k = settings.priorWeight ?? 20;
  const minAge = settings.minAge ?? 16;
  const maxAge = settings.maxAge ?? 40;
  const clip = settings.clip ?? 20;
  const [baseFrom, baseTo] = settings.baselineAges ?? [20, 30];
  const size = maxAge - minAge + 1;
  const sum = new Float64Array(size), cnt = new Float64Array(size), drops = new Float64Array(size);
  for (const r of rows) {
    if (!Number.isFinite(r.age)) continue;
    const a = Math.floor(r.age);
    if (a < minAge || a > maxAge) continue;
    if (r.dropped) drops[a - minAge]++;
    else if (Number.isFinite(r.ratingDelta)) {
      sum[a - minAge] += Math.max(-clip, Math.min(clip, r.ratingDelta));
      cnt[a - minAge]++;
    }
  }
  let baseDrops = 0, baseAll = 0;
  for (let a = Math.max(minAge, baseFrom); a <= Math.min(maxAge, baseTo); a++) {
    baseDrops += drops[a - minAge];
    baseAll += drops[a - minAge] + cnt[a - minAge];
  }
  const baseline = baseAll > 0 ? baseDrops / baseAll : 0;
  const withDrops = settings.dropLevel !== undefined && baseline < 1;

  const shrunk = new Float64Array(size), hazard = new Float64Array(size), weight = new Float64Array(size);
  for (let i = 0; i < size; i++) {
    shrunk[i] = (sum[i] + k * parametricDelta(params, minAge + i)) / (cnt[i] + k);
    weight[i] = cnt[i] + k;
    if (withDrops && minAge + i >= params.peakEnd) {
      const n = cnt[i] + drops[i];
      const excess = n > 0 ? Math.max(0, (drops[i] / n - baseline) / (1 - baseline)) : 0;
      hazard[i] = (n * excess) / (n + k);
    }
  }
  const smooth = (v: Float64Array, i: number): number => {
    let s = 0, w = 0;
    for (let j = Math.max(0, i - 1); j <= Math.min(size - 1, i + 1); j++) {
      const wj = weight[j] * (j === i ? 2 : 1);
      s += wj * v[j];
      w += wj;
    }
    return s / w;
  };
  const table: AgeCurveBin[] = [];
  for (let i = 0; i < size; i++) {
    const age = minAge + i;
    const prev = table[table.length - 1];
    const bin: AgeCurveBin = { age, delta: smooth(shrunk, i), n: cnt[i] + drops[i] };
    if (age > params.peakEnd && prev) bin.delta = Math.min(bin.delta, prev.delta);
    if (withDrops && age >= params.peakEnd) bin.dropRate = Math.min(1, Math.max(smooth(hazard, i), prev?.dropRate ?? 0));
    table.push(bin);
  }
  const curve: AgeCurve = { kind: 'age-curve', version: 1, params, table };
  if (withDrops) curve.dropLevel = settings.dropLevel;
  return curve;
}
