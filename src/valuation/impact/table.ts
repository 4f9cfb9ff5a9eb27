/**
 * One league season for every club at once, on the draws of scenarios.ts (the match model's joint
 * score by inverse CDF, antithetic pairs, canonical club order), ranking the whole table in each run.
 */
import { sideRate, type GoalCeiling } from '../league/match.js';
import { awayGoalsGiven, BLOCK, canonicalOrder, checkLeague, drawSetup, fillFixture, goalsFor, LOW, LUT_SIZE, roundUp } from './poisson-draws.js';

// module-local copies of the imports the hot loop calls (an imported binding may be read through a
// getter on every access under the TypeScript loader: see baseline-runs.ts)
const scanGoals = goalsFor;
const awayGiven = awayGoalsGiven;

export interface TableLeagueInput {
  clubIds: readonly string[];
  intercept: number;
  /** the league's home advantage */
  homeAdvantage: number;
  /** the match model's low-score dependence (league/match.ts; 0: independent goals) */
  rho: number;
  /** where a side's expected goals bend (league/match.ts); absent or null: none */
  ceiling?: GoalCeiling | null;
  /** one strength per club, in the order of `clubIds` */
  attack: readonly number[];
  defence: readonly number[];
}

export interface TableSettings {
  seed: number;
  /** largest standard error of any club's expected position; default 0.05 */
  targetStandardError?: number;
  /** default 512 */
  pilotRuns?: number;
  /** default 100000 */
  maxRuns?: number;
  /** default 20 */
  maxGoals?: number;
  /** fixed run count (rounded up to whole antithetic pairs), for tests and benches */
  runs?: number;
}

export interface TableClubOutcome {
  id: string;
  expectedPosition: number;
  standardError: number;
  /** index 0 = first place */
  positionProbabilities: number[];
}

export interface TableResult {
  seed: number;
  runs: number;
  /** in the order of the input clubs */
  clubs: TableClubOutcome[];
}

/**
 * One league season for every club at once: the draws, goals and antithetic pairs of FusedEngine,
 * but the whole table is ranked in each run, so one simulation gives every club's place
 * distribution, and in each run the places are a permutation (expected positions average (n+1)/2).
 */
class TableEngine {
  private readonly n: number;
  private readonly k1: number;
  private readonly home: Int32Array;
  private readonly away: Int32Array;
  private readonly cdfH: Int32Array;
  private readonly cdfA: Int32Array;
  private readonly lutH: Int8Array;
  /** away sides' lookup tables, the band where the home goals matter marked undecided (markLowBand) */
  private readonly lutA: Int8Array;
  /** per fixture, the away side's law given the home goals (fillLowScores, LOW ints) */
  private readonly low: Int32Array;
  private readonly state: Int32Array;
  private readonly gsRange: number;
  private readonly gdRange: number;
  private readonly u: Int32Array;
  private readonly tie: Float64Array;
  private readonly pts: Int32Array;
  private readonly gf: Int32Array;
  private readonly ga: Int32Array;
  private readonly key: Float64Array;
  private readonly order: Int32Array;
  private readonly first: Int32Array;
  /** canonical index of each input club */
  readonly canon: number[];
  readonly rankCount: Float64Array;
  readonly sumRank: Float64Array;
  readonly sumPair2: Float64Array;
  pairs = 0;

  constructor(input: TableLeagueInput, seed: number, maxGoals: number) {
    const n = input.clubIds.length;
    checkLeague(input.clubIds, input.intercept, input.homeAdvantage, input.rho, [input], input.ceiling);
    const order = canonicalOrder(input.clubIds);
    this.canon = new Array<number>(n);
    order.forEach((i, c) => (this.canon[i] = c));
    const att = order.map((i) => input.attack[i]);
    const def = order.map((i) => input.defence[i]);
    this.n = n;
    this.k1 = maxGoals + 1;
    const fixtures = n * (n - 1);
    this.home = new Int32Array(fixtures);
    this.away = new Int32Array(fixtures);
    this.cdfH = new Int32Array(fixtures * this.k1);
    this.cdfA = new Int32Array(fixtures * this.k1);
    this.lutH = new Int8Array(fixtures * LUT_SIZE);
    this.lutA = new Int8Array(fixtures * LUT_SIZE);
    this.low = new Int32Array(fixtures * LOW);
    const mu = input.intercept, ha = input.homeAdvantage, rho = input.rho, ceiling = input.ceiling;
    const tables = { cdfH: this.cdfH, cdfA: this.cdfA, lutH: this.lutH, lutA: this.lutA, low: this.low };
    let f = 0;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        if (i === j) continue;
        this.home[f] = i;
        this.away[f] = j;
        fillFixture(tables, f, this.k1, sideRate(mu + ha + att[i] - def[j], ceiling), sideRate(mu + att[j] - def[i], ceiling), rho, maxGoals);
        f++;
      }
    }
    ({ state: this.state, gsRange: this.gsRange, gdRange: this.gdRange } = drawSetup(seed, n, maxGoals));
    this.u = new Int32Array(fixtures);
    this.tie = new Float64Array(n);
    this.pts = new Int32Array(n);
    this.gf = new Int32Array(n);
    this.ga = new Int32Array(n);
    this.key = new Float64Array(n);
    this.order = new Int32Array(n);
    this.first = new Int32Array(n);
    this.rankCount = new Float64Array(n * n);
    this.sumRank = new Float64Array(n);
    this.sumPair2 = new Float64Array(n);
  }

  run(pairs: number): void {
    const { n, k1, home, away, cdfH, cdfA, lutH, lutA, low, state, u, tie, pts, gf, ga, key, order, first, rankCount, sumRank, sumPair2 } = this;
    const fixtures = u.length, lowInts = LOW, lutSize = LUT_SIZE;
    const gsRange = this.gsRange, gdOffset = this.gsRange - 1, gdRange = this.gdRange;
    let a = state[0], b = state[1], c = state[2], d = state[3];
    for (let r = 0; r < pairs; r++) {
      for (let f = 0; f < fixtures; f++) {
        const z = (a + b + d) | 0;
        d = (d + 1) | 0; a = b ^ (b >>> 9); b = (c + (c << 3)) | 0; c = (c << 21) | (c >>> 11); c = (c + z) | 0;
        u[f] = z;
      }
      for (let k = 0; k < n; k++) {
        const z = (a + b + d) | 0;
        d = (d + 1) | 0; a = b ^ (b >>> 9); b = (c + (c << 3)) | 0; c = (c << 21) | (c >>> 11); c = (c + z) | 0;
        tie[k] = (z >>> 0) / 4294967296;
      }
      for (let flip = 0; flip < 2; flip++) {
        const mask = flip ? 0xffff : 0;
        pts.fill(0);
        gf.fill(0);
        ga.fill(0);
        for (let f = 0, base = 0, lb = 0; f < fixtures; f++, base += k1, lb += lutSize) {
          const z = u[f];
          const uh = (z & 0xffff) ^ mask, ua = (z >>> 16) ^ mask;
          let x = lutH[lb + (uh >>> 8)], y = lutA[lb + (ua >>> 8)];
          if (x < 0) x = scanGoals(cdfH, base, uh);
          // an undecided away bucket: the Poisson goals, then given the home goals (poisson-draws.ts)
          if (y < 0) y = awayGiven(x, scanGoals(cdfA, base, ua), ua, low, f * lowInts);
          const h = home[f], w = away[f];
          gf[h] += x; ga[h] += y;
          gf[w] += y; ga[w] += x;
          const draw = +(x === y);
          pts[h] += 3 * +(x > y) + draw;
          pts[w] += 3 * +(x < y) + draw;
        }
        for (let k = 0; k < n; k++) {
          key[k] = (pts[k] * gdRange + (gf[k] - ga[k] + gdOffset)) * gsRange + gf[k] + (flip ? 1 - tie[k] : tie[k]);
          // insertion sort, best first
          let p = k;
          while (p > 0 && key[order[p - 1]] < key[k]) { order[p] = order[p - 1]; p--; }
          order[p] = k;
        }
        for (let place = 0; place < n; place++) {
          const k = order[place];
          rankCount[k * n + place]++;
          sumRank[k] += place + 1;
          if (flip) {
            const m = (first[k] + place + 1) / 2;
            sumPair2[k] += m * m;
          } else first[k] = place + 1;
        }
      }
    }
    state[0] = a; state[1] = b; state[2] = c; state[3] = d;
    this.pairs += pairs;
  }

  /** Standard error of club k's expected position over the independent pairs. */
  standardError(k: number): number {
    const P = this.pairs;
    if (P < 2) return Number.POSITIVE_INFINITY;
    const mean = this.sumRank[k] / (2 * P);
    return Math.sqrt(Math.max(0, (this.sumPair2[k] - P * mean * mean) / (P - 1)) / P);
  }

  maxStandardError(): number {
    let m = 0;
    for (let k = 0; k < this.n; k++) m = Math.max(m, this.standardError(k));
    return m;
  }

  result(input: TableLeagueInput, seed: number): TableResult {
    const R = 2 * this.pairs, n = this.n;
    const clubs = input.clubIds.map((id, i): TableClubOutcome => {
      const k = this.canon[i];
      const probs: number[] = [];
      for (let p = 0; p < n; p++) probs.push(this.rankCount[k * n + p] / R);
      return { id, expectedPosition: this.sumRank[k] / R, standardError: this.standardError(k), positionProbabilities: probs };
    });
    return { seed, runs: R, clubs };
  }
}

/**
 * Simulates the whole table; runs: a pilot, then enough pairs for the club with the largest
 * standard error to reach the target (20% margin, whole blocks), checked again until it does.
 * The count depends only on the strengths and the seed, so the same inputs give the same table.
 */
export function simulateTable(input: TableLeagueInput, settings: TableSettings): TableResult {
  if (!Number.isInteger(settings.seed)) throw new Error('seed must be an integer');
  const maxGoals = settings.maxGoals ?? 20;
  if (!(Number.isInteger(maxGoals) && maxGoals >= 4)) throw new Error('maxGoals must be an integer >= 4');
  const engine = new TableEngine(input, settings.seed, maxGoals);
  if (settings.runs !== undefined) {
    if (!Number.isInteger(settings.runs) || settings.runs < 4) throw new Error('runs must be an integer >= 4');
    engine.run(Math.ceil(settings.runs / 2));
  } else {
    const target = settings.targetStandardError ?? 0.05;
    if (!(target > 0)) throw new Error('targetStandardError must be > 0');
    const maxPairs = Math.max(2, Math.floor((settings.maxRuns ?? 100_000) / 2));
    engine.run(Math.min(maxPairs, Math.max(2, Math.floor((settings.pilotRuns ?? 512) / 2))));
    for (let guard = 0; guard < 8 && engine.pairs < maxPairs; guard++) {
      const worst = engine.maxStandardError();
      if (worst <= target) break;
      const next = Math.min(maxPairs, Math.max(engine.pairs + BLOCK, roundUp(engine.pairs * (worst / target) ** 2 * 1.2)));
      engine.run(next - engine.pairs);
    }
  }
  return engine.result(input, settings.seed);
}
