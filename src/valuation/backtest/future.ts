/**
 * The future-value backtest: at an origin three years before the as-of date (the horizon the model
 * answers), the rating and future models fitted on what was known then predict every player valued in
 * the 12 months before it; his outcome is his latest value on or before the horizon, published in the
 * year before it. Against an age curve (the median 3-year ratio of his position group and age in the
 * training comparables) and no change. The six categories: mean predicted mass against the share of
 * outcomes in each, the ratio's baseline being his value at the origin.
 */
import { addYears } from '../../domain/days.js';
import type { Snapshot } from '../../domain/snapshot.js';
import { ageAt, clubAt, featureIndex, latestValue, logValueAt, positionGroupOf, positionOf } from '../features/index.js';
import { CATEGORY_NAMES, categoryOf } from '../future/bands.js';
import { FRESH_VALUE_DAYS, HORIZON_YEARS, futureDistributionAt, type FutureArtifact } from '../future/index.js';
import { median, spearman } from '../ml/metrics.js';
import type { RatingArtifact } from '../rating/index.js';
import type { FutureCard, FutureMetrics } from './card.js';
import { bandedCoverage, bandOf } from './fee.js';

export interface FutureRow {
  playerId: string;
  start: number;
  actual: number;
  pred: number;
  low: number;
  high: number;
  ageCurve: number;
  probs: number[];
}

/** Median 3-year ratio of the training comparables by position group and whole age (the group's when few). */
function ageCurveOf(future: FutureArtifact): (position: string, age: number) => number {
  const logs = new Map<string, number[]>();
  const add = (k: string, l: number) => {
    const list = logs.get(k);
    if (list) list.push(l);
    else logs.set(k, [l]);
  };
  const c = future.comparables;
  for (let i = 0; i < c.size; i++) {
    const l = Math.log(c.v3[i] / c.v0[i]);
    const g = positionGroupOf(c.positions[c.position[i]]);
    add(`${g}|${c.age[i]}`, l);
    add(g, l);
  }
  const curve = new Map<string, number>();
  for (const [k, list] of logs) if (list.length >= 30 || !k.includes('|')) curve.set(k, Math.exp(median(list)));
  return (position, age) => curve.get(`${positionGroupOf(position)}|${Math.floor(age)}`) ?? curve.get(positionGroupOf(position)) ?? 1;
}

/**
 * Predictions at the origin of `snapshot` for every player with an outcome in `last` (the as-of
 * snapshot); `only` limits them to those players.
 */
export function futureRows(last: Snapshot, snapshot: Snapshot, rating: RatingArtifact, future: FutureArtifact, only?: ReadonlySet<string>): FutureRow[] {
  const origin = snapshot.asOf;
  const horizon = addYears(origin, HORIZON_YEARS);
  const idx = featureIndex(snapshot), lastIdx = featureIndex(last);
  const curve = ageCurveOf(future);
  const rows: FutureRow[] = [];
  for (const p of [...snapshot.players.values()].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    if (only && !only.has(p.id)) continue;
    if (!p.birth_date || !Number.isFinite(logValueAt(idx, p.id, origin, FRESH_VALUE_DAYS))) continue;
    const lv3 = logValueAt(lastIdx, p.id, horizon, FRESH_VALUE_DAYS);
    if (!Number.isFinite(lv3)) continue;
    const start = latestValue(idx, p.id, origin)!.valueEur;
    const out = futureDistributionAt(future, rating, snapshot, { playerId: p.id, clubId: clubAt(idx, p.id, origin), at: origin, baselineValueEur: start });
    rows.push({
      playerId: p.id, start, actual: Math.exp(lv3), pred: out.futureValueEur, low: out.lowEur, high: out.highEur,
      ageCurve: start * curve(positionOf(idx, p.id), ageAt(idx, p.id, origin)),
      probs: CATEGORY_NAMES.map((c) => out.probabilities[c]),
    });
  }
  return rows;
}

function futureMetrics(rows: readonly FutureRow[], pick: (r: FutureRow) => number): FutureMetrics {
  const pred = rows.map(pick), actual = rows.map((r) => r.actual);
  const constant = pred.every((x) => x === pred[0]);
  return {
    n: rows.length,
    // ratios to the value at the origin, so "no change" (a constant ratio) has no rank correlation
    spearman: constant ? null : spearman(pred.map((x, i) => x / rows[i].start), actual.map((x, i) => x / rows[i].start)),
    mdale: median(pred.map((x, i) => Math.abs(Math.log(x / actual[i])))),
  };
}

/**
 * The card from the rows as fitted (`raw`) and as served (`calibrated`: the same players, each
 * predicted with range scales learned without him).
 */
export function futureCard(raw: readonly FutureRow[], rows: readonly FutureRow[], origins: readonly string[]): FutureCard | null {
  if (rows.length < 20) return null;
  const band = (r: { start: number }) => bandOf(r.start);
  const observed = new Array<number>(6).fill(0);
  for (const r of rows) observed[categoryOf(r.actual / r.start)]++;
  return {
    metric: 'spearman, mdale',
    origins: [...origins],
    horizon_years: HORIZON_YEARS,
    n: rows.length,
    model: futureMetrics(rows, (r) => r.pred),
    baselines: { age_curve: futureMetrics(rows, (r) => r.ageCurve), no_change: futureMetrics(rows, (r) => r.start) },
    // by band of the value at the origin (the outcome three years on is not a band anyone prices by)
    range_coverage: {
      ...bandedCoverage(rows.map((r) => ({ actual: r.actual, start: r.start, low: r.low, high: r.high })), band),
      before_calibration: bandedCoverage(raw.map((r) => ({ actual: r.actual, start: r.start, low: r.low, high: r.high })), band),
    },
    categories: CATEGORY_NAMES.map((category, c) => ({
      category,
      predicted_share: rows.reduce((a, r) => a + r.probs[c], 0) / rows.length,
      observed_share: observed[c] / rows.length,
    })),
  };
}
