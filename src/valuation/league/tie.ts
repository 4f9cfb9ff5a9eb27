/**
 * The tie between results-based strength (strength.ts) and squad strength (squad.ts).
 *
 * Across all clubs of the data, each of attack and defence is regressed on the squad features
 * (XI rating and depth), centred on their means:
 *
 *   attack_c  = alphaA + betaA . (f_c - fMean) + residA_c
 *   defence_c = alphaD + betaD . (f_c - fMean) + residD_c
 *
 * fitted by ridge least squares (penalty on the slopes only, in standardised units), with slopes
 * constrained to be >= 0: a better squad never scores fewer or concedes more. Each club keeps
 * its residual, so for a what-if squad with features f':
 *
 *   attack'(c)  = attack_c  + betaA . (f' - f_c)    (= alphaA + betaA . (f' - fMean) + residA_c)
 *   defence'(c) = defence_c + betaD . (f' - f_c)
 *
 * With the whole residual the actual squad reproduces the results-based strength exactly; a
 * changed squad moves it along the fitted slope. `strengthFor` can keep only a share of the
 * residual (the impact model keeps half). A club absent from the fit has residual 0 (the fitted
 * part alone).
 */
import type { StrengthArtifact } from './strength.js';
import type { SquadFeatures } from './squad.js';

export interface TieRow {
  club: string;
  attack: number;
  defence: number;
  xi: number;
  depth: number;
  /** optional weight, e.g. the club's effective number of matches; default 1 */
  weight?: number;
}

export interface TieSettings {
  /** ridge penalty on standardised slopes, in units of total weight; default 0.05 */
  ridge?: number;
  /** fit a depth slope; default true (false: depth slope 0, strength follows the XI alone) */
  useDepth?: boolean;
}

export interface TieTarget {
  alpha: number;
  /** slopes per rating point of xi and depth */
  beta: { xi: number; depth: number };
  rSquared: number;
}

export interface TieArtifact {
  kind: 'strength-squad-tie';
  version: 1;
  featureMean: SquadFeatures;
  attack: TieTarget;
  defence: TieTarget;
  clubs: Record<string, { attack: number; defence: number; features: SquadFeatures; residual: { attack: number; defence: number } }>;
  clubsUsed: number;
}

/** Rows for fitTie from a strength artifact and squad features per club (clubs lacking either are left out). */
export function tieRows(strength: StrengthArtifact, squads: Record<string, SquadFeatures>): TieRow[] {
  const rows: TieRow[] = [];
  for (const club of Object.keys(squads).sort()) {
    const st = strength.clubs[club];
    if (!st) continue;
    rows.push({ club, attack: st.attack, defence: st.defence, xi: squads[club].xi, depth: squads[club].depth, weight: st.weight });
  }
  return rows;
}

interface Standardised {
  mean: [number, number];
  sd: [number, number];
}

/**
 * Weighted ridge with slopes >= 0 on two standardised features: solve the full 2x2 system; if a
 * slope comes out negative, try each single-feature fit and keep the best admissible one.
 */
function fitTarget(z: number[][], y: number[], w: number[], ridge: number, st: Standardised, useDepth: boolean): TieTarget {
  const W = w.reduce((a, b) => a + b, 0);
  const yMean = y.reduce((a, v, i) => a + w[i] * v, 0) / W;
  let s00 = 0, s01 = 0, s11 = 0, t0 = 0, t1 = 0, syy = 0;
  for (let i = 0; i < y.length; i++) {
    const dy = y[i] - yMean;
    s00 += w[i] * z[i][0] * z[i][0];
    s01 += w[i] * z[i][0] * z[i][1];
    s11 += w[i] * z[i][1] * z[i][1];
    t0 += w[i] * z[i][0] * dy;
    t1 += w[i] * z[i][1] * dy;
    syy += w[i] * dy * dy;
  }
  const lam = ridge * W;
  // residual sum of squares of slopes b (standardised)
  const rss = (b0: number, b1: number): number =>
    syy - 2 * (b0 * t0 + b1 * t1) + b0 * b0 * s00 + 2 * b0 * b1 * s01 + b1 * b1 * s11;
  const objective = (b0: number, b1: number): number => rss(b0, b1) + lam * (b0 * b0 + b1 * b1);
  const candidates: [number, number][] = [[0, 0]];
  const a00 = s00 + lam, a11 = s11 + lam, det = a00 * a11 - s01 * s01;
  if (useDepth && det > 1e-12) candidates.push([(a11 * t0 - s01 * t1) / det, (a00 * t1 - s01 * t0) / det]);
  if (a00 > 1e-12) candidates.push([t0 / a00, 0]);
  if (useDepth && a11 > 1e-12) candidates.push([0, t1 / a11]);
  let best: [number, number] = [0, 0];
  let bestObj = objective(0, 0);
  for (const [b0, b1] of candidates) {
    if (b0 < 0 || b1 < 0) continue;
    const o = objective(b0, b1);
    if (o < bestObj - 1e-15) { best = [b0, b1]; bestObj = o; }
  }
  const beta = {
    xi: st.sd[0] > 0 ? best[0] / st.sd[0] : 0,
    depth: st.sd[1] > 0 ? best[1] / st.sd[1] : 0,
  };
  return { alpha: yMean, beta, rSquared: syy > 0 ? 1 - rss(best[0], best[1]) / syy : 0 };
}

export function fitTie(rows: readonly TieRow[], settings: TieSettings = {}): TieArtifact {
  const ridge = settings.ridge ?? 0.05;
  const useDepth = settings.useDepth ?? true;
  const data = [...rows].sort((a, b) => (a.club < b.club ? -1 : a.club > b.club ? 1 : 0));
  if (data.length === 0) throw new Error('fitTie needs at least one club');
  const w = data.map((r) => (r.weight !== undefined && r.weight > 0 ? r.weight : 1));
  const W = w.reduce((a, b) => a + b, 0);
  const mean: [number, number] = [0, 0];
  data.forEach((r, i) => { mean[0] += w[i] * r.xi; mean[1] += w[i] * r.depth; });
  mean[0] /= W; mean[1] /= W;
  const sd: [number, number] = [0, 0];
  data.forEach((r, i) => { sd[0] += w[i] * (r.xi - mean[0]) ** 2; sd[1] += w[i] * (r.depth - mean[1]) ** 2; });
  sd[0] = Math.sqrt(sd[0] / W); sd[1] = Math.sqrt(sd[1] / W);
  const st: Standardised = { mean, sd };
  const z = data.map((r) => [sd[0] > 0 ? (r.xi - mean[0]) / sd[0] : 0, sd[1] > 0 ? (r.depth - mean[1]) / sd[1] : 0]);
  const attack = fitTarget(z, data.map((r) => r.attack), w, ridge, st, useDepth);
  const defence = fitTarget(z, data.map((r) => r.defence), w, ridge, st, useDepth);
  const featureMean = { xi: mean[0], depth: mean[1] };
  const clubs: TieArtifact['clubs'] = {};
  for (const r of data) {
    const f = { xi: r.xi, depth: r.depth };
    clubs[r.club] = {
      attack: r.attack,
      defence: r.defence,
      features: f,
      residual: { attack: r.attack - fitted(attack, featureMean, f), defence: r.defence - fitted(defence, featureMean, f) },
    };
  }
  return { kind: 'strength-squad-tie', version: 1, featureMean, attack, defence, clubs, clubsUsed: data.length };
}

function fitted(t: TieTarget, mean: SquadFeatures, f: SquadFeatures): number {
  return t.alpha + t.beta.xi * (f.xi - mean.xi) + t.beta.depth * (f.depth - mean.depth);
}

/**
 * Strength of `club` with a squad of the given features (see the formula at the top), keeping the
 * share `residualWeight` of its residual (1: the actual squad reproduces the results-based strength;
 * less: what results say beyond the squad is partly regressed to what the squad says).
 */
export function strengthFor(tie: TieArtifact, club: string, features: SquadFeatures, residualWeight = 1): { attack: number; defence: number } {
  const res = tie.clubs[club]?.residual ?? { attack: 0, defence: 0 };
  return {
    attack: fitted(tie.attack, tie.featureMean, features) + residualWeight * res.attack,
    defence: fitted(tie.defence, tie.featureMean, features) + residualWeight * res.defence,
  };
}
