/**
 * Why the future value is what it is: multiplicative drivers whose product times the baseline is
 * the median. The median's log ratio is read at a typical player (the training rows' median features),
 * then the player's own features are switched in group by group in a fixed order; each group's
 * driver is the change that switch made (the differences add up to the player's log ratio exactly).
 * `age` carries the typical player's 3-year change at his age, `current_level` also his value
 * against the baseline, `club_level` also the move to the club asked about.
 */
import { logRatioDistribution, logRatioQuantile, type LogRatioModel } from './distribution.js';

export const DRIVER_FACTORS = ['age', 'current_level', 'form', 'playing_time', 'club_level', 'league', 'contract'] as const;
export type DriverFactor = (typeof DRIVER_FACTORS)[number];

export interface Driver {
  factor: DriverFactor;
  /** Multiplier on the baseline (0.85 = -15%). */
  effect: number;
}

/** Feature groups of FUTURE_FEATURES, in the order they are switched in after age. */
export const DRIVER_GROUPS: readonly { factor: DriverFactor; features: readonly string[] }[] = [
  { factor: 'age', features: ['age'] },
  { factor: 'current_level', features: ['rel_log_value', 'position_group', 'rating', 'potential', 'headroom', 'below_peak'] },
  { factor: 'form', features: ['trend_1y', 'trend_2y', 'value_age_days'] },
  { factor: 'club_level', features: ['rel_club_strength', 'value_vs_club'] },
  { factor: 'league', features: ['rel_league_strength', 'tier'] },
  { factor: 'contract', features: ['contract_months'] },
  { factor: 'playing_time', features: ['minutes_share'] },
];

/** Per-feature medians of the training rows (NaN where a feature was never known). */
export function referenceRow(X: readonly ArrayLike<number>[], nFeatures: number): number[] {
  const out: number[] = [];
  for (let j = 0; j < nFeatures; j++) {
    const col = X.map((x) => x[j]).filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
    out.push(col.length === 0 ? NaN : col[col.length >> 1]);
  }
  return out;
}

export interface DriverInput {
  model: LogRatioModel;
  features: readonly string[];
  reference: readonly number[];
  x: ArrayLike<number>;
  /** Shape bucket of the reference's age and of his. */
  referenceBucket: number;
  bucket: number;
  /** log(anchor / baseline): his value against what the bands are framed by. */
  logAnchorToBaseline: number;
  /** Log effect of the move to the club asked about. */
  logClubEffect: number;
  /** Log of the market's move served with the model's ratio (part of the typical player's change, in `age`). */
  logMarket?: number;
}

/** The drivers, unrounded; their product is exp(log median ratio + logAnchorToBaseline + logClubEffect). */
export function futureDrivers(input: DriverInput): Driver[] {
  const { model, features, reference, x } = input;
  const col = new Map(features.map((f, i) => [f, i]));
  const row = Float64Array.from(reference);
  const medianAt = (bucket: number) => logRatioQuantile(logRatioDistribution(model, row, bucket), 0.5);
  let prev = medianAt(input.referenceBucket);
  const log = new Map<DriverFactor, number>();
  DRIVER_GROUPS.forEach((g, i) => {
    for (const f of g.features) {
      const j = col.get(f);
      if (j !== undefined) row[j] = x[j];
    }
    const now = medianAt(input.bucket);
    // The typical player's change itself is the age driver's start.
    log.set(g.factor, (log.get(g.factor) ?? 0) + (i === 0 ? now : now - prev));
    prev = now;
  });
  log.set('current_level', (log.get('current_level') ?? 0) + input.logAnchorToBaseline);
  log.set('club_level', (log.get('club_level') ?? 0) + input.logClubEffect);
  log.set('age', (log.get('age') ?? 0) + (input.logMarket ?? 0));
  return DRIVER_FACTORS.filter((f) => log.has(f)).map((factor) => ({ factor, effect: Math.exp(log.get(factor)!) }));
}

/**
 * Drivers rounded to 3 decimals as an answer shows them, without the factors that round to 1 (the
 * inputs the data does not hold), and with the largest one corrected so that their product times the
 * baseline stays within 0.5% of the median whatever the rounding did.
 */
export function roundedDrivers(drivers: readonly Driver[], ratio: number): Driver[] {
  const r3 = (v: number) => Math.round(v * 1000) / 1000;
  const out = drivers.map((d) => ({ factor: d.factor, effect: r3(d.effect) })).filter((d) => d.effect !== 1 || d.factor === 'age');
  if (!(ratio > 0) || out.length === 0) return out;
  const product = () => out.reduce((p, d) => p * d.effect, 1);
  if (Math.abs(product() / ratio - 1) > 0.005) {
    // The largest multiplier loses least to rounding to 3 decimals.
    const big = out.reduce((a, b) => (b.effect > a.effect ? b : a));
    const rest = product() / (big.effect || 1);
    if (rest > 0) big.effect = r3(ratio / rest);
  }
  return out;
}
