/**
 * The draws every league simulation of impact/ shares: the match model's joint score (league/match.ts)
 * by inverse CDF of two 16-bit uniforms (both halves of one 32-bit draw): the home goals from their
 * Poisson marginal, the away goals from their law given the home goals. Under the Dixon–Coles
 * dependence that law is the away side's Poisson except for the split of "at most one goal" into 0
 * and 1 when the home side scored 0 or 1 (P(y <= 1 | x) = P(y <= 1) for every x), so a fixture keeps
 * its two sides' Poisson tables plus two thresholds (`fillLowScores`), and a draw of the away side
 * reads them only when its uniform falls in the narrow band between them. On common random numbers a
 * stronger side never takes fewer points nor a worse goal difference from the same uniforms (a 0-0
 * may become a 1-1). Thresholds are kept as integers, and runs are counted in blocks.
 */
import { LRUCache } from 'lru-cache';
import { seededGenerator } from '../../domain/random.js';
import { effectiveRho, type GoalCeiling } from '../league/match.js';

export const BLOCK = 64;
/** uniforms have 16 bits: one 32-bit draw gives both sides of a fixture */
export const U16 = 65536;

/**
 * Poisson CDF for 0..maxGoals as 16-bit integer thresholds (goals = number of thresholds <= u).
 * Rounding up keeps the thresholds monotone in the rate, so common random numbers stay monotone;
 * the resolution (1.5e-5 in probability) is far below the Monte Carlo error.
 */
export function fillCdf(out: Int32Array, base: number, lambda: number, maxGoals: number): void {
  let p = Math.exp(-lambda);
  let acc = p;
  out[base] = Math.min(U16, Math.ceil(acc * U16));
  for (let k = 1; k < maxGoals; k++) {
    p = (p * lambda) / k;
    acc += p;
    out[base + k] = Math.min(U16, Math.ceil(acc * U16));
  }
  out[base + maxGoals] = U16;
}

/** Ints a fixture keeps for the away side's law given the home goals (fillLowScores). */
export const LOW = 4;

/**
 * The away side's law given the home goals, as LOW ints at `base`: the thresholds below which the
 * away side scores 0 when the home side scored 0 and 1 (P(y = 0 | x) = tau(x, 0) e^(−away); above
 * it, up to the Poisson threshold of 1 goal, it scores 1), then the start and the width of the band
 * of uniforms where either differs from the Poisson threshold of 0 goals. Only a draw inside that
 * band (a few per cent of them) needs the home goals: elsewhere the away goals are the Poisson
 * draw's (`awayGoalsGiven`). With rho 0 the band is empty and the sides are independent.
 * `markLowBand` sends the band's draws past the away side's lookup table, so the engines' hot path
 * (one table byte per side) is the independent one's.
 */
export function fillLowScores(out: Int32Array, base: number, home: number, away: number, rho: number, awayCdf: Int32Array, awayBase: number): void {
  const r = effectiveRho(home, away, rho);
  const q0 = Math.exp(-away);
  const c0 = awayCdf[awayBase], c1 = awayCdf[awayBase + 1];
  const t0 = Math.min(c1, Math.ceil(q0 * (1 - home * away * r) * U16));
  const t1 = Math.min(c1, Math.ceil(q0 * (1 + away * r) * U16));
  const lo = Math.min(t0, t1, c0);
  out[base] = t0;
  out[base + 1] = t1;
  out[base + 2] = lo;
  out[base + 3] = Math.max(t0, t1, c0) - lo;
}

/** The away goals given the home goals `x`, from the away side's Poisson goals `y` on the same uniform `u`. */
export function awayGoalsGiven(x: number, y: number, u: number, low: Int32Array, base: number): number {
  return (u - low[base + 2]) >>> 0 < low[base + 3] && x < 2 ? +(u >= low[base + x]) : y;
}

/** Marks the buckets of an away side's lookup table (fillLut's) that the band of fillLowScores touches as undecided. */
export function markLowBand(lut: Int8Array, lbase: number, low: Int32Array, base: number): void {
  const span = low[base + 3];
  if (span === 0) return;
  const last = (low[base + 2] + span - 1) >>> 8;
  for (let b = low[base + 2] >>> 8; b <= last; b++) lut[lbase + b] = -1;
}

/** Buckets of a side's lookup table: the top 8 bits of the 16-bit uniform. */
export const LUT_SIZE = 256;

/**
 * A side's goals per bucket of u (u >>> 8) when no threshold falls inside the bucket, else -1 (then
 * goalsFor decides): one byte load answers about 97% of draws, with exactly goalsFor's goals.
 */
export function fillLut(lut: Int8Array, lbase: number, cdf: Int32Array, base: number): void {
  let g = 0;
  for (let b = 0; b < LUT_SIZE; b++) {
    const lo = b << 8;
    while (cdf[base + g] <= lo) g++; // the last threshold is U16, above every lo
    lut[lbase + b] = cdf[base + g] <= lo + 255 ? -1 : g;
  }
}

export function goalsFor(cdf: Int32Array, base: number, u: number): number {
  let x = +(u >= cdf[base]) + +(u >= cdf[base + 1]) + +(u >= cdf[base + 2]) + +(u >= cdf[base + 3]);
  if (x === 4) while (u >= cdf[base + x]) x++;
  return x;
}

/** Pairs in whole blocks, so close requests land on the same count. */
export function roundUp(pairs: number): number {
  return Math.ceil(pairs / BLOCK) * BLOCK;
}


/**
 * One side of a fixture, thresholds and lookup table, kept by its scoring rate: every request on a
 * league and season meets the same rates for every fixture between unchanged clubs, and building a
 * table costs about what a few hundred runs save with it. Values, not state: the draws are the same
 * with or without the memo.
 */
export interface Side {
  /** thresholds, maxGoals + 1 of them */
  readonly cdf: Int32Array;
  /** fillLut's table */
  readonly lut: Int8Array;
}

/** Sides by goal cap, then by scoring rate; the least recently used leave first past SIDES_MAX. */
const sides = new Map<number, LRUCache<number, Side>>();
const SIDES_MAX = 100_000;

/** The side of scoring rate `lambda` (kept; see above). Callers must not write into it. */
export function sideOf(lambda: number, maxGoals: number): Side {
  let byRate = sides.get(maxGoals);
  if (!byRate) sides.set(maxGoals, (byRate = new LRUCache({ max: SIDES_MAX })));
  let side = byRate.get(lambda);
  if (!side) {
    const cdf = new Int32Array(maxGoals + 1), lut = new Int8Array(LUT_SIZE);
    fillCdf(cdf, 0, lambda, maxGoals);
    fillLut(lut, 0, cdf, 0);
    byRate.set(lambda, (side = { cdf, lut }));
  }
  return side;
}

/**
 * fillSide without keeping the side: a what-if's own sides (a candidate's club against each
 * opponent) are almost never met again (0.7% of lookups for ROI, impact and recommend on fresh
 * pairs), and keeping them filled the memo with single-use entries
 * (up to SIDES_MAX, about 50 MB per thread, then cleared with the shared sides in it). A side
 * already kept is copied; either way the same values.
 */
export function fillSideUnkept(cdf: Int32Array, base: number, lut: Int8Array, lbase: number, lambda: number, maxGoals: number): void {
  const side = sides.get(maxGoals)?.get(lambda);
  if (side) {
    cdf.set(side.cdf, base);
    lut.set(side.lut, lbase);
    return;
  }
  fillCdf(cdf, base, lambda, maxGoals);
  fillLut(lut, lbase, cdf, base);
}

export function fillSide(cdf: Int32Array, base: number, lut: Int8Array, lbase: number, lambda: number, maxGoals: number): void {
  const side = sideOf(lambda, maxGoals);
  cdf.set(side.cdf, base);
  lut.set(side.lut, lbase);
}

/** One fixture's tables at `slot` (cdf `k1` ints, lookup LUT_SIZE, low LOW a slot): both sides' Poisson and the away side's law given the home goals. */
export interface FixtureTables {
  cdfH: Int32Array;
  cdfA: Int32Array;
  lutH: Int8Array;
  lutA: Int8Array;
  low: Int32Array;
}

/** Fills a fixture's tables for goal rates `home` and `away` and dependence `rho` (what every whole-fixture engine keeps). */
export function fillFixture(t: FixtureTables, slot: number, k1: number, home: number, away: number, rho: number, maxGoals: number): void {
  fillSide(t.cdfH, slot * k1, t.lutH, slot * LUT_SIZE, home, maxGoals);
  fillSide(t.cdfA, slot * k1, t.lutA, slot * LUT_SIZE, away, maxGoals);
  fillLowScores(t.low, slot * LOW, home, away, rho, t.cdfA, slot * k1);
  markLowBand(t.lutA, slot * LUT_SIZE, t.low, slot * LOW);
}

/** The checks both engines make of a league and its strengths (one set per scenario). */
export function checkLeague(
  clubIds: readonly string[], intercept: number, homeAdvantage: number, rho: number, strengths: readonly { attack: readonly number[]; defence: readonly number[] }[], ceiling?: GoalCeiling | null,
): void {
  const n = clubIds.length;
  if (n < 2) throw new Error('a league needs at least two clubs');
  if (new Set(clubIds).size !== n) throw new Error('club ids must be unique');
  for (const sc of strengths) {
    if (sc.attack.length !== n || sc.defence.length !== n) throw new Error('every club needs a strength in every scenario');
    for (let i = 0; i < n; i++) {
      if (!Number.isFinite(sc.attack[i]) || !Number.isFinite(sc.defence[i])) throw new Error(`strength of ${clubIds[i]} is not finite`);
    }
  }
  if (!Number.isFinite(intercept) || !Number.isFinite(homeAdvantage) || !Number.isFinite(rho)) throw new Error('intercept, homeAdvantage and rho must be finite');
  if (ceiling && !(ceiling.level > 0 && ceiling.sharpness > 0 && Number.isFinite(ceiling.level) && Number.isFinite(ceiling.sharpness))) throw new Error('a goal ceiling needs a positive, finite level and sharpness');
}

/** Input indexes in club-id order, so the draws do not depend on the caller's order. */
export function canonicalOrder(clubIds: readonly string[]): number[] {
  return clubIds.map((id, i) => ({ id, i })).sort((a, b) => (a.id < b.id ? -1 : 1)).map((x) => x.i);
}

/**
 * sfc32's starting state from the library generator (the engines inline its step: the hot loops draw
 * ~10^6 numbers), and the ranges that pack points, goal difference and goals into one sort key.
 */
export function drawSetup(seed: number, clubs: number, maxGoals: number): { state: Int32Array; gsRange: number; gdRange: number } {
  const g = seededGenerator(seed);
  const gsRange = 2 * (clubs - 1) * maxGoals + 1;
  return { state: new Int32Array([g.next(), g.next(), g.next(), g.next()]), gsRange, gdRange: 2 * gsRange - 1 };
}
