/**
 * Fused Monte Carlo for what-if questions about one club: the same league simulated under
 * several scenarios that differ only in the strengths of a few clubs, tracking one club's rank.
 *
 * The model is the match model of league/match.ts (double round robin, the joint score by inverse
 * CDF of one uniform per fixture side (16-bit halves of one 32-bit draw; poisson-draws.ts), 3/1/0 points, then goal difference, goals scored and a random
 * draw). What is fused: each run draws every uniform once; fixtures between clubs whose strength
 * is the same in every scenario are played once and shared; only the fixtures of the changed
 * clubs are replayed per scenario on the same uniforms (common random numbers). Because goals are
 * monotone in the rate, a scenario where the tracked club is stronger (and its rivals no stronger)
 * ranks it no worse in every single run. Only the tracked club's rank is needed, so a run counts
 * the clubs ahead of it instead of sorting the table.
 *
 * Variance: runs come in antithetic pairs (the twin of a run uses 1 - u for every uniform u, so a
 * lucky season is paired with an unlucky one); goals and ranks are monotone in the uniforms, which
 * makes the twins negatively correlated and the pair mean less variable. Standard errors are
 * computed over pairs, which are independent.
 *
 * Runs: a pilot, then enough pairs for the scenario `runsFrom` (the baseline) to reach the target
 * standard error with a 20% margin, rounded up to a block; then every scenario is checked and
 * runs are added only if one is still above the target. Deriving the count from the baseline
 * keeps every request about the same club and season on the same random numbers and run count.
 */
import { sideRate } from '../league/match.js';
import { simulateOnBaseline } from './baseline-runs.js';
import { awayGoalsGiven, BLOCK, canonicalOrder, checkLeague, drawSetup, fillFixture, goalsFor, LOW, LUT_SIZE, roundUp } from './poisson-draws.js';
import type { ScenarioLeagueInput, ScenarioOutcome, ScenarioResult, ScenarioSettings } from './scenario-types.js';

export type { ScenarioLeagueInput, ScenarioOutcome, ScenarioResult, ScenarioSettings, ScenarioStrengths } from './scenario-types.js';

class FusedEngine {
  private readonly n: number;
  private readonly S: number;
  private readonly k1: number;
  private readonly target: number;
  // shared fixtures (no changed club)
  private readonly sharedHome: Int32Array;
  private readonly sharedAway: Int32Array;
  private readonly sharedCdfH: Int32Array;
  private readonly sharedCdfA: Int32Array;
  private readonly sharedLutH: Int8Array;
  private readonly sharedLutA: Int8Array;
  /** per shared fixture, the away side's thresholds given 0 and 1 home goals */
  private readonly sharedLow: Int32Array;
  /** position of each fixture in draw order: >= 0 shared index, < 0 -(changed index + 1) */
  private readonly drawSlot: Int32Array;
  private readonly changedHome: Int32Array;
  private readonly changedAway: Int32Array;
  /** per scenario, per changed fixture */
  private readonly changedCdfH: Int32Array;
  private readonly changedCdfA: Int32Array;
  private readonly changedLutH: Int8Array;
  private readonly changedLutA: Int8Array;
  private readonly changedLow: Int32Array;
  /** sfc32 state (drawSetup) */
  private readonly state: Int32Array;
  private readonly gsRange: number;
  private readonly gdRange: number;
  private readonly sharedU: Int32Array;
  private readonly changedU: Int32Array;
  private readonly rank: Int32Array;
  private readonly basePts: Int32Array;
  private readonly baseGf: Int32Array;
  private readonly baseGa: Int32Array;
  private readonly pts: Int32Array;
  private readonly gf: Int32Array;
  private readonly ga: Int32Array;
  private readonly tie: Float64Array;
  readonly rankCount: Float64Array;
  readonly sumRank: Float64Array;
  readonly sumPair: Float64Array;
  readonly sumPair2: Float64Array;
  pairs = 0;

  constructor(input: ScenarioLeagueInput, seed: number, maxGoals: number) {
    const n = input.clubIds.length;
    const S = input.scenarios.length;
    if (S < 1) throw new Error('at least one scenario');
    checkLeague(input.clubIds, input.intercept, input.homeAdvantage, input.rho, input.scenarios, input.ceiling);
    const order = canonicalOrder(input.clubIds);
    const target = order.findIndex((i) => input.clubIds[i] === input.target);
    if (target < 0) throw new Error(`target ${input.target} is not in the league`);
    const att = input.scenarios.map((sc) => order.map((i) => sc.attack[i]));
    const def = input.scenarios.map((sc) => order.map((i) => sc.defence[i]));
    const changed = new Uint8Array(n);
    for (let c = 0; c < n; c++) {
      for (let s = 1; s < S; s++) if (att[s][c] !== att[0][c] || def[s][c] !== def[0][c]) changed[c] = 1;
    }
    changed[target] = 1; // the tracked club's fixtures are per scenario anyway (cheap, and keeps the code uniform)

    this.n = n;
    this.S = S;
    this.k1 = maxGoals + 1;
    this.target = target;
    const fixtures = n * (n - 1);
    let nChanged = 0;
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i !== j && (changed[i] || changed[j])) nChanged++;
    const nShared = fixtures - nChanged;
    this.sharedHome = new Int32Array(nShared);
    this.sharedAway = new Int32Array(nShared);
    this.sharedCdfH = new Int32Array(nShared * this.k1);
    this.sharedCdfA = new Int32Array(nShared * this.k1);
    this.changedHome = new Int32Array(nChanged);
    this.changedAway = new Int32Array(nChanged);
    this.changedCdfH = new Int32Array(S * nChanged * this.k1);
    this.changedCdfA = new Int32Array(S * nChanged * this.k1);
    this.sharedLutH = new Int8Array(nShared * LUT_SIZE);
    this.sharedLutA = new Int8Array(nShared * LUT_SIZE);
    this.changedLutH = new Int8Array(S * nChanged * LUT_SIZE);
    this.changedLutA = new Int8Array(S * nChanged * LUT_SIZE);
    this.sharedLow = new Int32Array(nShared * LOW);
    this.changedLow = new Int32Array(S * nChanged * LOW);
    this.drawSlot = new Int32Array(fixtures);
    const mu = input.intercept, home = input.homeAdvantage, rho = input.rho, ceiling = input.ceiling;
    const sharedTables = { cdfH: this.sharedCdfH, cdfA: this.sharedCdfA, lutH: this.sharedLutH, lutA: this.sharedLutA, low: this.sharedLow };
    const changedTables = { cdfH: this.changedCdfH, cdfA: this.changedCdfA, lutH: this.changedLutH, lutA: this.changedLutA, low: this.changedLow };
    let f = 0, sh = 0, ch = 0;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        if (i === j) continue;
        if (changed[i] || changed[j]) {
          this.changedHome[ch] = i;
          this.changedAway[ch] = j;
          for (let s = 0; s < S; s++) {
            fillFixture(changedTables, s * nChanged + ch, this.k1, sideRate(mu + home + att[s][i] - def[s][j], ceiling), sideRate(mu + att[s][j] - def[s][i], ceiling), rho, maxGoals);
          }
          this.drawSlot[f] = -(ch + 1);
          ch++;
        } else {
          this.sharedHome[sh] = i;
          this.sharedAway[sh] = j;
          fillFixture(sharedTables, sh, this.k1, sideRate(mu + home + att[0][i] - def[0][j], ceiling), sideRate(mu + att[0][j] - def[0][i], ceiling), rho, maxGoals);
          this.drawSlot[f] = sh;
          sh++;
        }
        f++;
      }
    }
    ({ state: this.state, gsRange: this.gsRange, gdRange: this.gdRange } = drawSetup(seed, n, maxGoals));
    this.sharedU = new Int32Array(nShared);
    this.changedU = new Int32Array(nChanged);
    this.rank = new Int32Array(S);
    this.basePts = new Int32Array(n);
    this.baseGf = new Int32Array(n);
    this.baseGa = new Int32Array(n);
    this.pts = new Int32Array(n);
    this.gf = new Int32Array(n);
    this.ga = new Int32Array(n);
    this.tie = new Float64Array(n);
    this.rankCount = new Float64Array(S * n);
    this.sumRank = new Float64Array(S);
    this.sumPair = new Float64Array(S);
    this.sumPair2 = new Float64Array(S);
  }

  /** Plays `pairs` antithetic pairs of runs (2 runs each). */
  run(pairs: number): void {
    const { n, S, k1, target, state, drawSlot, sharedHome, sharedAway, sharedCdfH, sharedCdfA, sharedLutH, sharedLutA, sharedU } = this;
    const { changedLutH, changedLutA, sharedLow, changedLow } = this;
    const { changedHome, changedAway, changedCdfH, changedCdfA, changedU, basePts, baseGf, baseGa, pts, gf, ga, tie, rank } = this;
    const nChanged = changedHome.length, nShared = sharedHome.length;
    const fixtures = drawSlot.length, lowInts = LOW;
    const gsRange = this.gsRange, gdOffset = this.gsRange - 1, gdRange = this.gdRange;
    let a = state[0], b = state[1], c = state[2], d = state[3];
    for (let r = 0; r < pairs; r++) {
      // one 32-bit draw per fixture (16 bits a side) in full fixture order, then one per club for ties
      for (let f = 0; f < fixtures; f++) {
        const z = (a + b + d) | 0;
        d = (d + 1) | 0; a = b ^ (b >>> 9); b = (c + (c << 3)) | 0; c = (c << 21) | (c >>> 11); c = (c + z) | 0;
        const slot = drawSlot[f];
        if (slot < 0) changedU[-slot - 1] = z;
        else sharedU[slot] = z;
      }
      for (let k = 0; k < n; k++) {
        const z = (a + b + d) | 0;
        d = (d + 1) | 0; a = b ^ (b >>> 9); b = (c + (c << 3)) | 0; c = (c << 21) | (c >>> 11); c = (c + z) | 0;
        tie[k] = (z >>> 0) / 4294967296;
      }
      // the run and its antithetic twin (every uniform u replaced by 1 - u)
      for (let flip = 0; flip < 2; flip++) {
        const mask = flip ? 0xffff : 0;
        basePts.fill(0);
        baseGf.fill(0);
        baseGa.fill(0);
        for (let sh = 0, base = 0, lb = 0; sh < nShared; sh++, base += k1, lb += LUT_SIZE) {
          const z = sharedU[sh];
          const uh = (z & 0xffff) ^ mask, ua = (z >>> 16) ^ mask;
          let x = sharedLutH[lb + (uh >>> 8)], y = sharedLutA[lb + (ua >>> 8)];
          if (x < 0) x = goalsFor(sharedCdfH, base, uh);
          // an undecided away bucket: the Poisson goals, then given the home goals (poisson-draws.ts)
          if (y < 0) y = awayGoalsGiven(x, goalsFor(sharedCdfA, base, ua), ua, sharedLow, sh * lowInts);
          const h = sharedHome[sh], w = sharedAway[sh];
          baseGf[h] += x; baseGa[h] += y;
          baseGf[w] += y; baseGa[w] += x;
          const draw = +(x === y);
          basePts[h] += 3 * +(x > y) + draw;
          basePts[w] += 3 * +(x < y) + draw;
        }
        for (let s = 0; s < S; s++) {
          pts.set(basePts);
          gf.set(baseGf);
          ga.set(baseGa);
          for (let k = 0, base = s * nChanged * k1, lb = s * nChanged * LUT_SIZE, lo = s * nChanged * lowInts; k < nChanged; k++, base += k1, lb += LUT_SIZE, lo += lowInts) {
            const z = changedU[k];
            const uh = (z & 0xffff) ^ mask, ua = (z >>> 16) ^ mask;
            let x = changedLutH[lb + (uh >>> 8)], y = changedLutA[lb + (ua >>> 8)];
            if (x < 0) x = goalsFor(changedCdfH, base, uh);
            if (y < 0) y = awayGoalsGiven(x, goalsFor(changedCdfA, base, ua), ua, changedLow, lo);
            const h = changedHome[k], w = changedAway[k];
            gf[h] += x; ga[h] += y;
            gf[w] += y; ga[w] += x;
            const draw = +(x === y);
            pts[h] += 3 * +(x > y) + draw;
            pts[w] += 3 * +(x < y) + draw;
          }
          const tt = flip ? 1 - tie[target] : tie[target];
          const keyT = (pts[target] * gdRange + (gf[target] - ga[target] + gdOffset)) * gsRange + gf[target] + tt;
          let place = 1;
          for (let k = 0; k < n; k++) {
            if (k === target) continue;
            const tk = flip ? 1 - tie[k] : tie[k];
            if ((pts[k] * gdRange + (gf[k] - ga[k] + gdOffset)) * gsRange + gf[k] + tk > keyT) place++;
          }
          this.rankCount[s * n + place - 1]++;
          if (flip) {
            const m = (rank[s] + place) / 2;
            this.sumRank[s] += rank[s] + place;
            this.sumPair[s] += m;
            this.sumPair2[s] += m * m;
          } else rank[s] = place;
        }
      }
    }
    state[0] = a; state[1] = b; state[2] = c; state[3] = d;
    this.pairs += pairs;
  }

  get runs(): number {
    return 2 * this.pairs;
  }

  /** Standard error of the expected position: the pairs are independent, the runs within a pair are not. */
  standardError(s: number): number {
    const P = this.pairs;
    if (P < 2) return Number.POSITIVE_INFINITY;
    const mean = this.sumPair[s] / P;
    return Math.sqrt(Math.max(0, (this.sumPair2[s] - P * mean * mean) / (P - 1)) / P);
  }

  outcome(s: number): ScenarioOutcome {
    const R = this.runs, n = this.n;
    const probs: number[] = [];
    for (let p = 0; p < n; p++) probs.push(this.rankCount[s * n + p] / R);
    return { expectedPosition: this.sumRank[s] / R, standardError: this.standardError(s), positionProbabilities: probs };
  }

  get scenarios(): number {
    return this.S;
  }
}

/**
 * Runs the scenarios on common random numbers; see the header for how the run count is chosen. The
 * runs are played on a kept baseline (baseline-runs.ts): only what scenario 0 does not already hold.
 */
export function simulateScenarios(input: ScenarioLeagueInput, settings: ScenarioSettings): ScenarioResult {
  if (!Number.isInteger(settings.seed)) throw new Error('seed must be an integer');
  const maxGoals = settings.maxGoals ?? 20;
  if (!(Number.isInteger(maxGoals) && maxGoals >= 4)) throw new Error('maxGoals must be an integer >= 4');
  if (input.scenarios.length < 1) throw new Error('at least one scenario');
  checkSettings(settings, input.scenarios.length);
  return simulateOnBaseline(input, settings, maxGoals);
}

function checkSettings(settings: ScenarioSettings, scenarios: number): void {
  if (settings.runs !== undefined) {
    if (!Number.isInteger(settings.runs) || settings.runs < 4) throw new Error('runs must be an integer >= 4');
  } else {
    const from = settings.runsFrom ?? 0;
    if (!((settings.targetStandardError ?? 0.05) > 0)) throw new Error('targetStandardError must be > 0');
    if (!(from >= 0 && from < scenarios)) throw new Error('runsFrom must name a scenario');
  }
}

/**
 * The same answers as simulateScenarios, every run played in full (no kept baseline): the reference
 * the kept-baseline engine is tested against.
 */
export function simulateScenariosInFull(input: ScenarioLeagueInput, settings: ScenarioSettings): ScenarioResult {
  if (!Number.isInteger(settings.seed)) throw new Error('seed must be an integer');
  const maxGoals = settings.maxGoals ?? 20;
  if (!(Number.isInteger(maxGoals) && maxGoals >= 4)) throw new Error('maxGoals must be an integer >= 4');
  checkSettings(settings, input.scenarios.length);
  const engine = new FusedEngine(input, settings.seed, maxGoals);
  if (settings.runs !== undefined) {
    engine.run(Math.ceil(settings.runs / 2));
  } else {
    const target = settings.targetStandardError ?? 0.05;
    const from = settings.runsFrom ?? 0;
    const maxPairs = Math.max(2, Math.floor((settings.maxRuns ?? 100_000) / 2));
    engine.run(Math.min(maxPairs, Math.max(2, Math.floor((settings.pilotRuns ?? 512) / 2))));
    // standard errors fall as 1 / sqrt(pairs); 20% margin
    const need = (se: number) => roundUp(engine.pairs * (se / target) ** 2 * 1.2);
    let next = Math.min(maxPairs, need(engine.standardError(from)));
    if (next > engine.pairs) engine.run(next - engine.pairs);
    for (let guard = 0; guard < 8 && engine.pairs < maxPairs; guard++) {
      let worst = 0;
      for (let s = 0; s < engine.scenarios; s++) worst = Math.max(worst, engine.standardError(s));
      if (worst <= target) break;
      next = Math.min(maxPairs, Math.max(engine.pairs + BLOCK, need(worst)));
      engine.run(next - engine.pairs);
    }
  }
  const outcomes: ScenarioOutcome[] = [];
  for (let s = 0; s < engine.scenarios; s++) outcomes.push(engine.outcome(s));
  return { seed: settings.seed, runs: engine.runs, clubs: input.clubIds.length, outcomes };
}
