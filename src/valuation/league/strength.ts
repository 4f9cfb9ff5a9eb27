/**
 * Club strength from match results.
 *
 * Dixon–Coles style model: home goals ~ Poisson(exp(intercept + home[league] + attack[h] - defence[a])),
 * away goals ~ Poisson(exp(intercept + attack[a] - defence[h])), optionally with the low-score
 * correction tau(x, y) of Dixon & Coles (1997). A larger `defence` concedes fewer goals. The home
 * advantage of a league is the pooled one plus the league's own deviation, shrunk towards 0 by a
 * ridge (`homeRidge`), so a league with few matches keeps the pooled value. Matches played behind
 * closed doors (`crowdless`, by default March 2020 to June 2021) carry a home offset of their own, so a
 * fit that spans them still learns the home advantage of matches with crowds, the ones it predicts.
 * Matches are weighted by exp(-xi * age_in_days) relative to the as-of date; matches after it
 * are never used. Attack and defence carry a ridge prior towards 0 (the average club), so a club
 * with few matches stays near average instead of taking extreme values.
 */
import { isIsoDate } from '../../domain/season.js';
import { dayOf } from '../../domain/days.js';
import { outcomeProbabilities, tau } from './match.js';

export interface MatchRow {
  date: string;
  home: string;
  away: string;
  homeGoals: number;
  awayGoals: number;
  competition?: string;
}

export interface StrengthSettings {
  /** Only matches dated on or before this day are used; ages are counted from it. */
  asOf: string;
  /** Decay per day; default ln 2 / 365 (a match a year old counts half). */
  xi?: number;
  /** Ridge penalty on attack and defence (prior precision in weighted-match units); default 2. */
  ridge?: number;
  /** Ridge on each competition's deviation from the pooled home advantage (prior precision); default 100 (prior sd 0.1). */
  homeRidge?: number;
  /** Matches dated in this range (inclusive) were played without crowds; default CROWDLESS, null: none. */
  crowdless?: { from: string; to: string } | null;
  /** Fit the Dixon–Coles low-score correction rho; default true. */
  lowScoreCorrection?: boolean;
  /** Matches older than this are dropped (their weight is negligible); default 4 * 365. */
  maxAgeDays?: number;
  /** Restrict to these competitions (rows without a competition are then dropped). */
  competitions?: string[];
  maxIterations?: number;
  tolerance?: number;
}

export interface ClubStrength {
  attack: number;
  defence: number;
  /** matches of this club used in the fit */
  matches: number;
  /** sum of their time-decay weights */
  weight: number;
}

export interface StrengthArtifact {
  kind: 'dixon-coles-strength';
  version: 2;
  fittedAsOf: string;
  settings: Required<Omit<StrengthSettings, 'competitions'>> & { competitions: string[] | null };
  intercept: number;
  /** the pooled home advantage (a match without a competition, a league unknown to the fit) */
  homeAdvantage: number;
  /** home advantage of each competition with matches in the fit: the pooled one plus its shrunk deviation */
  homeByCompetition: Record<string, number>;
  /** what playing without crowds added to the home rate's log (negative: less home advantage), and over how many matches */
  crowdless: { homeOffset: number; matches: number };
  rho: number;
  clubs: Record<string, ClubStrength>;
  matchesUsed: number;
  rowsAfterAsOf: number;
  rowsTooOld: number;
  rowsInvalid: number;
  logLikelihood: number;
  iterations: number;
  converged: boolean;
}

/**
 * Europe's leagues played behind closed doors from March 2020 (Serie A's first such match was on
 * 8 March) until the end of the 2020/21 season; crowds came back, some partly, in August 2021.
 */
export const CROWDLESS = { from: '2020-03-08', to: '2021-06-30' } as const;
/** Prior precision of the crowdless offset: enough to pin it to 0 when no match is crowdless, negligible otherwise. */
const CROWDLESS_RIDGE = 1;

const DEFAULTS = {
  xi: Math.LN2 / 365,
  ridge: 2,
  homeRidge: 100,
  lowScoreCorrection: true,
  maxAgeDays: 4 * 365,
  maxIterations: 100,
  tolerance: 1e-9,
};

function validRow(r: MatchRow): boolean {
  return (
    typeof r.date === 'string' && isIsoDate(r.date) &&
    typeof r.home === 'string' && typeof r.away === 'string' && r.home !== '' && r.away !== '' && r.home !== r.away &&
    Number.isInteger(r.homeGoals) && Number.isInteger(r.awayGoals) && r.homeGoals >= 0 && r.awayGoals >= 0
  );
}

interface Selection {
  rows: MatchRow[];
  ages: number[];
  after: number;
  old: number;
  invalid: number;
}

/** Rows usable as of `asOf`, in a canonical order so the fit does not depend on input order. */
function selectRows(rows: readonly MatchRow[], asOf: string, maxAgeDays: number, competitions: string[] | null): Selection {
  if (!isIsoDate(asOf)) throw new Error(`asOf must be YYYY-MM-DD, got ${asOf}`);
  const asOfDay = dayOf(asOf);
  const comp = competitions ? new Set(competitions) : null;
  const kept: { row: MatchRow; age: number }[] = [];
  let after = 0, old = 0, invalid = 0;
  for (const r of rows) {
    if (!validRow(r)) { invalid++; continue; }
    if (comp && (r.competition === undefined || !comp.has(r.competition))) continue;
    const age = asOfDay - dayOf(r.date);
    if (age < 0) { after++; continue; }
    if (age > maxAgeDays) { old++; continue; }
    kept.push({ row: r, age });
  }
  kept.sort((x, y) =>
    x.row.date < y.row.date ? -1 : x.row.date > y.row.date ? 1 :
    x.row.home < y.row.home ? -1 : x.row.home > y.row.home ? 1 :
    x.row.away < y.row.away ? -1 : x.row.away > y.row.away ? 1 :
    x.row.homeGoals - y.row.homeGoals || x.row.awayGoals - y.row.awayGoals);
  return { rows: kept.map((k) => k.row), ages: kept.map((k) => k.age), after, old, invalid };
}

function logFactorial(n: number): number {
  let s = 0;
  for (let k = 2; k <= n; k++) s += Math.log(k);
  return s;
}

/** Solves S x = b in place (b becomes x) for a symmetric positive definite S (overwritten). */
function choleskySolve(S: Float64Array, r: number, b: Float64Array): void {
  for (let j = 0; j < r; j++) {
    let d = S[j * r + j];
    for (let k = 0; k < j; k++) d -= S[j * r + k] * S[j * r + k];
    // a tiny floor guards against round-off on a nearly singular system
    const l = Math.sqrt(Math.max(d, 1e-12));
    S[j * r + j] = l;
    for (let i = j + 1; i < r; i++) {
      let v = S[i * r + j];
      for (let k = 0; k < j; k++) v -= S[i * r + k] * S[j * r + k];
      S[i * r + j] = v / l;
    }
  }
  for (let i = 0; i < r; i++) {
    let v = b[i];
    for (let k = 0; k < i; k++) v -= S[i * r + k] * b[k];
    b[i] = v / S[i * r + i];
  }
  for (let i = r - 1; i >= 0; i--) {
    let v = b[i];
    for (let k = i + 1; k < r; k++) v -= S[k * r + i] * b[k];
    b[i] = v / S[i * r + i];
  }
}

/**
 * Fits attack/defence per club, intercept and home advantage by penalised weighted maximum
 * likelihood (Newton's method with step halving; the objective is concave).
 */
export function fitStrength(rows: readonly MatchRow[], settings: StrengthSettings): StrengthArtifact {
  const s = {
    asOf: settings.asOf,
    xi: settings.xi ?? DEFAULTS.xi,
    ridge: settings.ridge ?? DEFAULTS.ridge,
    homeRidge: settings.homeRidge ?? DEFAULTS.homeRidge,
    lowScoreCorrection: settings.lowScoreCorrection ?? DEFAULTS.lowScoreCorrection,
    maxAgeDays: settings.maxAgeDays ?? DEFAULTS.maxAgeDays,
    maxIterations: settings.maxIterations ?? DEFAULTS.maxIterations,
    tolerance: settings.tolerance ?? DEFAULTS.tolerance,
    competitions: settings.competitions ? [...settings.competitions].sort() : null,
    crowdless: settings.crowdless === undefined ? { ...CROWDLESS } : settings.crowdless,
  };
  if (!(s.xi >= 0) || !(s.ridge > 0) || !(s.homeRidge > 0)) throw new Error('xi must be >= 0, ridge and homeRidge > 0');
  if (s.crowdless && !(isIsoDate(s.crowdless.from) && isIsoDate(s.crowdless.to))) throw new Error('crowdless must be two YYYY-MM-DD dates');
  const sel = selectRows(rows, s.asOf, s.maxAgeDays, s.competitions);

  const names = [...new Set(sel.rows.flatMap((r) => [r.home, r.away]))].sort();
  const index = new Map(names.map((n, i) => [n, i]));
  const n = names.length;
  const m = sel.rows.length;
  // competitions with a home deviation of their own (rows without one play at the pooled value)
  const comps = [...new Set(sel.rows.map((r) => r.competition).filter((c): c is string => c !== undefined))].sort();
  const compIndex = new Map(comps.map((c, i) => [c, i]));
  const L = comps.length;
  const ci = new Int32Array(m);
  const crowdless = new Uint8Array(m);
  let crowdlessMatches = 0;
  const hi = new Int32Array(m), ai = new Int32Array(m);
  const yh = new Float64Array(m), ya = new Float64Array(m), w = new Float64Array(m);
  const clubMatches = new Float64Array(n), clubWeight = new Float64Array(n);
  for (let k = 0; k < m; k++) {
    const r = sel.rows[k];
    ci[k] = r.competition === undefined ? -1 : compIndex.get(r.competition)!;
    if (s.crowdless && r.date >= s.crowdless.from && r.date <= s.crowdless.to) { crowdless[k] = 1; crowdlessMatches++; }
    hi[k] = index.get(r.home)!;
    ai[k] = index.get(r.away)!;
    yh[k] = r.homeGoals;
    ya[k] = r.awayGoals;
    w[k] = Math.exp(-s.xi * sel.ages[k]);
    clubMatches[hi[k]]++; clubMatches[ai[k]]++;
    clubWeight[hi[k]] += w[k]; clubWeight[ai[k]] += w[k];
  }

  const att = new Float64Array(n), def = new Float64Array(n);
  let sumW = 0, sumG = 0;
  for (let k = 0; k < m; k++) { sumW += w[k]; sumG += w[k] * (yh[k] + ya[k]); }
  let mu = m > 0 && sumG > 0 ? Math.log(sumG / (2 * sumW)) : 0;
  let home = 0, crowd = 0;
  const dev = new Float64Array(L);
  const lh = new Float64Array(m), la = new Float64Array(m);
  const rates = (): void => {
    for (let k = 0; k < m; k++) {
      lh[k] = Math.exp(mu + home + (ci[k] >= 0 ? dev[ci[k]] : 0) + (crowdless[k] ? crowd : 0) + att[hi[k]] - def[ai[k]]);
      la[k] = Math.exp(mu + att[ai[k]] - def[hi[k]]);
    }
  };
  // penalised weighted log-likelihood up to constants
  const objective = (): number => {
    let v = 0;
    for (let k = 0; k < m; k++) v += w[k] * (yh[k] * Math.log(lh[k]) - lh[k] + ya[k] * Math.log(la[k]) - la[k]);
    for (let i = 0; i < n; i++) v -= 0.5 * s.ridge * (att[i] * att[i] + def[i] * def[i]);
    for (let l = 0; l < L; l++) v -= 0.5 * s.homeRidge * dev[l] * dev[l];
    return v - 0.5 * CROWDLESS_RIDGE * crowd * crowd;
  };

  // Newton steps on (attack, defence, intercept, home, home deviations, crowdless offset). The attack
  // block of the negative Hessian is diagonal, so it is eliminated (Schur complement) and only an
  // (n + 3 + L) system is factored.
  const r = n + 3 + L; // defence 0..n-1, intercept n, home n+1, deviation of competition l at n+2+l, crowdless offset last
  const crowdCol = n + 2 + L;
  const homeCols: number[] = [];
  const A = new Float64Array(n), g1 = new Float64Array(n);
  const B = new Float64Array(n * r), R = new Float64Array(r * r), g2 = new Float64Array(r);
  const dz = new Float64Array(r), dx = new Float64Array(n);
  let iterations = 0;
  let converged = m === 0;
  rates();
  let current = objective();
  while (!converged && iterations < s.maxIterations) {
    iterations++;
    A.fill(s.ridge); B.fill(0); R.fill(0); g2.fill(0);
    for (let i = 0; i < n; i++) { g1[i] = -s.ridge * att[i]; g2[i] = -s.ridge * def[i]; R[i * r + i] = s.ridge; }
    for (let l = 0; l < L; l++) { const q = n + 2 + l; g2[q] = -s.homeRidge * dev[l]; R[q * r + q] = s.homeRidge; }
    g2[crowdCol] = -CROWDLESS_RIDGE * crowd; R[crowdCol * r + crowdCol] = CROWDLESS_RIDGE;
    for (let k = 0; k < m; k++) {
      const h = hi[k], a = ai[k];
      const eh = w[k] * (yh[k] - lh[k]), ea = w[k] * (ya[k] - la[k]);
      const vh = w[k] * lh[k], va = w[k] * la[k];
      g1[h] += eh; g1[a] += ea;
      g2[a] -= eh; g2[h] -= ea; g2[n] += eh + ea;
      // home goals: design +a_h, -d_a, +intercept, and +1 in each of its home columns: the pooled
      // home advantage, its competition's deviation, the crowdless offset (columns in ascending order)
      homeCols.length = 0;
      homeCols.push(n + 1);
      if (ci[k] >= 0) homeCols.push(n + 2 + ci[k]);
      if (crowdless[k]) homeCols.push(crowdCol);
      A[h] += vh;
      B[h * r + a] -= vh; B[h * r + n] += vh;
      R[a * r + a] += vh; R[a * r + n] -= vh; R[n * r + n] += vh;
      for (let p = 0; p < homeCols.length; p++) {
        const q = homeCols[p];
        g2[q] += eh;
        B[h * r + q] += vh;
        R[a * r + q] -= vh; R[n * r + q] += vh;
        for (let p2 = p; p2 < homeCols.length; p2++) R[q * r + homeCols[p2]] += vh;
      }
      // away goals: design +a_a, -d_h, +intercept
      A[a] += va;
      B[a * r + h] -= va; B[a * r + n] += va;
      R[h * r + h] += va; R[h * r + n] -= va; R[n * r + n] += va;
    }
    // symmetric fill of R (only upper parts with row <= col were partly written above)
    for (let i = 0; i < r; i++) for (let j = i + 1; j < r; j++) { const v = R[i * r + j] + R[j * r + i]; R[i * r + j] = v; R[j * r + i] = v; }
    // S = R - B' A^-1 B, rhs = g2 - B' A^-1 g1
    for (let i = 0; i < n; i++) {
      const inv = 1 / A[i];
      const row = i * r;
      for (let p = 0; p < r; p++) {
        const bp = B[row + p];
        if (bp === 0) continue;
        g2[p] -= bp * inv * g1[i];
        const f = bp * inv;
        for (let q = 0; q < r; q++) R[p * r + q] -= f * B[row + q];
      }
    }
    for (let i = 0; i < r; i++) dz[i] = g2[i];
    choleskySolve(R, r, dz);
    for (let i = 0; i < n; i++) {
      let v = g1[i];
      for (let p = 0; p < r; p++) v -= B[i * r + p] * dz[p];
      dx[i] = v / A[i];
    }
    // step halving keeps every step an ascent step
    let t = 1;
    let next = current;
    const a0 = Float64Array.from(att), d0 = Float64Array.from(def), dev0 = Float64Array.from(dev), mu0 = mu, home0 = home, crowd0 = crowd;
    for (let tries = 0; tries < 30; tries++) {
      for (let i = 0; i < n; i++) { att[i] = a0[i] + t * dx[i]; def[i] = d0[i] + t * dz[i]; }
      for (let l = 0; l < L; l++) dev[l] = dev0[l] + t * dz[n + 2 + l];
      mu = mu0 + t * dz[n];
      home = home0 + t * dz[n + 1];
      crowd = crowd0 + t * dz[crowdCol];
      rates();
      next = objective();
      if (next >= current - 1e-12 * Math.abs(current)) break;
      t /= 2;
    }
    let maxStep = 0;
    for (let i = 0; i < n; i++) maxStep = Math.max(maxStep, Math.abs(t * dx[i]));
    for (let i = 0; i < r; i++) maxStep = Math.max(maxStep, Math.abs(t * dz[i]));
    current = next;
    if (maxStep < s.tolerance) converged = true;
  }
  rates();

  const rho = s.lowScoreCorrection && m > 0 ? fitRho(yh, ya, lh, la, w) : 0;

  let ll = 0;
  for (let k = 0; k < m; k++) {
    ll += w[k] * (yh[k] * Math.log(lh[k]) - lh[k] - logFactorial(yh[k]) + ya[k] * Math.log(la[k]) - la[k] - logFactorial(ya[k]));
    if (rho !== 0) ll += w[k] * Math.log(tau(yh[k], ya[k], lh[k], la[k], rho));
  }

  const homeByCompetition: Record<string, number> = {};
  comps.forEach((c, l) => (homeByCompetition[c] = home + dev[l]));
  const clubs: Record<string, ClubStrength> = {};
  for (let i = 0; i < n; i++) {
    clubs[names[i]] = { attack: att[i], defence: def[i], matches: clubMatches[i], weight: clubWeight[i] };
  }
  return {
    kind: 'dixon-coles-strength',
    version: 2,
    fittedAsOf: s.asOf,
    settings: s,
    intercept: mu,
    homeAdvantage: home,
    homeByCompetition,
    crowdless: { homeOffset: crowd, matches: crowdlessMatches },
    rho,
    clubs,
    matchesUsed: m,
    rowsAfterAsOf: sel.after,
    rowsTooOld: sel.old,
    rowsInvalid: sel.invalid,
    logLikelihood: ll,
    iterations,
    converged,
  };
}

/**
 * rho maximises the weighted sum of log tau given the Poisson rates (the usual two-stage fit);
 * sum of log(1 ± c rho) is concave, so a golden-section search on the feasible interval suffices.
 */
function fitRho(yh: Float64Array, ya: Float64Array, lh: Float64Array, la: Float64Array, w: Float64Array): number {
  let lo = -0.5, hi = 0.5;
  for (let k = 0; k < yh.length; k++) {
    if (yh[k] + ya[k] > 2 || yh[k] > 1 || ya[k] > 1) continue;
    hi = Math.min(hi, 1 / (lh[k] * la[k]));
    lo = Math.max(lo, -1 / lh[k], -1 / la[k]);
  }
  lo += 1e-6; hi -= 1e-6;
  if (!(hi > lo)) return 0;
  const f = (rho: number): number => {
    let v = 0;
    for (let k = 0; k < yh.length; k++) {
      if (yh[k] <= 1 && ya[k] <= 1) v += w[k] * Math.log(tau(yh[k], ya[k], lh[k], la[k], rho));
    }
    return v;
  };
  const phi = (Math.sqrt(5) - 1) / 2;
  let a = lo, b = hi;
  let c = b - phi * (b - a), d = a + phi * (b - a);
  let fc = f(c), fd = f(d);
  for (let i = 0; i < 80 && b - a > 1e-7; i++) {
    if (fc > fd) { b = d; d = c; fd = fc; c = b - phi * (b - a); fc = f(c); }
    else { a = c; c = d; fc = fd; d = a + phi * (b - a); fd = f(d); }
  }
  return (a + b) / 2;
}

/** The home advantage in `competition`: its own when the fit saw it, else the pooled one. */
export function homeAdvantageIn(artifact: Pick<StrengthArtifact, 'homeAdvantage' | 'homeByCompetition'>, competition: string | null | undefined): number {
  return (competition != null ? artifact.homeByCompetition?.[competition] : undefined) ?? artifact.homeAdvantage;
}

/** A club's strength; an unknown club is the average club (0, 0) with no matches. */
export function clubStrength(artifact: StrengthArtifact, club: string): ClubStrength {
  return artifact.clubs[club] ?? { attack: 0, defence: 0, matches: 0, weight: 0 };
}

export interface MatchPrediction {
  homeExpectedGoals: number;
  awayExpectedGoals: number;
  homeWin: number;
  draw: number;
  awayWin: number;
}

/** Expected goals and 1X2 probabilities for one match in `competition` (its home advantage): the match model of match.ts. */
export function predictMatch(artifact: StrengthArtifact, home: string, away: string, competition?: string): MatchPrediction {
  const h = clubStrength(artifact, home), a = clubStrength(artifact, away);
  const lh = Math.exp(artifact.intercept + homeAdvantageIn(artifact, competition) + h.attack - a.defence);
  const la = Math.exp(artifact.intercept + a.attack - h.defence);
  const [homeWin, draw, awayWin] = outcomeProbabilities({ home: lh, away: la, rho: artifact.rho });
  return { homeExpectedGoals: lh, awayExpectedGoals: la, homeWin, draw, awayWin };
}
