/**
 * What-if runs on a kept baseline: the draws of scenarios.ts's FusedEngine, split so that the part
 * every what-if about one club shares is simulated once.
 *
 * Every signing evaluated for a club in a season runs on the same seed and the same "without"
 * strengths (impact.ts), so the baseline's runs are the same for every candidate. A baseline keeps,
 * per antithetic pair: each club's sort key from the fixtures the tracked club does not play (its
 * points, goal difference and goals, packed as FusedEngine packs them), the uniforms of the tracked
 * club's fixtures, the tie-break draws, the generator's state at the pair's start and the baseline's
 * places. A scenario then replays only the tracked club's fixtures on those uniforms (and, when it
 * also changes another club, that club's fixtures, on uniforms drawn again from the kept state):
 * about a tenth of the work of a full run.
 *
 * Answers are byte-identical to FusedEngine's: the same uniforms, the same goals (the same side
 * tables), the same integer sort keys plus the same tie draw, the same sums (integers and halves,
 * exact in any order) and the same run-count rule. A test holds the two side by side.
 *
 * The baselines are kept by their exact inputs (seed, clubs, strengths): values, not state, so a
 * world swap needs no invalidation (a new world's strengths make new keys; old ones age out). At
 * most BASELINE_BYTES are kept per thread, least recently used dropped first.
 */
import { LRUCache } from 'lru-cache';
import { sideRate, type GoalCeiling } from '../league/match.js';
import { BLOCK, canonicalOrder, checkLeague, drawSetup, fillLowScores, fillSideUnkept, goalsFor, LOW, LUT_SIZE, markLowBand, roundUp, sideOf, type Side } from './poisson-draws.js';
import type { ScenarioLeagueInput, ScenarioOutcome, ScenarioResult, ScenarioSettings } from './scenario-types.js';

/** bytes of baselines kept per thread (each worker keeps its own) */
export const BASELINE_BYTES = 48 * 1024 * 1024;

/** Flat copies of fixture sides, for the hot loops (one cache line per lookup instead of a pointer chase). */
interface FlatSides {
  k1: number;
  cdf: Int32Array;
  /** LUT_SIZE a fixture; an away side's with the band where the home goals matter undecided (markLowBand) */
  lut: Int8Array;
  /** away sides: the law given the home goals, LOW ints per fixture (poisson-draws.ts fillLowScores); empty for home sides */
  low: Int32Array;
}

function flatten(sides: readonly Side[], k1: number): FlatSides {
  const cdf = new Int32Array(sides.length * k1), lut = new Int8Array(sides.length * LUT_SIZE);
  sides.forEach((s, i) => { cdf.set(s.cdf, i * k1); lut.set(s.lut, i * LUT_SIZE); });
  return { k1, cdf, lut, low: new Int32Array(0) };
}

/** Away sides, flat, with the ints of fillLowScores: the band where the home goals matter leaves the lookup table. */
function flattenAway(sides: readonly Side[], k1: number, low: Int32Array): FlatSides {
  const t = flatten(sides, k1);
  for (let i = 0; i < sides.length; i++) markLowBand(t.lut, i * LUT_SIZE, low, i * LOW);
  return { ...t, low };
}

// Module-local copies of imports read in the hot loops: under the TypeScript loader an imported
// binding can be read through a getter on every access (a fifth of a worker's time in a profile).
const LUT = LUT_SIZE;
const LOW_INTS = LOW;
const scanGoals = goalsFor;

function goalsOf(t: FlatSides, i: number, u: number): number {
  const x = t.lut[i * LUT + (u >>> 8)];
  return x >= 0 ? x : scanGoals(t.cdf, i * t.k1, u);
}

/** The away goals of fixture i given the home goals x (the joint score: poisson-draws.ts awayGoalsGiven). */
function awayOf(t: FlatSides, i: number, u: number, x: number): number {
  const y = t.lut[i * LUT + (u >>> 8)];
  return y >= 0 ? y : awayUndecided(t, i, u, x);
}

/** An undecided bucket: the Poisson goals, then given the home goals inside the band (kept apart so awayOf stays small enough to inline). */
function awayUndecided(t: FlatSides, i: number, u: number, x: number): number {
  const b = i * LOW_INTS, low = t.low, base = i * t.k1;
  // inside the band the Poisson draw is 0 or 1 (its threshold of 0 goals decides), else it is read in full
  if ((u - low[b + 2]) >>> 0 < low[b + 3]) return +(u >= (x < 2 ? low[b + x] : t.cdf[base]));
  return scanGoals(t.cdf, base, u);
}

class Baseline {
  readonly n: number;
  readonly target: number;
  readonly maxGoals: number;
  readonly mu: number;
  readonly home: number;
  readonly rho: number;
  readonly ceiling: GoalCeiling | null;
  /** canonical-order strengths of the baseline */
  readonly att: Float64Array;
  readonly def: Float64Array;
  /** fixtures in draw order: home and away club (canonical index) */
  readonly fh: Int32Array;
  readonly fa: Int32Array;
  /** draw indexes of the tracked club's fixtures, and of the others */
  readonly tFix: Int32Array;
  readonly oFix: Int32Array;
  /** home and away club of each tracked fixture, in tFix's order */
  readonly tHome: Int32Array;
  readonly tAway: Int32Array;
  readonly baseH: Side[];
  readonly baseA: Side[];
  /** per fixture in draw order, the away side's law given the home goals (LOW ints) */
  readonly baseLow: Int32Array;
  readonly gsRange: number;
  /** weight of a point in the packed key (goal difference range x goals range) */
  readonly W: number;
  /** the key's constant: goal difference offset x goals range */
  readonly offset: number;
  readonly state: Int32Array;
  pairs = 0;
  private cap = 0;
  /** per pair and flip, per club: packed key of the fixtures the tracked club does not play (offset included) */
  keys = new Int32Array(0);
  /** per pair, per club: the raw tie draw */
  tieZ = new Int32Array(0);
  /** per pair, per tracked fixture: its uniform */
  tU = new Int32Array(0);
  /** per pair: the generator's state at its start */
  rngAt = new Int32Array(0);
  /** per pair and flip: the baseline's place of the tracked club */
  baseRank = new Uint8Array(0);

  constructor(input: ScenarioLeagueInput, seed: number, maxGoals: number) {
    const n = input.clubIds.length;
    const order = canonicalOrder(input.clubIds);
    this.n = n;
    this.target = order.findIndex((i) => input.clubIds[i] === input.target);
    if (this.target < 0) throw new Error(`target ${input.target} is not in the league`);
    this.maxGoals = maxGoals;
    this.mu = input.intercept;
    this.home = input.homeAdvantage;
    this.rho = input.rho;
    this.ceiling = input.ceiling ?? null;
    const sc = input.scenarios[0];
    this.att = Float64Array.from(order, (i) => sc.attack[i]);
    this.def = Float64Array.from(order, (i) => sc.defence[i]);
    const F = n * (n - 1);
    this.fh = new Int32Array(F);
    this.fa = new Int32Array(F);
    this.baseH = [];
    this.baseA = [];
    this.baseLow = new Int32Array(LOW * F);
    const t: number[] = [], o: number[] = [];
    for (let i = 0, f = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        if (i === j) continue;
        this.fh[f] = i;
        this.fa[f] = j;
        this.baseH.push(this.sideH(this.att, this.def, i, j));
        this.baseA.push(this.sideA(this.att, this.def, i, j));
        fillLowScores(this.baseLow, LOW * f, this.rateH(this.att, this.def, i, j), this.rateA(this.att, this.def, i, j), this.rho, this.baseA[f].cdf, 0);
        (i === this.target || j === this.target ? t : o).push(f);
        f++;
      }
    }
    this.tFix = Int32Array.from(t);
    this.oFix = Int32Array.from(o);
    this.tHome = Int32Array.from(t, (f) => this.fh[f]);
    this.tAway = Int32Array.from(t, (f) => this.fa[f]);
    const setup = drawSetup(seed, n, maxGoals);
    this.state = setup.state;
    this.gsRange = setup.gsRange;
    this.W = setup.gdRange * setup.gsRange;
    this.offset = (setup.gsRange - 1) * setup.gsRange;
  }

  // the rates exactly as FusedEngine computes them, so the sides (and goals) are the same
  rateH(att: ArrayLike<number>, def: ArrayLike<number>, i: number, j: number): number {
    return sideRate(this.mu + this.home + att[i] - def[j], this.ceiling);
  }

  rateA(att: ArrayLike<number>, def: ArrayLike<number>, i: number, j: number): number {
    return sideRate(this.mu + att[j] - def[i], this.ceiling);
  }

  sideH(att: ArrayLike<number>, def: ArrayLike<number>, i: number, j: number): Side {
    return sideOf(this.rateH(att, def, i, j), this.maxGoals);
  }

  sideA(att: ArrayLike<number>, def: ArrayLike<number>, i: number, j: number): Side {
    return sideOf(this.rateA(att, def, i, j), this.maxGoals);
  }

  /** The kept away sides' law given the home goals of these fixtures, flat. */
  baseLowOf(fixtures: ArrayLike<number>): Int32Array {
    const low = new Int32Array(LOW * fixtures.length);
    for (let e = 0; e < fixtures.length; e++) low.set(this.baseLow.subarray(LOW * fixtures[e], LOW * fixtures[e] + LOW), LOW * e);
    return low;
  }

  /** A scenario's sides of these fixtures, flat, not kept (fillSideUnkept: they are the scenario's own). */
  scenarioSides(att: ArrayLike<number>, def: ArrayLike<number>, fixtures: ArrayLike<number>, home: boolean): FlatSides {
    const k1 = this.maxGoals + 1, m = fixtures.length;
    const t: FlatSides = { k1, cdf: new Int32Array(m * k1), lut: new Int8Array(m * LUT), low: new Int32Array(home ? 0 : LOW * m) };
    for (let e = 0; e < m; e++) {
      const i = this.fh[fixtures[e]], j = this.fa[fixtures[e]];
      const lh = this.rateH(att, def, i, j), la = this.rateA(att, def, i, j);
      fillSideUnkept(t.cdf, e * k1, t.lut, e * LUT, home ? lh : la, this.maxGoals);
      if (!home) {
        fillLowScores(t.low, LOW * e, lh, la, this.rho, t.cdf, e * k1);
        markLowBand(t.lut, e * LUT, t.low, LOW * e);
      }
    }
    return t;
  }

  get bytes(): number {
    return this.cap * (this.n * 12 + this.tFix.length * 4 + 18) + this.fh.length * 40;
  }

  private grow(pairs: number): void {
    if (pairs <= this.cap) return;
    // to the block, not doubled: most baselines stop growing after the first request, and memory is the bound
    const cap = roundUp(pairs);
    const n = this.n, nT = this.tFix.length;
    const keys = new Int32Array(cap * 2 * n); keys.set(this.keys); this.keys = keys;
    const tieZ = new Int32Array(cap * n); tieZ.set(this.tieZ); this.tieZ = tieZ;
    const tU = new Int32Array(cap * nT); tU.set(this.tU); this.tU = tU;
    const rngAt = new Int32Array(cap * 4); rngAt.set(this.rngAt); this.rngAt = rngAt;
    const baseRank = new Uint8Array(cap * 2); baseRank.set(this.baseRank); this.baseRank = baseRank;
    this.cap = cap;
  }

  /** Simulates the baseline up to `pairs` antithetic pairs. */
  extend(pairs: number): void {
    if (pairs <= this.pairs) return;
    this.grow(pairs);
    const { n, target, fh, fa, tFix, oFix, tHome, tAway, state, keys, tieZ, tU, rngAt, baseRank, gsRange, W, offset } = this;
    const nT = tFix.length, nO = oFix.length, F = fh.length;
    const oH = flatten(Array.from(oFix, (f) => this.baseH[f]), this.maxGoals + 1);
    const oA = flattenAway(Array.from(oFix, (f) => this.baseA[f]), this.maxGoals + 1, this.baseLowOf(oFix));
    const tH = flatten(Array.from(tFix, (f) => this.baseH[f]), this.maxGoals + 1);
    const tA = flattenAway(Array.from(tFix, (f) => this.baseA[f]), this.maxGoals + 1, this.baseLowOf(tFix));
    const u = new Int32Array(F);
    const work = new Int32Array(n);
    // the other fixtures' clubs and uniforms in their own order: both runs of a pair read them in sequence
    const oHome = Int32Array.from(oFix, (f) => fh[f]), oAway = Int32Array.from(oFix, (f) => fa[f]), oU = new Int32Array(nO);
    let a = state[0], b = state[1], c = state[2], d = state[3];
    for (let p = this.pairs; p < pairs; p++) {
      rngAt[p * 4] = a; rngAt[p * 4 + 1] = b; rngAt[p * 4 + 2] = c; rngAt[p * 4 + 3] = d;
      for (let f = 0; f < F; f++) {
        const z = (a + b + d) | 0;
        d = (d + 1) | 0; a = b ^ (b >>> 9); b = (c + (c << 3)) | 0; c = (c << 21) | (c >>> 11); c = (c + z) | 0;
        u[f] = z;
      }
      for (let k = 0; k < n; k++) {
        const z = (a + b + d) | 0;
        d = (d + 1) | 0; a = b ^ (b >>> 9); b = (c + (c << 3)) | 0; c = (c << 21) | (c >>> 11); c = (c + z) | 0;
        tieZ[p * n + k] = z;
      }
      for (let t = 0; t < nT; t++) tU[p * nT + t] = u[tFix[t]];
      for (let o = 0; o < nO; o++) oU[o] = u[oFix[o]];
      for (let flip = 0; flip < 2; flip++) {
        const mask = flip ? 0xffff : 0;
        const kb = (p * 2 + flip) * n;
        for (let k = 0; k < n; k++) keys[kb + k] = offset;
        for (let o = 0; o < nO; o++) {
          const z = oU[o];
          const x = goalsOf(oH, o, (z & 0xffff) ^ mask), y = awayOf(oA, o, (z >>> 16) ^ mask, x);
          const h = oHome[o], w = oAway[o];
          keys[kb + h] += (3 * +(x > y) + +(x === y)) * W + (x - y) * gsRange + x;
          keys[kb + w] += (3 * +(x < y) + +(x === y)) * W + (y - x) * gsRange + y;
        }
        for (let k = 0; k < n; k++) work[k] = keys[kb + k];
        for (let t = 0; t < nT; t++) {
          const z = tU[p * nT + t];
          const x = goalsOf(tH, t, (z & 0xffff) ^ mask), y = awayOf(tA, t, (z >>> 16) ^ mask, x);
          const h = tHome[t], w = tAway[t];
          work[h] += (3 * +(x > y) + +(x === y)) * W + (x - y) * gsRange + x;
          work[w] += (3 * +(x < y) + +(x === y)) * W + (y - x) * gsRange + y;
        }
        baseRank[p * 2 + flip] = placeOf(work, tieZ, p * n, n, target, flip);
      }
    }
    state[0] = a; state[1] = b; state[2] = c; state[3] = d;
    this.pairs = pairs;
  }
}

/** Place of the tracked club: 1 + clubs whose key plus tie draw is higher (FusedEngine's rule). */
function placeOf(work: Int32Array, tieZ: Int32Array, tb: number, n: number, target: number, flip: number): number {
  // times 2^-32 is exactly the division by 2^32 FusedEngine makes
  const tt = (tieZ[tb + target] >>> 0) * INV_2_32;
  const keyT = work[target] + (flip ? 1 - tt : tt);
  let place = 1;
  for (let k = 0; k < n; k++) {
    if (k === target) continue;
    const tk = (tieZ[tb + k] >>> 0) * INV_2_32;
    place += +(work[k] + (flip ? 1 - tk : tk) > keyT);
  }
  return place;
}

const INV_2_32 = 1 / 4294967296;

/** A scenario's places on the baseline's pairs: the tracked club's fixtures (and any other changed club's) replayed. */
class Replay {
  ranks = new Uint8Array(0);
  private readonly tH: FlatSides;
  private readonly tA: FlatSides;
  /** fixtures the tracked club does not play but the scenario changes: draw index, base and scenario sides */
  private readonly xFix: Int32Array;
  private readonly xBaseH: FlatSides;
  private readonly xBaseA: FlatSides;
  private readonly xH: FlatSides;
  private readonly xA: FlatSides;
  done = 0;

  constructor(private readonly base: Baseline, att: Float64Array, def: Float64Array) {
    const k1 = base.maxGoals + 1;
    this.tH = base.scenarioSides(att, def, base.tFix, true);
    this.tA = base.scenarioSides(att, def, base.tFix, false);
    const changed = (c: number) => att[c] !== base.att[c] || def[c] !== base.def[c];
    const x = Array.from(base.oFix).filter((f) => changed(base.fh[f]) || changed(base.fa[f]));
    this.xFix = Int32Array.from(x);
    this.xBaseH = flatten(x.map((f) => base.baseH[f]), k1);
    this.xBaseA = flattenAway(x.map((f) => base.baseA[f]), k1, base.baseLowOf(x));
    this.xH = base.scenarioSides(att, def, x, true);
    this.xA = base.scenarioSides(att, def, x, false);
  }

  /** Places on pairs [done, pairs) (the baseline holds them), appended to `ranks`. */
  advance(pairs: number): void {
    if (pairs <= this.done) return;
    const { base, tH, tA, xFix, xBaseH, xBaseA, xH, xA } = this;
    const { n, target, fh, fa, tFix, tHome, tAway, keys, tieZ, tU, rngAt, gsRange, W } = base;
    const nT = tFix.length, nX = xFix.length, F = fh.length;
    const ranks = new Uint8Array(pairs * 2);
    ranks.set(this.ranks.subarray(0, this.done * 2));
    const u = nX > 0 ? new Int32Array(F) : null;
    const work = new Int32Array(n);
    for (let p = this.done; p < pairs; p++) {
      if (u) {
        // the other changed fixtures' uniforms, drawn again from the pair's kept state
        let a = rngAt[p * 4], b = rngAt[p * 4 + 1], c = rngAt[p * 4 + 2], d = rngAt[p * 4 + 3];
        for (let f = 0; f < F; f++) {
          const z = (a + b + d) | 0;
          d = (d + 1) | 0; a = b ^ (b >>> 9); b = (c + (c << 3)) | 0; c = (c << 21) | (c >>> 11); c = (c + z) | 0;
          u[f] = z;
        }
      }
      for (let flip = 0; flip < 2; flip++) {
        const mask = flip ? 0xffff : 0;
        const kb = (p * 2 + flip) * n;
        for (let k = 0; k < n; k++) work[k] = keys[kb + k];
        for (let e = 0; e < nX; e++) {
          const z = u![xFix[e]];
          const uh = (z & 0xffff) ^ mask, ua = (z >>> 16) ^ mask;
          const h = fh[xFix[e]], w = fa[xFix[e]];
          const x0 = goalsOf(xBaseH, e, uh), y0 = awayOf(xBaseA, e, ua, x0);
          work[h] -= (3 * +(x0 > y0) + +(x0 === y0)) * W + (x0 - y0) * gsRange + x0;
          work[w] -= (3 * +(x0 < y0) + +(x0 === y0)) * W + (y0 - x0) * gsRange + y0;
          const x = goalsOf(xH, e, uh), y = awayOf(xA, e, ua, x);
          work[h] += (3 * +(x > y) + +(x === y)) * W + (x - y) * gsRange + x;
          work[w] += (3 * +(x < y) + +(x === y)) * W + (y - x) * gsRange + y;
        }
        for (let t = 0; t < nT; t++) {
          const z = tU[p * nT + t];
          const x = goalsOf(tH, t, (z & 0xffff) ^ mask), y = awayOf(tA, t, (z >>> 16) ^ mask, x);
          const h = tHome[t], w = tAway[t];
          work[h] += (3 * +(x > y) + +(x === y)) * W + (x - y) * gsRange + x;
          work[w] += (3 * +(x < y) + +(x === y)) * W + (y - x) * gsRange + y;
        }
        ranks[p * 2 + flip] = placeOf(work, tieZ, p * n, n, target, flip);
      }
    }
    this.ranks = ranks;
    this.done = pairs;
  }
}

/** Running sums of one scenario's places, as FusedEngine keeps them. */
class Tally {
  readonly rankCount: Float64Array;
  sumRank = 0;
  sumPair = 0;
  sumPair2 = 0;
  pairs = 0;

  constructor(n: number) {
    this.rankCount = new Float64Array(n);
  }

  add(ranks: Uint8Array, pairs: number): void {
    for (let p = this.pairs; p < pairs; p++) {
      const r0 = ranks[p * 2], r1 = ranks[p * 2 + 1];
      this.rankCount[r0 - 1]++;
      this.rankCount[r1 - 1]++;
      const m = (r0 + r1) / 2;
      this.sumRank += r0 + r1;
      this.sumPair += m;
      this.sumPair2 += m * m;
    }
    this.pairs = pairs;
  }

  standardError(): number {
    const P = this.pairs;
    if (P < 2) return Number.POSITIVE_INFINITY;
    const mean = this.sumPair / P;
    return Math.sqrt(Math.max(0, (this.sumPair2 - P * mean * mean) / (P - 1)) / P);
  }

  outcome(): ScenarioOutcome {
    const R = 2 * this.pairs;
    return { expectedPosition: this.sumRank / R, standardError: this.standardError(), positionProbabilities: Array.from(this.rankCount, (c) => c / R) };
  }
}

// Least recently used baselines leave first once their bytes pass BASELINE_BYTES (a baseline grows
// as runs are added: `account` sets it again so its size is counted anew).
const kept = new LRUCache<string, Baseline>({ maxSize: BASELINE_BYTES, sizeCalculation: (b) => Math.max(1, b.bytes) });

/** Every input of the baseline's draws, numbers in full (toString round-trips a double). */
function baselineKey(input: ScenarioLeagueInput, seed: number, maxGoals: number): string {
  const sc = input.scenarios[0];
  return `${seed}|${maxGoals}|${input.intercept}|${input.homeAdvantage}|${input.rho}|${input.ceiling?.level}|${input.ceiling?.sharpness}|${input.target}|${input.clubIds.join(',')}|${sc.attack.join(',')}|${sc.defence.join(',')}`;
}

function baselineOf(key: string, input: ScenarioLeagueInput, seed: number, maxGoals: number): Baseline {
  let b = kept.get(key);
  if (!b) kept.set(key, (b = new Baseline(input, seed, maxGoals)));
  return b;
}

/** Counts a baseline's growth: the cache drops the least recently used others past BASELINE_BYTES. */
function account(key: string, inUse: Baseline): void {
  kept.delete(key);
  kept.set(key, inUse);
}

/** Baselines kept on this thread, and their bytes (benches report them). */
export function keptBaselines(): { count: number; bytes: number } {
  return { count: kept.size, bytes: kept.calculatedSize };
}

/**
 * simulateScenarios on a kept baseline (scenario 0); the same answers as FusedEngine (see the header).
 * Settings are checked by the caller.
 */
export function simulateOnBaseline(input: ScenarioLeagueInput, settings: ScenarioSettings, maxGoals: number): ScenarioResult {
  checkLeague(input.clubIds, input.intercept, input.homeAdvantage, input.rho, input.scenarios, input.ceiling);
  const key = baselineKey(input, settings.seed, maxGoals);
  const base = baselineOf(key, input, settings.seed, maxGoals);
  const order = canonicalOrder(input.clubIds);
  const S = input.scenarios.length;
  // a scenario equal to the baseline reads its places; others replay
  const replays: (Replay | null)[] = input.scenarios.map((sc, s) => {
    if (s === 0) return null;
    const att = Float64Array.from(order, (i) => sc.attack[i]), def = Float64Array.from(order, (i) => sc.defence[i]);
    let same = true;
    for (let c = 0; c < base.n && same; c++) same = att[c] === base.att[c] && def[c] === base.def[c];
    return same ? null : new Replay(base, att, def);
  });
  const tallies = input.scenarios.map(() => new Tally(base.n));
  let pairs = 0;
  const run = (more: number) => {
    pairs += more;
    base.extend(pairs);
    account(key, base);
    for (let s = 0; s < S; s++) {
      const r = replays[s];
      if (r) r.advance(pairs);
      tallies[s].add(r ? r.ranks : base.baseRank, pairs);
    }
  };
  if (settings.runs !== undefined) run(Math.ceil(settings.runs / 2));
  else {
    // FusedEngine's rule, step for step (see simulateScenarios)
    const target = settings.targetStandardError ?? 0.05;
    const from = settings.runsFrom ?? 0;
    const maxPairs = Math.max(2, Math.floor((settings.maxRuns ?? 100_000) / 2));
    run(Math.min(maxPairs, Math.max(2, Math.floor((settings.pilotRuns ?? 512) / 2))));
    const need = (se: number) => roundUp(pairs * (se / target) ** 2 * 1.2);
    let next = Math.min(maxPairs, need(tallies[from].standardError()));
    if (next > pairs) run(next - pairs);
    for (let guard = 0; guard < 8 && pairs < maxPairs; guard++) {
      let worst = 0;
      for (let s = 0; s < S; s++) worst = Math.max(worst, tallies[s].standardError());
      if (worst <= target) break;
      next = Math.min(maxPairs, Math.max(pairs + BLOCK, need(worst)));
      run(next - pairs);
    }
  }
  return { seed: settings.seed, runs: 2 * pairs, clubs: base.n, outcomes: tallies.map((t) => t.outcome()) };
}
