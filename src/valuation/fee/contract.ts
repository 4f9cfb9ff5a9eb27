/**
 * What the months left on a contract do to a fee, where the trees cannot learn it.
 *
 * The real data holds one contract per player, the one running at its end, so the contract in
 * force before a historical transfer is unknown and the fee trees never see months left. What the
 * data does show: how long the contracts signed on a paid move run (the snapshot's contracts signed
 * in the last year before the as-of date, by age at signing), and, for every later sale of a player
 * his seller had bought, how long he had been there. A bought player's months left at his sale are
 * then imputed as the usual length of a contract signed at his age minus his tenure, and the median
 * log(fee / value) of those sales is read in bins of imputed months left, made monotone (isotonic)
 * and taken relative to the longest bin (3+ years: factor 1). Extensions the data does not record
 * make some imputed months too few, so the measured effect is, if anything, too small.
 */
import type { Snapshot } from '../../domain/snapshot.js';
import { ageAt, logValueAt, type FeatureIndex } from '../features/index.js';
import { addDays, dayOf } from '../../domain/days.js';
import { median } from '../ml/metrics.js';

const MONTH_DAYS = 30.4369;
/** Upper edges (months) of the imputed months-left bins; the last bin is open. */
const BIN_EDGES = [6, 12, 18, 24, 30, 36] as const;
/** Sales per bin below which neighbouring bins are pooled before the isotonic fit. */
const MIN_BIN_ROWS = 30;
/** Age groups of the usual contract length at signing (upper ends, years). */
const SIGNING_AGE_UPPER = [23, 27, Infinity] as const;
const SIGNING_MIN_ROWS = 30;
/** Ages of the sales the curve is read from: the market of established players, not teenagers' first deals. */
const SALE_AGE = [21, 31] as const;

export interface ContractCurve {
  /** Bin centres in months left (ascending) and the log factor of each, non-decreasing. */
  months: number[];
  logFactor: number[];
  /** Usual contract length at signing (months) per age group of SIGNING_AGE_UPPER. */
  signingMonths: number[];
  /** Sales the curve was read from, per bin. */
  rows: number[];
}

const ageGroup = (age: number) => SIGNING_AGE_UPPER.findIndex((u) => age < u);

/** Usual length (months) of a contract signed on a paid move, by age at signing. */
function signingLengths(snapshot: Snapshot, idx: FeatureIndex): number[] | null {
  const recentFrom = dayOf(snapshot.asOf) - 365;
  const lengths: number[][] = SIGNING_AGE_UPPER.map(() => []);
  for (const c of snapshot.contracts.values()) {
    if (!c.end_date || dayOf(c.signed_date) < recentFrom) continue;
    // Signed on a paid move to that club (not a free or a youth contract).
    const paid = (snapshot.transfersOfPlayer.get(c.player_id) ?? []).some(
      (t) => t.date === c.signed_date && t.to_club_id === c.club_id && t.fee_eur !== null && t.fee_eur > 0 && !t.is_loan,
    );
    const age = ageAt(idx, c.player_id, c.signed_date);
    if (!paid || !Number.isFinite(age)) continue;
    lengths[ageGroup(age)].push((dayOf(c.end_date) - dayOf(c.signed_date)) / MONTH_DAYS);
  }
  if (lengths.some((l) => l.length < SIGNING_MIN_ROWS)) return null;
  return lengths.map(median);
}

/** Weighted pool-adjacent-violators: the non-decreasing fit of `y` with weights `w`. */
function isotonic(y: number[], w: number[]): number[] {
  const blocks: { v: number; w: number; n: number }[] = [];
  for (let i = 0; i < y.length; i++) {
    blocks.push({ v: y[i], w: w[i], n: 1 });
    while (blocks.length > 1 && blocks[blocks.length - 2].v > blocks[blocks.length - 1].v) {
      const b = blocks.pop()!;
      const a = blocks[blocks.length - 1];
      a.v = (a.v * a.w + b.v * b.w) / (a.w + b.w);
      a.w += b.w;
      a.n += b.n;
    }
  }
  return blocks.flatMap((b) => new Array<number>(b.n).fill(b.v));
}

/**
 * The contract curve of the snapshot's paid transfers (null when the data has too few signings or
 * sales to read it).
 */
export function fitContractCurve(snapshot: Snapshot, idx: FeatureIndex): ContractCurve | null {
  const signingMonths = signingLengths(snapshot, idx);
  if (!signingMonths) return null;
  const bins: number[][] = BIN_EDGES.map(() => []);
  bins.push([]);
  for (const rows of snapshot.transfersOfPlayer.values()) {
    for (let i = 1; i < rows.length; i++) {
      const sale = rows[i];
      if (!(sale.fee_eur !== null && sale.fee_eur > 0) || sale.is_loan || !sale.from_club_id) continue;
      // The move that brought him to the seller, paid: a fresh contract of the usual length.
      let bought = null;
      for (let k = i - 1; k >= 0; k--) {
        if (rows[k].is_loan) continue;
        bought = rows[k];
        break;
      }
      if (!bought || bought.to_club_id !== sale.from_club_id || !(bought.fee_eur !== null && bought.fee_eur > 0)) continue;
      const age = ageAt(idx, sale.player_id, sale.date);
      const ageThen = ageAt(idx, sale.player_id, bought.date);
      if (!(age >= SALE_AGE[0] && age <= SALE_AGE[1])) continue;
      const value = logValueAt(idx, sale.player_id, addDays(sale.date, -1), 365);
      if (!Number.isFinite(value)) continue;
      const left = signingMonths[ageGroup(ageThen)] - (dayOf(sale.date) - dayOf(bought.date)) / MONTH_DAYS;
      // Past the usual length he was extended or his deal was longer: months left unknown.
      if (!(left > 0)) continue;
      const b = BIN_EDGES.findIndex((e) => left < e);
      bins[b < 0 ? BIN_EDGES.length : b].push(Math.log(sale.fee_eur) - value);
    }
  }
  // Pool thin bins into their neighbour towards the middle, then make the medians monotone.
  const centres = [...BIN_EDGES.map((e) => e - 3), 48];
  const months: number[] = [];
  const medians: number[] = [];
  const counts: number[] = [];
  let pending: number[] = [];
  let pendingMonths: number[] = [];
  bins.forEach((list, b) => {
    pending = pending.concat(list);
    pendingMonths.push(centres[b]);
    if (pending.length >= MIN_BIN_ROWS) {
      months.push(pendingMonths.reduce((s, m) => s + m, 0) / pendingMonths.length);
      medians.push(median(pending));
      counts.push(pending.length);
      pending = [];
      pendingMonths = [];
    }
  });
  if (pending.length > 0 && counts.length > 0) {
    const last = counts.length - 1;
    medians[last] = (medians[last] * counts[last] + median(pending) * pending.length) / (counts[last] + pending.length);
    counts[last] += pending.length;
  }
  if (counts.length < 2) return null;
  const fitted = isotonic(medians, counts);
  // Relative to the longest contracts (factor 1): the trees price the sales they saw, and the dear ones,
  // where a fee matters most, are mostly of players with years left (a star in his last year tends to
  // leave for free, not be sold). Centred on the mix of all sales instead, a long contract lifted every
  // star's fee by a further 20-25% (Rice at 1.6 times his value).
  const top = fitted[fitted.length - 1];
  return { months, logFactor: fitted.map((v) => v - top), signingMonths, rows: counts };
}

/**
 * The log factor at a number of months left: NaN (unknown) gives 0; between bin centres linear,
 * beyond the ends flat. A contract that has run out is a free transfer (see predictFee), not a factor.
 */
export function contractLogFactor(curve: ContractCurve | null, monthsLeft: number): number {
  if (!curve || !Number.isFinite(monthsLeft)) return 0;
  const { months, logFactor } = curve;
  if (monthsLeft <= months[0]) return logFactor[0];
  const n = months.length;
  if (monthsLeft >= months[n - 1]) return logFactor[n - 1];
  let i = 1;
  while (months[i] < monthsLeft) i++;
  const t = (monthsLeft - months[i - 1]) / (months[i] - months[i - 1]);
  return logFactor[i - 1] + t * (logFactor[i] - logFactor[i - 1]);
}
