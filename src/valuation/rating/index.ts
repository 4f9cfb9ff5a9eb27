/**
 * Our own player rating and potential (0-100) per season.
 *
 * Rating as of a date: the latest published rating released on or before it (EA's; the demo
 * world's generator ratings there), moved by the evidence since its release (update.ts). A player
 * without one is rated by gradient boosting from what the data holds about a player on the season's rating date
 * (inflation-adjusted log market value and its peak and one-year trend, age, position group, club
 * and league strength, league tier, minutes share where known), fitted to the external ratings
 * (EA) where they exist, else to stored model ratings (the demo world), else mapped onto a fixed
 * reference scale by the quantile of the value index (documented fallback).
 * Potential: rating plus the growth still ahead on the age curve of his position group (mean
 * season-to-season rating change by age, learned from our own ratings), scaled by how his value
 * trajectory compares with his age peers. Potential >= rating and the two meet after the peak age.
 */
import type { RatingBasis, RatingRow } from '../../domain/world.js';
import type { Snapshot } from '../../domain/snapshot.js';
import { isPositionCode, type PositionGroup } from '../../domain/positions.js';
import { findRole } from '../../domain/roles.js';
import { ratingReleaseDate } from '../../domain/rating-releases.js';
import { seasonEnd, seasonOf } from '../../domain/season.js';
import { fitGbm, predictGbm, type GbmModel, type GbmSettings } from '../ml/gbm.js';
import { meanAbsoluteError, r2 } from '../ml/metrics.js';
import { createRng } from '../../domain/random.js';
import {
  ageAt, clubAt, clubStrengthAt, featureIndex, GROUP_CODE, inflationAt, leagueStrengthAt, logValueAt, minutesShareAt,
  peakLogValueAt, positionGroupOf, positionOf, STALE_VALUE_DAYS, tierAt, valueSeries, valueTrendAt, type FeatureIndex,
} from '../features/index.js';
import { isoOfDay } from '../../domain/days.js';
import { bestRole } from './roles.js';
import { REFERENCE_SCALE } from './scale.js';
import { anchorAt, fitUpdateModel, hasEvidence, updateOf, type Estimate, type UpdateArtifact } from './update.js';

export { bestRole } from './roles.js';
export { REFERENCE_SCALE } from './scale.js';

export const RATING_MODEL_VERSION = 2;

export const RATING_FEATURES = [
  'rel_log_value', 'rel_log_peak_value', 'value_trend', 'age', 'position_group', 'rel_club_strength', 'rel_league_strength', 'tier',
  'minutes_share',
] as const;

const MIN_CALIBRATION_ROWS = 200;
const AGE_MIN = 15;
const AGE_MAX = 42;
const GROUPS: readonly PositionGroup[] = ['GK', 'DEF', 'MID', 'FWD'];

export interface RatingSettings {
  seed?: number;
  /** Share of calibration players held out to report the fit (default 0.2). */
  holdoutShare?: number;
  gbm?: GbmSettings;
}

export type CalibrationTarget = 'ea' | 'demo' | 'reference_scale';

export interface RatingArtifact {
  kind: 'rating';
  version: number;
  trainedAsOf: string;
  target: CalibrationTarget;
  features: readonly string[];
  /** GBM from features to rating (target 'ea' or 'demo'). */
  model: GbmModel | null;
  /** Fallback: sorted knots of the value index, mapped to the reference scale by their quantile. */
  quantileKnots: number[] | null;
  /** Per position group, mean rating change from age a to a+1, for a = AGE_MIN..AGE_MAX. */
  ageDelta: Record<PositionGroup, number[]>;
  /** Median one-year value trend per age, AGE_MIN..AGE_MAX (NaN-free: 0 where unknown). */
  trendByAge: number[];
  /** How a published rating moves with the evidence since its release (null: no pairs to learn it from). */
  update: UpdateArtifact | null;
  calibration: {
    rows: number; players: number; heldOutPlayers: number; heldOutR2: number; heldOutMae: number; target: CalibrationTarget;
    update: UpdateArtifact['cv'] | null;
  };
}

/** The date a season's rating is read at: the end of the season (all its evidence), or the as-of date if earlier. */
export function ratingDate(season: number, asOf: string): string {
  const d = seasonEnd(season);
  return d < asOf ? d : asOf;
}

export function ratingFeatures(idx: FeatureIndex, playerId: string, at: string): Float64Array {
  const x = new Float64Array(RATING_FEATURES.length);
  const infl = inflationAt(idx, at);
  const club = clubAt(idx, playerId, at);
  x[0] = logValueAt(idx, playerId, at) - infl;
  x[1] = peakLogValueAt(idx, playerId, at) - infl;
  x[2] = valueTrendAt(idx, playerId, at);
  x[3] = ageAt(idx, playerId, at);
  x[4] = GROUP_CODE[positionGroupOf(positionOf(idx, playerId))];
  x[5] = clubStrengthAt(idx, club, at) - infl;
  x[6] = leagueStrengthAt(idx, club, at) - infl;
  x[7] = tierAt(idx, club, at);
  x[8] = minutesShareAt(idx, playerId, at);
  return x;
}

/** Inverse standard normal CDF (Acklam's rational approximation). */
function probit(p: number): number {
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628274631];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const q0 = Math.min(1 - 1e-9, Math.max(1e-9, p));
  if (q0 < 0.02425) {
    const q = Math.sqrt(-2 * Math.log(q0));
    return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  if (q0 > 1 - 0.02425) return -probit(1 - q0);
  const q = q0 - 0.5;
  const r = q * q;
  return ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

const clampRating = (r: number) => Math.min(99, Math.max(1, r));

/** The value index of the fallback: inflation-adjusted log value, lifted a little by league strength. */
function valueIndex(x: ArrayLike<number>): number {
  const v = x[0];
  const league = Number.isFinite(x[6]) ? x[6] : NaN;
  return Number.isFinite(league) ? v + 0.1 * (league - 16) : v;
}

function rawRating(artifact: Pick<RatingArtifact, 'model' | 'quantileKnots'>, x: ArrayLike<number>): number {
  if (artifact.model) return clampRating(predictGbm(artifact.model, x));
  const knots = artifact.quantileKnots!;
  const v = valueIndex(x);
  if (!Number.isFinite(v)) return clampRating(REFERENCE_SCALE.mean - REFERENCE_SCALE.sd);
  let lo = 0;
  let hi = knots.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (knots[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  const p = (lo + 0.5) / (knots.length + 1);
  return clampRating(REFERENCE_SCALE.mean + REFERENCE_SCALE.sd * probit(p));
}

interface PlayerSeason {
  playerId: string;
  season: number;
  at: string;
}

/** Player-seasons with a market value no older than STALE_VALUE_DAYS on the season's rating date. */
export function ratedSeasons(idx: FeatureIndex): PlayerSeason[] {
  const out: PlayerSeason[] = [];
  const snap = idx.snapshot;
  for (const [pid, s] of valueSeries(idx)) {
    if (s.days.length === 0 || !snap.players.has(pid)) continue;
    const first = seasonOf(isoOfDay(s.days[0]));
    for (let season = first; season <= snap.currentSeason; season++) {
      const at = ratingDate(season, snap.asOf);
      if (Number.isFinite(logValueAt(idx, pid, at, STALE_VALUE_DAYS))) out.push({ playerId: pid, season, at });
    }
  }
  return out;
}

/** Published ratings to calibrate on (released by the as-of date; see snapshot.externalRatings). */
function calibrationRows(snapshot: Snapshot): { rows: readonly RatingRow[]; target: CalibrationTarget } {
  const ea = snapshot.externalRatings.filter((r) => r.source === 'ea');
  if (ea.length >= MIN_CALIBRATION_ROWS) return { rows: ea, target: 'ea' };
  // The demo world's generator ratings play the part EA ratings play on real data. Never our own
  // earlier outputs: calibrating on them would drift with each training.
  const demo = snapshot.externalRatings.filter((r) => r.source === 'demo');
  if (demo.length >= MIN_CALIBRATION_ROWS) return { rows: demo, target: 'demo' };
  return { rows: [], target: 'reference_scale' };
}

const DEFAULT_GBM: GbmSettings = {
  learningRate: 0.05, maxIter: 600, maxLeafNodes: 15, minSamplesLeaf: 20, l2Regularization: 1, earlyStopping: true, validationFraction: 0.15, nIterNoChange: 30,
};

export function fitRatingModel(snapshot: Snapshot, settings: RatingSettings = {}): RatingArtifact {
  const idx = featureIndex(snapshot);
  const seed = settings.seed ?? 0;
  const { rows, target } = calibrationRows(snapshot);
  let model: GbmModel | null = null;
  let quantileKnots: number[] | null = null;
  const calibration: RatingArtifact['calibration'] = { rows: 0, players: 0, heldOutPlayers: 0, heldOutR2: NaN, heldOutMae: NaN, target, update: null };
  const seasons = ratedSeasons(idx);

  if (target !== 'reference_scale') {
    const X: Float64Array[] = [];
    const y: number[] = [];
    const who: string[] = [];
    for (const r of rows) {
      if (!snapshot.players.has(r.player_id)) continue;
      // Read on its release: what the rating's authors knew when they published it.
      const x = ratingFeatures(idx, r.player_id, ratingReleaseDate(r.source, r.season));
      if (!Number.isFinite(x[0])) continue;
      X.push(x);
      y.push(r.rating);
      who.push(r.player_id);
    }
    const players = [...new Set(who)].sort();
    createRng(seed).shuffle(players);
    const held = new Set(players.slice(0, Math.round(players.length * (settings.holdoutShare ?? 0.2))));
    const gbm = { ...DEFAULT_GBM, ...settings.gbm, seed };
    const trainI = who.map((p, i) => (held.has(p) ? -1 : i)).filter((i) => i >= 0);
    const testI = who.map((p, i) => (held.has(p) ? i : -1)).filter((i) => i >= 0);
    if (trainI.length >= 50 && testI.length >= 10) {
      const m = fitGbm(trainI.map((i) => X[i]), trainI.map((i) => y[i]), gbm);
      const yt = testI.map((i) => y[i]);
      const yp = testI.map((i) => clampRating(predictGbm(m, X[i])));
      calibration.heldOutR2 = r2(yt, yp);
      calibration.heldOutMae = meanAbsoluteError(yt, yp);
    }
    model = fitGbm(X, y, gbm);
    calibration.rows = X.length;
    calibration.players = players.length;
    calibration.heldOutPlayers = held.size;
  } else {
    const v = seasons.map((ps) => valueIndex(ratingFeatures(idx, ps.playerId, ps.at))).filter(Number.isFinite).sort((a, b) => a - b);
    // 512 knots keep the artifact small and the quantile exact to a fifth of a percent.
    const n = Math.min(512, v.length);
    quantileKnots = Array.from({ length: n }, (_, i) => v[Math.floor(((i + 0.5) / n) * v.length)]);
  }

  // Age curves and trajectory norms from our own ratings over consecutive seasons.
  const partial = { model, quantileKnots };
  const bySeason = new Map<string, { rating: number; age: number; group: PositionGroup; trend: number }>();
  for (const ps of seasons) {
    const x = ratingFeatures(idx, ps.playerId, ps.at);
    bySeason.set(`${ps.playerId}|${ps.season}`, { rating: rawRating(partial, x), age: x[3], group: positionGroupOf(positionOf(idx, ps.playerId)), trend: x[2] });
  }
  const nAges = AGE_MAX - AGE_MIN + 1;
  const sum: Record<PositionGroup, Float64Array> = Object.fromEntries(GROUPS.map((g) => [g, new Float64Array(nAges)])) as Record<PositionGroup, Float64Array>;
  const cnt: Record<PositionGroup, Float64Array> = Object.fromEntries(GROUPS.map((g) => [g, new Float64Array(nAges)])) as Record<PositionGroup, Float64Array>;
  const trends: number[][] = Array.from({ length: nAges }, () => []);
  for (const ps of seasons) {
    const a = bySeason.get(`${ps.playerId}|${ps.season}`)!;
    const b = bySeason.get(`${ps.playerId}|${ps.season + 1}`);
    if (!Number.isFinite(a.age)) continue;
    const ai = Math.min(nAges - 1, Math.max(0, Math.floor(a.age) - AGE_MIN));
    if (Number.isFinite(a.trend)) trends[ai].push(a.trend);
    if (!b) continue;
    sum[a.group][ai] += b.rating - a.rating;
    cnt[a.group][ai] += 1;
  }
  const ageDelta = {} as Record<PositionGroup, number[]>;
  for (const g of GROUPS) {
    // Smooth over neighbouring ages, weighted by counts; few rows fall back to the wider window.
    ageDelta[g] = Array.from({ length: nAges }, (_, i) => {
      let s = 0;
      let c = 0;
      for (let w = 1; w <= 4 && c < 30; w++) {
        s = 0;
        c = 0;
        for (let j = Math.max(0, i - w); j <= Math.min(nAges - 1, i + w); j++) {
          s += sum[g][j];
          c += cnt[g][j];
        }
      }
      return c > 0 ? s / c : 0;
    });
  }
  const trendByAge = trends.map((t) => {
    if (t.length === 0) return 0;
    const s = [...t].sort((a, b) => a - b);
    return s[s.length >> 1];
  });
  const update = target === 'reference_scale' ? null : fitUpdateModel(idx, target, estimateOf(partial, idx), seed);
  calibration.update = update?.cv ?? null;
  return {
    kind: 'rating', version: RATING_MODEL_VERSION, trainedAsOf: snapshot.asOf, target, features: [...RATING_FEATURES], model, quantileKnots, ageDelta, trendByAge,
    update, calibration,
  };
}

/** The features-only rating at a date (no published rating), unrounded. */
function estimateOf(artifact: Pick<RatingArtifact, 'model' | 'quantileKnots'>, idx: FeatureIndex): Estimate {
  return (playerId, at) => rawRating(artifact, ratingFeatures(idx, playerId, at));
}

/** The rating at a date: the published one moved by the evidence since its release, else the features' estimate. */
export function currentAbility(artifact: RatingArtifact, idx: FeatureIndex, playerId: string, at: string): { rating: number; basis: RatingBasis; x: Float64Array } {
  const x = ratingFeatures(idx, playerId, at);
  const anchor = artifact.target === 'reference_scale' ? null : anchorAt(idx.snapshot, artifact.target, playerId, at);
  if (!anchor) return { rating: rawRating(artifact, x), basis: 'estimated', x };
  if (!hasEvidence(idx, playerId, anchor, at)) return { rating: anchor.rating, basis: 'ea', x };
  return { rating: clampRating(anchor.rating + updateOf(artifact.update, idx, playerId, anchor, at, estimateOf(artifact, idx))), basis: 'estimated', x };
}

/** Growth still ahead on the age curve of the group, from the age on (sum of the positive mean changes). */
export function growthAhead(artifact: RatingArtifact, group: PositionGroup, age: number): number {
  const curve = artifact.ageDelta[group];
  if (!Number.isFinite(age)) return 0;
  const start = Math.floor(age) - AGE_MIN;
  let g = 0;
  for (let i = Math.max(0, start); i < curve.length; i++) {
    // The part of the current year already lived is behind him.
    const share = i === start ? 1 - (age - Math.floor(age)) : 1;
    if (curve[i] > 0) g += share * curve[i];
  }
  return g;
}

export interface RatingAt {
  rating: number;
  potential: number;
  age: number;
  position: string;
  group: PositionGroup;
  basis: RatingBasis;
}

/** Rating and potential of a player read at a date of the snapshot (unrounded). */
export function rateAt(artifact: RatingArtifact, idx: FeatureIndex, playerId: string, at: string, position?: string): RatingAt {
  const { rating, basis, x } = currentAbility(artifact, idx, playerId, at);
  const pos = position ?? positionOf(idx, playerId);
  const group = positionGroupOf(pos);
  const age = x[3];
  const ai = Number.isFinite(age) ? Math.min(artifact.trendByAge.length - 1, Math.max(0, Math.floor(age) - AGE_MIN)) : 0;
  const rel = Number.isFinite(x[2]) ? x[2] - artifact.trendByAge[ai] : 0;
  const factor = Math.min(1.5, Math.max(0.5, 1 + rel));
  const potential = Math.min(99, Math.max(rating, rating + growthAhead(artifact, group, age) * factor));
  return { rating, potential, age, position: pos, group, basis };
}

/** A season's published ratings per player (the latest edition released by the as-of date first looked up by season). */
function publishedBySeason(snapshot: Snapshot): Map<string, RatingRow[]> {
  const out = new Map<string, RatingRow[]>();
  for (const r of snapshot.externalRatings) out.set(r.player_id, [...(out.get(r.player_id) ?? []), r]);
  for (const list of out.values()) list.sort((a, b) => a.season - b.season);
  return out;
}

const fitsPosition = (role: string, position: string) => (findRole(role)?.positions as readonly string[] | undefined)?.includes(position) ?? false;

/** Our rating rows (source 'model') for every player-season with a current market value. */
export function rateAll(artifact: RatingArtifact, snapshot: Snapshot): RatingRow[] {
  const idx = featureIndex(snapshot);
  const published = publishedBySeason(snapshot);
  const out: RatingRow[] = [];
  for (const ps of ratedSeasons(idx)) {
    const player = snapshot.players.get(ps.playerId)!;
    // The season's published rating gives the position; the latest published by then, the role (from its attributes) where it fits.
    const rows = published.get(ps.playerId) ?? [];
    const position = rows.find((r) => r.season === ps.season && isPositionCode(r.position))?.position ?? positionOf(idx, ps.playerId);
    const publishedRole = rows.findLast((r) => r.season <= ps.season && r.best_role !== '' && fitsPosition(r.best_role, position))?.best_role;
    const r = rateAt(artifact, idx, ps.playerId, ps.at, position);
    const rating = Math.round(r.rating);
    out.push({
      player_id: ps.playerId,
      season: ps.season,
      rating,
      potential: Math.max(rating, Math.round(r.potential)),
      best_role: publishedRole ?? bestRole(player, position, r.rating, r.age),
      position,
      source: 'model',
      basis: r.basis,
    });
  }
  out.sort((a, b) => a.player_id.localeCompare(b.player_id) || a.season - b.season);
  return out;
}
