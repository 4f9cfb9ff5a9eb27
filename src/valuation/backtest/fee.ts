/**
 * The fee backtest: at each origin the fee model is fitted on what was known then and predicts every
 * paid permanent transfer of the next 12 months (up to the as-of date), with each player's data as
 * of the day before his move, beside the crowd's value on the transfer and his last value before it.
 * By fee band of the actual fee; the 80% range's coverage with the misses below and above.
 */
import { addDays } from '../../domain/days.js';
import type { Snapshot } from '../../domain/snapshot.js';
import { featureIndex, latestValue } from '../features/index.js';
import { feeFromFeatures, fitFeeModel, paidTransfers, transferFeatures, unknownBuyerOf, type FeeArtifact, type FeeSettings } from '../fee/index.js';
import { median, medianAbsolutePercentageError, r2, spearman } from '../ml/metrics.js';
import type { BandedCoverage, FeeCard, RangeCoverage, ValueMetrics } from './card.js';

export const FEE_BANDS: ReadonlyArray<readonly [string, number, number]> = [['<5M', 0, 5e6], ['5-20M', 5e6, 20e6], ['>=20M', 20e6, Infinity]];

export interface FeeRow {
  fee: number;
  pred: number;
  /** the model's range before any calibration the backtest learns */
  low: number;
  high: number;
  crowd: number;
  last: number;
  origin: string;
}

export function valueMetrics(actual: readonly number[], pred: readonly number[]): ValueMetrics {
  return {
    n: actual.length,
    r2_log: r2(actual.map(Math.log), pred.map(Math.log)),
    mdape: medianAbsolutePercentageError(actual, pred),
    spearman: spearman(actual, pred),
    bias: median(pred.map((p, i) => Math.log(p / actual[i]))),
  };
}

export function coverage(rows: ReadonlyArray<{ actual: number; low: number; high: number }>, nominal = 0.8): RangeCoverage {
  const n = rows.length;
  const below = rows.filter((r) => r.actual < r.low).length, above = rows.filter((r) => r.actual > r.high).length;
  return { nominal, n, inside: (n - below - above) / Math.max(1, n), below: below / Math.max(1, n), above: above / Math.max(1, n) };
}

export function bandedCoverage<T extends { actual: number; low: number; high: number }>(rows: readonly T[], band: (r: T) => string, predictedBand?: (r: T) => string): BandedCoverage {
  const banded = (by: (r: T) => string) => FEE_BANDS.map(([name]) => ({ band: name, ...coverage(rows.filter((r) => by(r) === name)) }));
  return { ...coverage(rows), by_band: banded(band), ...(predictedBand ? { by_predicted_band: banded(predictedBand) } : {}) };
}

export const bandOf = (fee: number) => FEE_BANDS.find(([, lo, hi]) => fee >= lo && fee < hi)![0];

/** Every origin's predictions; `fitted` are the fee models fitted at the origins (the same settings as served). */
export function feeRows(last: Snapshot, origins: ReadonlyArray<{ origin: string; snapshot: Snapshot }>, settings: FeeSettings): { rows: FeeRow[]; fitted: FeeArtifact[] } {
  const idx = featureIndex(last);
  const rows: FeeRow[] = [];
  const fitted: FeeArtifact[] = [];
  for (const { origin, snapshot } of origins) {
    const artifact = fitFeeModel(snapshot, settings);
    fitted.push(artifact);
    const end = addDays(origin, 365) < last.asOf ? addDays(origin, 365) : last.asOf;
    const buyer = unknownBuyerOf(artifact);
    for (const t of paidTransfers(last)) {
      if (t.date <= origin || t.date > end || !(t.market_value_eur !== null && t.market_value_eur > 0)) continue;
      const lastValue = latestValue(idx, t.player_id, addDays(t.date, -1));
      if (!lastValue || !(lastValue.valueEur > 0)) continue;
      const out = feeFromFeatures(artifact, transferFeatures(idx, t, buyer));
      rows.push({ fee: t.fee_eur!, pred: out.feeEur, low: out.lowEur, high: out.highEur, crowd: t.market_value_eur, last: lastValue.valueEur, origin });
    }
  }
  return { rows, fitted };
}

/**
 * The card from the rows; `calibrated` gives each row's range as served (the conformal offsets the
 * backtest learned, from the other origins' residuals) beside the model's own.
 */
export function feeCard(rows: readonly FeeRow[], origins: readonly string[], calibrated: (r: FeeRow) => { low: number; high: number }): FeeCard | null {
  if (rows.length < 20) return null;
  const metrics = (list: readonly FeeRow[], pick: (r: FeeRow) => number) => valueMetrics(list.map((r) => r.fee), list.map(pick));
  const band = (r: { actual: number }) => bandOf(r.actual);
  return {
    metric: 'r2_log, mdape, spearman, bias',
    origins: [...origins],
    n: rows.length,
    model: metrics(rows, (r) => r.pred),
    baselines: { crowd: metrics(rows, (r) => r.crowd), last_value: metrics(rows, (r) => r.last) },
    by_band: FEE_BANDS.map(([name]) => {
      const list = rows.filter((r) => bandOf(r.fee) === name);
      return list.length < 2
        ? null
        : { band: name, n: list.length, model: metrics(list, (r) => r.pred), crowd: metrics(list, (r) => r.crowd), last_value: metrics(list, (r) => r.last) };
    }).filter((b): b is FeeCard['by_band'][number] => b !== null),
    range_coverage: {
      ...bandedCoverage(rows.map((r) => ({ actual: r.fee, pred: r.pred, ...calibrated(r) })), band, (r) => bandOf(r.pred)),
      before_calibration: bandedCoverage(rows.map((r) => ({ actual: r.fee, pred: r.pred, low: r.low, high: r.high })), band, (r) => bandOf(r.pred)),
    },
  };
}
