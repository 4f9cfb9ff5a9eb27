/**
 * The reference league simulation the service's engine (valuation/impact/scenarios.ts, table.ts) is
 * checked against: plain and slow, one run at a time.
 *
 * Monte Carlo league seasons: a double round-robin where home goals ~ Poisson(exp(intercept +
 * homeAdvantage + attack[home] - defence[away])) and away goals ~ Poisson(exp(intercept +
 * attack[away] - defence[home])); 3/1/0 points; ties broken by goal difference, goals scored,
 * then a seeded random draw. With `rho` (the match model's low-score dependence, league/match.ts)
 * each fixture's score is drawn at once, by inverse CDF of one uniform over the joint score grid
 * (scoreGrid, in row order): another route to the same distribution than the engine's home goals
 * then away goals given them, so the two check each other.
 *
 * Common random numbers: clubs are put in id order, fixtures in (home, away) id order, and each
 * run draws, from one seeded stream, one uniform per (fixture, side) and one tie-break uniform per
 * club, whatever the strengths. Goals are the Poisson inverse CDF of that uniform, which is
 * monotone in the rate. So with the same seed, raising one club's attack or defence can only add
 * to its goals or remove its opponents' goals in every single run, and its rank in each run can
 * only improve: paired with/without comparisons carry no Monte Carlo noise in sign.
 */
import type { StrengthArtifact } from '../../src/valuation/league/strength.js';
import { scoreGrid, sideRate, type GoalCeiling } from '../../src/valuation/league/match.js';
import { seededGenerator } from '../../src/domain/random.js';

export interface LeagueClub {
  id: string;
  attack: number;
  defence: number;
}

export interface LeagueInput {
  clubs: LeagueClub[];
  intercept: number;
  homeAdvantage: number;
  /** low-score dependence; default 0 (independent goals, one uniform a side) */
  rho?: number;
  /** where a side's expected goals bend (league/match.ts); default none */
  ceiling?: GoalCeiling | null;
}

export interface SimulationSettings {
  seed: number;
  /** fixed number of runs; when omitted, runs are chosen so every expected position has a standard error <= targetStandardError */
  runs?: number;
  /** default 0.05 */
  targetStandardError?: number;
  /** cap for the adaptive choice; default 200000 */
  maxRuns?: number;
  /** goals per side are capped here (the tail mass is put on the cap); default 20, at least 4 */
  maxGoals?: number;
}

export interface ClubOutcome {
  id: string;
  /** mean rank, 1 is best */
  expectedPosition: number;
  /** standard error of expectedPosition: sd(rank) / sqrt(runs) */
  positionStandardError: number;
  /** probability of finishing in place 1..n (index 0 is first place) */
  positionProbabilities: number[];
  expectedPoints: number;
  expectedGoalDifference: number;
}

export interface LeagueSimulation {
  seed: number;
  runs: number;
  maxStandardError: number;
  /** in the order of the input clubs */
  clubs: ClubOutcome[];
}

const INV_2_32 = 1 / 4294967296;

/** One league, one random stream, running totals; runs can be added in batches. */
class Engine {
  readonly n: number;
  readonly fixtures: number;
  readonly k1: number;
  private readonly order: number[];
  private readonly homeIdx: Int32Array;
  private readonly awayIdx: Int32Array;
  private readonly cdfHome: Float64Array;
  private readonly cdfAway: Float64Array;
  /** with rho: the joint score's CDF per fixture, (maxGoals + 1)^2 cells in row order (home goals by row) */
  private readonly cdfJoint: Float64Array | null;
  private readonly rng;
  private readonly gsRange: number;
  private readonly gdRange: number;
  // per-run scratch
  private readonly pts: Int32Array;
  private readonly gf: Int32Array;
  private readonly ga: Int32Array;
  private readonly key: Float64Array;
  private readonly rankOrder: Int32Array;
  // totals over runs (canonical club index)
  readonly rankCount: Float64Array;
  readonly sumRank: Float64Array;
  readonly sumRank2: Float64Array;
  readonly sumPts: Float64Array;
  readonly sumGd: Float64Array;
  runs = 0;

  constructor(input: LeagueInput, seed: number, maxGoals: number) {
    const n = input.clubs.length;
    if (n < 2) throw new Error('a league needs at least two clubs');
    const ids = input.clubs.map((c) => c.id);
    if (new Set(ids).size !== n) throw new Error('club ids must be unique');
    for (const c of input.clubs) {
      if (!Number.isFinite(c.attack) || !Number.isFinite(c.defence)) throw new Error(`strength of ${c.id} is not finite`);
    }
    if (!Number.isFinite(input.intercept) || !Number.isFinite(input.homeAdvantage)) throw new Error('intercept and homeAdvantage must be finite');
    const canon = [...input.clubs].sort((a, b) => (a.id < b.id ? -1 : 1));
    this.order = input.clubs.map((c) => canon.indexOf(c));
    this.n = n;
    this.fixtures = n * (n - 1);
    this.k1 = maxGoals + 1;
    this.homeIdx = new Int32Array(this.fixtures);
    this.awayIdx = new Int32Array(this.fixtures);
    this.cdfHome = new Float64Array(this.fixtures * this.k1);
    this.cdfAway = new Float64Array(this.fixtures * this.k1);
    const rho = input.rho ?? 0;
    this.cdfJoint = rho !== 0 ? new Float64Array(this.fixtures * this.k1 * this.k1) : null;
    let f = 0;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        if (i === j) continue;
        this.homeIdx[f] = i;
        this.awayIdx[f] = j;
        const lh = sideRate(input.intercept + input.homeAdvantage + canon[i].attack - canon[j].defence, input.ceiling);
        const la = sideRate(input.intercept + canon[j].attack - canon[i].defence, input.ceiling);
        fillCdf(this.cdfHome, f * this.k1, lh, maxGoals);
        fillCdf(this.cdfAway, f * this.k1, la, maxGoals);
        if (this.cdfJoint) {
          const grid = scoreGrid({ home: lh, away: la, rho }, maxGoals);
          let acc = 0;
          for (let c = 0; c < grid.length; c++) this.cdfJoint[f * grid.length + c] = acc += grid[c];
          this.cdfJoint[(f + 1) * grid.length - 1] = 1;
        }
        f++;
      }
    }
    this.gsRange = 2 * (n - 1) * maxGoals + 1;
    this.gdRange = 2 * this.gsRange - 1;
    this.rng = seededGenerator(seed);
    this.pts = new Int32Array(n);
    this.gf = new Int32Array(n);
    this.ga = new Int32Array(n);
    this.key = new Float64Array(n);
    this.rankOrder = new Int32Array(n);
    this.rankCount = new Float64Array(n * n);
    this.sumRank = new Float64Array(n);
    this.sumRank2 = new Float64Array(n);
    this.sumPts = new Float64Array(n);
    this.sumGd = new Float64Array(n);
  }

  run(count: number): void {
    const { n, fixtures, k1, homeIdx, awayIdx, cdfHome, cdfAway, cdfJoint, rng, pts, gf, ga, key, rankOrder } = this;
    const { rankCount, sumRank, sumRank2, sumPts, sumGd } = this;
    const gsRange = this.gsRange, gdOffset = this.gsRange - 1, gdRange = this.gdRange;
    for (let r = 0; r < count; r++) {
      pts.fill(0);
      gf.fill(0);
      ga.fill(0);
      for (let f = 0, base = 0; f < fixtures; f++, base += k1) {
        const uh = (rng.next() >>> 0) * INV_2_32;
        const ua = (rng.next() >>> 0) * INV_2_32;
        // branch-free for the first goals (outcomes are unpredictable, mispredictions dominate)
        let x = +(uh >= cdfHome[base]) + +(uh >= cdfHome[base + 1]) + +(uh >= cdfHome[base + 2]) + +(uh >= cdfHome[base + 3]);
        if (x === 4) while (uh >= cdfHome[base + x]) x++;
        let y = +(ua >= cdfAway[base]) + +(ua >= cdfAway[base + 1]) + +(ua >= cdfAway[base + 2]) + +(ua >= cdfAway[base + 3]);
        if (y === 4) while (ua >= cdfAway[base + y]) y++;
        if (cdfJoint) {
          // the whole score from the first uniform (the second is drawn all the same: one stream layout)
          const cells = k1 * k1, j0 = f * cells;
          let c = 0;
          while (c < cells - 1 && uh >= cdfJoint[j0 + c]) c++;
          x = Math.floor(c / k1);
          y = c % k1;
        }
        const h = homeIdx[f], a = awayIdx[f];
        gf[h] += x; ga[h] += y;
        gf[a] += y; ga[a] += x;
        const draw = +(x === y);
        pts[h] += 3 * +(x > y) + draw;
        pts[a] += 3 * +(x < y) + draw;
      }
      for (let c = 0; c < n; c++) {
        // points, then goal difference, then goals scored, then the random draw (the fraction)
        key[c] = (pts[c] * gdRange + (gf[c] - ga[c] + gdOffset)) * gsRange + gf[c] + (rng.next() >>> 0) * INV_2_32;
        // insertion sort, best first
        let p = c;
        while (p > 0 && key[rankOrder[p - 1]] < key[c]) { rankOrder[p] = rankOrder[p - 1]; p--; }
        rankOrder[p] = c;
      }
      for (let place = 0; place < n; place++) {
        const c = rankOrder[place];
        rankCount[c * n + place]++;
        const rank = place + 1;
        sumRank[c] += rank;
        sumRank2[c] += rank * rank;
        sumPts[c] += pts[c];
        sumGd[c] += gf[c] - ga[c];
      }
    }
    this.runs += count;
  }

  standardError(c: number): number {
    const R = this.runs;
    if (R < 2) return Number.POSITIVE_INFINITY;
    const mean = this.sumRank[c] / R;
    const variance = Math.max(0, (this.sumRank2[c] - R * mean * mean) / (R - 1));
    return Math.sqrt(variance / R);
  }

  maxStandardError(): number {
    let m = 0;
    for (let c = 0; c < this.n; c++) m = Math.max(m, this.standardError(c));
    return m;
  }

  result(input: LeagueInput, seed: number): LeagueSimulation {
    const R = this.runs, n = this.n;
    const clubs = input.clubs.map((club, i): ClubOutcome => {
      const c = this.order[i];
      const probs: number[] = [];
      for (let place = 0; place < n; place++) probs.push(this.rankCount[c * n + place] / R);
      return {
        id: club.id,
        expectedPosition: this.sumRank[c] / R,
        positionStandardError: this.standardError(c),
        positionProbabilities: probs,
        expectedPoints: this.sumPts[c] / R,
        expectedGoalDifference: this.sumGd[c] / R,
      };
    });
    return { seed, runs: R, maxStandardError: this.maxStandardError(), clubs };
  }
}

/** Poisson CDF for 0..maxGoals at `base`; the last entry is 1, so the tail lands on maxGoals. */
function fillCdf(out: Float64Array, base: number, lambda: number, maxGoals: number): void {
  let p = Math.exp(-lambda);
  let acc = p;
  out[base] = acc;
  for (let k = 1; k < maxGoals; k++) {
    p = (p * lambda) / k;
    acc += p;
    out[base + k] = acc;
  }
  out[base + maxGoals] = 1;
}

/** Runs for the target when nothing is known yet: sd of a rank uniform on 1..n, (sd / target)^2. */
export function initialRuns(clubs: number, targetStandardError: number): number {
  const sd = Math.sqrt((clubs * clubs - 1) / 12);
  return Math.max(100, Math.ceil((sd / targetStandardError) ** 2));
}

function resolve(settings: SimulationSettings) {
  if (!Number.isInteger(settings.seed)) throw new Error('seed must be an integer');
  // the inner loop reads the first four CDF entries unconditionally
  if (settings.maxGoals !== undefined && !(Number.isInteger(settings.maxGoals) && settings.maxGoals >= 4)) {
    throw new Error('maxGoals must be an integer >= 4');
  }
  return {
    seed: settings.seed,
    runs: settings.runs,
    target: settings.targetStandardError ?? 0.05,
    maxRuns: settings.maxRuns ?? 200_000,
    maxGoals: settings.maxGoals ?? 20,
  };
}

/**
 * Runs all engines in lockstep: a fixed count, or adaptively until every engine's largest
 * standard error of an expected position is within the target. The adaptive path starts with a
 * pilot of 1/8 of the worst-case count (rank uniform on 1..n), then scales the runs by the
 * measured (SE / target)^2 with a 10% margin, and repeats the check. All engines get the same
 * count, so with/without pairs stay paired.
 */
function runTogether(engines: Engine[], s: ReturnType<typeof resolve>): void {
  if (s.runs !== undefined) {
    if (!Number.isInteger(s.runs) || s.runs < 2) throw new Error('runs must be an integer >= 2');
    for (const e of engines) e.run(s.runs);
    return;
  }
  let next = Math.min(s.maxRuns, Math.max(500, Math.ceil(initialRuns(engines[0].n, s.target) / 8)));
  while (next > 0) {
    for (const e of engines) e.run(next);
    const worst = Math.max(...engines.map((e) => e.maxStandardError()));
    const done = engines[0].runs;
    if (worst <= s.target || done >= s.maxRuns) break;
    // SE falls as 1/sqrt(runs)
    next = Math.min(s.maxRuns - done, Math.ceil(done * ((worst / s.target) ** 2 * 1.1 - 1)) + 1);
  }
}

export function simulateLeague(input: LeagueInput, settings: SimulationSettings): LeagueSimulation {
  const s = resolve(settings);
  const engine = new Engine(input, s.seed, s.maxGoals);
  runTogether([engine], s);
  return engine.result(input, s.seed);
}

/**
 * The same league with two sets of strengths (e.g. without and with a signing), on the same
 * random numbers and the same number of runs. Both inputs must hold the same club ids.
 */
export function simulateWithAndWithout(
  base: LeagueInput,
  changed: LeagueInput,
  settings: SimulationSettings,
): { base: LeagueSimulation; changed: LeagueSimulation } {
  const a = [...base.clubs.map((c) => c.id)].sort().join('\u0000');
  const b = [...changed.clubs.map((c) => c.id)].sort().join('\u0000');
  if (a !== b) throw new Error('base and changed must hold the same clubs');
  const s = resolve(settings);
  const e1 = new Engine(base, s.seed, s.maxGoals);
  const e2 = new Engine(changed, s.seed, s.maxGoals);
  runTogether([e1, e2], s);
  return { base: e1.result(base, s.seed), changed: e2.result(changed, s.seed) };
}

/** League input from a strength artifact; `overrides` replace single clubs (what-if squads). */
export function leagueInputFromStrength(
  artifact: StrengthArtifact,
  clubIds: readonly string[],
  overrides: Record<string, { attack: number; defence: number }> = {},
): LeagueInput {
  return {
    intercept: artifact.intercept,
    homeAdvantage: artifact.homeAdvantage,
    clubs: clubIds.map((id) => {
      const o = overrides[id] ?? artifact.clubs[id] ?? { attack: 0, defence: 0 };
      return { id, attack: o.attack, defence: o.defence };
    }),
  };
}
