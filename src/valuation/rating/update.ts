/**
 * The rating as of a date from the latest published rating (EA's; in the demo world its generator's
 * yearly ratings) moved by the evidence since its release: the crowd's value since then, club and
 * league, minutes and starts of a season completed since then where the data has them.
 *
 * The move is learned from pairs of consecutive editions (rating of season S, rating of season S+1):
 * features read on the evidence date (the end of season S, or the as-of date if earlier), target
 * the change of rating. The later edition may be released after the as-of date (EA FC 25 for a world
 * as of 2024-06-30): it then teaches the rule only. Every player's rating comes from the fold model
 * fitted without his pairs (cross-fitting), so no player's own later rating reaches his rating, and
 * the fold predictions are the cross-validated figures.
 */
import { hashString } from '../../domain/hash.js';
import { memoFor } from '../../domain/memo.js';
import type { RatingRow } from '../../domain/world.js';
import type { Snapshot } from '../../domain/snapshot.js';
import { ratingReleaseDate } from '../../domain/rating-releases.js';
import { seasonEnd, seasonOf } from '../../domain/season.js';
import { fitGbm, predictGbm, type GbmModel, type GbmSettings } from '../ml/gbm.js';
import { meanAbsoluteError, spearman } from '../ml/metrics.js';
import {
  ageAt, clubAt, clubStrengthAt, GROUP_CODE, inflationAt, leagueStrengthAt, logValueAt, peakLogValueAt, playingSharesIn, positionGroupOf,
  valueSeriesOf, type FeatureIndex,
} from '../features/index.js';
import { dayOf } from '../../domain/days.js';

export const UPDATE_FEATURES = [
  'anchor', 'value_change', 'estimate_change', 'rel_log_value', 'age', 'position_group', 'rel_league_strength', 'rel_club_strength',
  'club_strength_change', 'below_peak', 'minutes_share', 'starts_share', 'estimate_gap',
] as const;

/** A published rating is a starting point for this long after its release; older, the features alone rate him. */
export const MAX_ANCHOR_DAYS = 400;
const FOLDS = 5;
const MIN_PAIRS = 200;
/** Pairs need some evidence between the release and the evidence date. */
const MIN_EVIDENCE_DAYS = 60;

export interface Anchor {
  rating: number;
  season: number;
  released: string;
  position: string;
}

export interface UpdateArtifact {
  /** Fold k's model was fitted without the players of fold k (foldOf). */
  folds: GbmModel[];
  /** Median days from release to evidence date in the training pairs: the move is scaled by the share of it elapsed. */
  horizonDays: number;
  cv: UpdateCv;
}

export interface UpdateCv {
  pairs: number;
  players: number;
  /** Later edition against the earlier one alone, and against ours (out of fold). */
  anchorSpearman: number;
  anchorMae: number;
  spearman: number;
  mae: number;
}

/** The estimate of the features-only model at a date (the anchor-free rating). */
export type Estimate = (playerId: string, at: string) => number;

/** Published ratings of the calibration source per player, oldest release first; once per rows and source. */
function anchorsOf(rows: readonly RatingRow[], source: string): Map<string, Anchor[]> {
  // the rows are the owner, so wrapped: a bare array would be read as a list of owners
  return memoFor([rows], `rating anchors|${source}`, () => anchorsFrom(rows, source));
}

function anchorsFrom(rows: readonly RatingRow[], source: string): Map<string, Anchor[]> {
  const m = new Map<string, Anchor[]>();
  for (const r of rows) {
    if (r.source !== source || !Number.isFinite(r.rating)) continue;
    const list = m.get(r.player_id) ?? [];
    list.push({ rating: r.rating, season: r.season, released: ratingReleaseDate(r.source, r.season), position: r.position });
    m.set(r.player_id, list);
  }
  for (const list of m.values()) list.sort((a, b) => a.released.localeCompare(b.released));
  return m;
}

/** The latest rating of `source` released on or before `at`, if released at most MAX_ANCHOR_DAYS before it. */
export function anchorAt(snapshot: Snapshot, source: string, playerId: string, at: string): Anchor | null {
  const list = anchorsOf(snapshot.externalRatings, source).get(playerId);
  if (!list) return null;
  const a = list.findLast((x) => x.released <= at);
  return a && dayOf(at) - dayOf(a.released) <= MAX_ANCHOR_DAYS ? a : null;
}

/** Whether anything new is known at `at` since the anchor's release: a new crowd value, or his season's minutes. */
export function hasEvidence(idx: FeatureIndex, playerId: string, anchor: Anchor, at: string): boolean {
  if (at >= seasonEnd(anchor.season) && idx.snapshot.appearances.has(playerId)) return true;
  const s = valueSeriesOf(idx, playerId);
  if (!s) return false;
  const day = dayOf(at);
  const rel = dayOf(anchor.released);
  for (let i = s.days.length - 1; i >= 0 && s.days[i] > rel; i--) if (s.days[i] <= day) return true;
  return false;
}

export function updateFeatures(idx: FeatureIndex, playerId: string, anchor: Anchor, at: string, estimate: Estimate): Float64Array {
  const x = new Float64Array(UPDATE_FEATURES.length);
  const rel = anchor.released;
  const infl = inflationAt(idx, at);
  const club = clubAt(idx, playerId, at);
  const club0 = clubAt(idx, playerId, rel);
  const v = logValueAt(idx, playerId, at);
  x[0] = anchor.rating;
  x[1] = v - logValueAt(idx, playerId, rel);
  const estimateNow = estimate(playerId, at);
  x[2] = estimateNow - estimate(playerId, rel);
  x[3] = v - infl;
  x[4] = ageAt(idx, playerId, at);
  x[5] = GROUP_CODE[positionGroupOf(anchor.position)];
  x[6] = leagueStrengthAt(idx, club, at) - infl;
  x[7] = clubStrengthAt(idx, club, at) - infl;
  x[8] = clubStrengthAt(idx, club, at) - clubStrengthAt(idx, club0, rel);
  x[9] = peakLogValueAt(idx, playerId, at) - v;
  // The minutes of the anchor's season count once it is over.
  const [minutes, starts] = at >= seasonEnd(anchor.season) ? playingSharesIn(idx, playerId, anchor.season) : [NaN, NaN];
  x[10] = minutes;
  x[11] = starts;
  // Where the data's view now parts from the published rating (a breakout the edition could not see).
  x[12] = estimateNow - anchor.rating;
  return x;
}

/** Fold of a player: a stable hash of his id (FNV-1a), so the same player always meets the same model. */
export function foldOf(playerId: string): number {
  return hashString(playerId) % FOLDS;
}

const UPDATE_GBM: GbmSettings = {
  learningRate: 0.05, maxIter: 600, maxLeafNodes: 15, minSamplesLeaf: 10, l2Regularization: 1, earlyStopping: true, validationFraction: 0.15, nIterNoChange: 30,
  // More value gained since the release never lowers the rating; nor does a higher published rating.
  monotonicConstraints: [0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
};

interface Pair {
  playerId: string;
  x: Float64Array;
  anchor: number;
  later: number;
  days: number;
}

/** Consecutive editions of `source` whose earlier one is released and whose evidence date is in the snapshot. */
export function updatePairs(idx: FeatureIndex, source: string, estimate: Estimate): Pair[] {
  const snap = idx.snapshot;
  const later = anchorsOf([...snap.externalRatings, ...snap.laterExternalRatings], source);
  const released = anchorsOf(snap.externalRatings, source);
  const out: Pair[] = [];
  for (const [playerId, list] of released) {
    if (!snap.players.has(playerId)) continue;
    const next = later.get(playerId) ?? [];
    for (const a of list) {
      const b = next.find((n) => n.season === a.season + 1);
      if (!b) continue;
      const at = seasonEnd(a.season) < snap.asOf ? seasonEnd(a.season) : snap.asOf;
      const days = dayOf(at) - dayOf(a.released);
      if (days < MIN_EVIDENCE_DAYS || seasonOf(at) !== a.season) continue;
      if (!Number.isFinite(logValueAt(idx, playerId, at))) continue;
      out.push({ playerId, x: updateFeatures(idx, playerId, a, at, estimate), anchor: a.rating, later: b.rating, days });
    }
  }
  return out.sort((p, q) => p.playerId.localeCompare(q.playerId) || p.anchor - q.anchor);
}

export function fitUpdateModel(idx: FeatureIndex, source: string, estimate: Estimate, seed: number): UpdateArtifact | null {
  const pairs = updatePairs(idx, source, estimate);
  if (pairs.length < MIN_PAIRS) return null;
  const fold = pairs.map((p) => foldOf(p.playerId));
  const folds: GbmModel[] = [];
  const oof = new Float64Array(pairs.length);
  for (let k = 0; k < FOLDS; k++) {
    const train = pairs.filter((_, i) => fold[i] !== k);
    const m = fitGbm(train.map((p) => p.x), train.map((p) => p.later - p.anchor), { ...UPDATE_GBM, seed: seed + k });
    folds.push(m);
    pairs.forEach((p, i) => {
      if (fold[i] === k) oof[i] = p.anchor + predictGbm(m, p.x);
    });
  }
  const truth = pairs.map((p) => p.later);
  const anchors = pairs.map((p) => p.anchor);
  const days = pairs.map((p) => p.days).sort((a, b) => a - b);
  return {
    folds,
    horizonDays: days[days.length >> 1],
    cv: {
      pairs: pairs.length,
      players: new Set(pairs.map((p) => p.playerId)).size,
      anchorSpearman: spearman(truth, anchors),
      anchorMae: meanAbsoluteError(truth, anchors),
      spearman: spearman(truth, oof),
      mae: meanAbsoluteError(truth, oof),
    },
  };
}

/**
 * The move of the anchor at `at`: the fold model's change scaled by the share of the training
 * horizon elapsed since the release (without a model, the features-only estimate's own move).
 */
export function updateOf(update: UpdateArtifact | null, idx: FeatureIndex, playerId: string, anchor: Anchor, at: string, estimate: Estimate): number {
  const x = updateFeatures(idx, playerId, anchor, at, estimate);
  if (!update) return Number.isFinite(x[2]) ? x[2] : 0;
  const elapsed = dayOf(at) - dayOf(anchor.released);
  const w = Math.min(1, Math.max(0, elapsed / Math.max(1, update.horizonDays)));
  return w * predictGbm(update.folds[foldOf(playerId)], x);
}
