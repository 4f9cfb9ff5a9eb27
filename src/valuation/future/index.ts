/**
 * Future transfer value over 3 years, from comparable historical player-seasons.
 *
 * A comparable is a player-season starting on 30 June of year s with a market value then (no older
 * than a year) and its outcome, the latest market value on or before 30 June of s+3; only seasons
 * whose outcome date is on or before the as-of date count. Neighbours are found on rating,
 * potential, age, inflation-adjusted log value and club reputation (club strength of the club he
 * was at; for the query, of the club he would join), within his position group and his side of the
 * age line (over 30 during the horizon or not). Their value ratios give six category probabilities
 * (distance-weighted, smoothed towards the base rate of his bucket), the future value (baseline ×
 * weighted median ratio) and the similar players.
 */
import type { Snapshot } from '../../domain/snapshot.js';
import { playerFacts } from '../../domain/player-facts.js';
import { seasonLabel } from '../../domain/season.js';
import { buildIndex, nearest, type KnnIndex } from '../ml/knn.js';
import {
  addYears, ageAt, clubAt, clubStrengthAt, dayOf, featureIndex, isoOfDay, inflationAt, latestValue, logValueAt, positionGroupOf, positionOf,
  type FeatureIndex,
} from '../features/index.js';
import { bestRole, rateAt, type RatingArtifact } from '../rating/index.js';

export const FUTURE_MODEL_VERSION = 1;
export const HORIZON_YEARS = 3;

/** Most optimistic first; a category holds ratios >= its lower bound and below the previous one's. */
export const VALUE_CATEGORIES = [
  { name: 'Elite Prospect', minRatio: 2.5 },
  { name: 'Excellent Opportunity', minRatio: 1.5 },
  { name: 'Steady Grower', minRatio: 1.1 },
  { name: 'Stable Value', minRatio: 0.8 },
  { name: 'Decline', minRatio: 0.5 },
  { name: 'Major decline', minRatio: 0 },
] as const;
export type ValueCategory = (typeof VALUE_CATEGORIES)[number]['name'];
export const CATEGORY_NAMES: readonly ValueCategory[] = VALUE_CATEGORIES.map((c) => c.name);

export function categoryOf(ratio: number): number {
  for (let i = 0; i < VALUE_CATEGORIES.length; i++) if (ratio >= VALUE_CATEGORIES[i].minRatio) return i;
  return VALUE_CATEGORIES.length - 1;
}

export const FUTURE_FEATURES = ['rating', 'potential', 'age', 'rel_log_value', 'rel_club_strength'] as const;

export interface FutureSettings {
  /** Neighbours per query (default 50). */
  k?: number;
  /** Weight of the base-rate prior, in neighbours (default 5). */
  priorStrength?: number;
  /** Feature weights of the distance, in FUTURE_FEATURES order. */
  weights?: readonly number[];
  /** Only the latest this many comparable seasons are kept (default 10). */
  maxSeasons?: number;
}

/** A comparable player-season, compact for the artifact. */
export interface Comparable {
  p: string; // player id
  s: number; // season start year
  v0: number; // value at the start, EUR
  v3: number; // value 3 years later, EUR
  r: number; // rating
  pt: number; // potential
  a: number; // age at the start
  pos: string;
  c: number; // category index
}

export interface FutureArtifact {
  kind: 'future';
  version: number;
  trainedAsOf: string;
  horizonYears: number;
  categories: typeof VALUE_CATEGORIES;
  settings: Required<Omit<FutureSettings, 'weights'>> & { weights: number[] };
  index: KnnIndex<Comparable>;
  /** Category frequencies per bucket (`GROUP|over30`), and over all comparables under '*'. */
  baseRates: Record<string, number[]>;
  stats: { comparables: number; seasons: number[] };
}

export interface FutureInput {
  playerId: string;
  clubId: string;
  baselineValueEur?: number | null;
}

export interface SimilarPlayer {
  player_id: string;
  name: string;
  initial_value: number;
  initial_rating: number;
  initial_potential: number;
  later_transfer_value: number;
  age: number;
  season: string;
  position: string;
  best_role: string;
}

export interface FutureOutput {
  futureValueEur: number;
  /** 80% range of the neighbours' ratios (weighted 10th and 90th percentiles) times the baseline. */
  lowEur: number;
  highEur: number;
  baselineValueEur: number;
  valueCategory: ValueCategory;
  probabilities: Record<ValueCategory, number>;
  sampleSize: number;
  overThirty: boolean;
  similarPlayers: SimilarPlayer[];
}

/** True when the player is older than 30 at some point of the horizon. */
export function overThirtyDuring(age: number, horizonYears = HORIZON_YEARS): boolean {
  return Number.isFinite(age) && age + horizonYears > 30;
}

function bucketOf(position: string, age: number): string {
  return `${positionGroupOf(position)}|${overThirtyDuring(age) ? 1 : 0}`;
}

function queryFeatures(rating: number, potential: number, age: number, relLogValue: number, relClub: number): number[] {
  return [rating, potential, age, relLogValue, relClub];
}

export function fitFutureModel(snapshot: Snapshot, ratingArtifact: RatingArtifact, settings: FutureSettings = {}): FutureArtifact {
  const idx = featureIndex(snapshot);
  const resolved = {
    k: settings.k ?? 50,
    priorStrength: settings.priorStrength ?? 5,
    weights: [...(settings.weights ?? [1, 1, 1.5, 1, 0.7])],
    maxSeasons: settings.maxSeasons ?? 10,
  };
  // Outcomes must be observed: the horizon ends on or before the as-of date and the last value in the data.
  let lastValueDay = 0;
  for (const s of idx.values.values()) if (s.days.length > 0) lastValueDay = Math.max(lastValueDay, s.days[s.days.length - 1]);
  const dataEnd = isoOfDay(Math.min(lastValueDay, dayOf(snapshot.asOf)));
  const lastSeason = Number(dataEnd.slice(0, 4)) - HORIZON_YEARS - (dataEnd.slice(5) >= '06-30' ? 0 : 1);
  const seasons: number[] = [];
  for (let s = lastSeason; s > lastSeason - resolved.maxSeasons; s--) seasons.unshift(s);
  const rows: { features: number[]; category: string; payload: Comparable }[] = [];
  const counts: Record<string, number[]> = { '*': new Array<number>(6).fill(0) };
  for (const pid of [...idx.values.keys()].sort()) {
    if (!snapshot.players.has(pid)) continue;
    const position = positionOf(idx, pid);
    for (const s of seasons) {
      const d0 = `${s}-06-30`;
      const d3 = addYears(d0, HORIZON_YEARS);
      if (d3 > dataEnd) continue;
      const lv0 = logValueAt(idx, pid, d0, 365);
      if (!Number.isFinite(lv0)) continue;
      const v3 = latestValue(idx, pid, d3)?.valueEur ?? 0;
      if (!(v3 > 0)) continue;
      const v0 = Math.exp(lv0);
      const r = rateAt(ratingArtifact, idx, pid, d0, position);
      if (!Number.isFinite(r.age)) continue;
      const infl = inflationAt(idx, d0);
      const club = clubStrengthAt(idx, clubAt(idx, pid, d0), d0) - infl;
      const c = categoryOf(v3 / v0);
      const bucket = bucketOf(position, r.age);
      (counts[bucket] ??= new Array<number>(6).fill(0))[c]++;
      counts['*'][c]++;
      rows.push({
        features: queryFeatures(r.rating, r.potential, r.age, lv0 - infl, club),
        category: bucket,
        payload: { p: pid, s, v0, v3, r: Math.round(r.rating), pt: Math.round(r.potential), a: Math.floor(r.age), pos: position, c },
      });
    }
  }
  if (rows.length < 20) throw new Error(`future model: ${rows.length} comparable player-seasons before ${snapshot.asOf}, need at least 20`);
  const baseRates: Record<string, number[]> = {};
  for (const [k, c] of Object.entries(counts)) {
    const n = c.reduce((a, b) => a + b, 0);
    // Add-one smoothing keeps every category possible.
    baseRates[k] = c.map((x) => (x + 1) / (n + c.length));
  }
  const index = buildIndex(rows, { weights: resolved.weights, categoryMode: 'exact', missingPenalty: 1 });
  return {
    kind: 'future',
    version: FUTURE_MODEL_VERSION,
    trainedAsOf: snapshot.asOf,
    horizonYears: HORIZON_YEARS,
    categories: VALUE_CATEGORIES,
    settings: resolved,
    index,
    baseRates,
    stats: { comparables: rows.length, seasons },
  };
}

function weightedQuantile(values: number[], weights: number[], q: number): number {
  const order = values.map((_, i) => i).sort((a, b) => values[a] - values[b]);
  const total = weights.reduce((a, b) => a + b, 0);
  let acc = 0;
  for (const i of order) {
    acc += weights[i];
    if (acc >= q * total) return values[i];
  }
  return values[order[order.length - 1]];
}

export interface FutureQueryAt {
  playerId: string;
  clubId: string | null;
  at: string;
  baselineValueEur?: number | null;
}

/** The prediction read at an explicit date of the snapshot (backtests), else use predictFuture. */
export function predictFutureAt(future: FutureArtifact, rating: RatingArtifact, snapshot: Snapshot, q: FutureQueryAt): FutureOutput {
  const idx: FeatureIndex = featureIndex(snapshot);
  const player = snapshot.players.get(q.playerId);
  if (!player) throw new RangeError(`unknown player ${q.playerId}`);
  const position = positionOf(idx, q.playerId);
  const r = rateAt(rating, idx, q.playerId, q.at, position);
  const age = Number.isFinite(r.age) ? r.age : ageAt(idx, q.playerId, q.at);
  const infl = inflationAt(idx, q.at);
  const ownValue = latestValue(idx, q.playerId, q.at)?.valueEur ?? 0;
  const baseline = q.baselineValueEur ?? ownValue;
  const lv = ownValue > 0 ? Math.log(ownValue) : baseline > 0 ? Math.log(baseline) : NaN;
  const club = clubStrengthAt(idx, q.clubId, q.at) - infl;
  const bucket = bucketOf(position, age);
  const over30 = overThirtyDuring(age);
  const k = future.settings.k;
  const neighbours = nearest(future.index, { features: queryFeatures(r.rating, r.potential, age, lv - infl, club), category: bucket }, k);

  const base = future.baseRates[bucket] ?? future.baseRates['*'];
  const weights = neighbours.map((n) => 1 / (0.25 + n.distance));
  const wSum = weights.reduce((a, b) => a + b, 0);
  const probs = new Array<number>(CATEGORY_NAMES.length).fill(0);
  neighbours.forEach((n, i) => (probs[n.payload.c] += weights[i] / wSum));
  const m = neighbours.length;
  const a = future.settings.priorStrength;
  for (let c = 0; c < probs.length; c++) probs[c] = (m * probs[c] + a * base[c]) / (m + a);
  const total = probs.reduce((x, y) => x + y, 0);
  const probabilities = Object.fromEntries(CATEGORY_NAMES.map((name, c) => [name, probs[c] / total])) as Record<ValueCategory, number>;
  let best = 0;
  for (let c = 1; c < probs.length; c++) if (probs[c] > probs[best]) best = c;

  const logRatios = neighbours.map((n) => Math.log(n.payload.v3 / n.payload.v0));
  const centre = m > 0 ? Math.exp(weightedQuantile(logRatios, weights, 0.5)) : 1;
  const low = m > 0 ? Math.exp(weightedQuantile(logRatios, weights, 0.1)) : 1;
  const high = m > 0 ? Math.exp(weightedQuantile(logRatios, weights, 0.9)) : 1;

  const similarPlayers: SimilarPlayer[] = neighbours.slice(0, 10).map((n) => {
    const c = n.payload;
    const p = snapshot.players.get(c.p);
    return {
      player_id: c.p,
      name: p?.name ?? c.p,
      initial_value: c.v0,
      initial_rating: c.r,
      initial_potential: c.pt,
      later_transfer_value: c.v3,
      age: c.a,
      season: seasonLabel(c.s),
      position: c.pos,
      best_role: p ? bestRole(p, c.pos, c.r, c.a) : '',
    };
  });
  return {
    futureValueEur: baseline * centre,
    lowEur: baseline * low,
    highEur: baseline * high,
    baselineValueEur: baseline,
    valueCategory: CATEGORY_NAMES[best],
    probabilities,
    sampleSize: m,
    overThirty: over30,
    similarPlayers,
  };
}

/**
 * Future value from the snapshot's as-of date, for the player joining `clubId`; the baseline
 * defaults to his latest market value (the endpoint may pass the expected fee).
 */
export function predictFuture(future: FutureArtifact, rating: RatingArtifact, snapshot: Snapshot, input: FutureInput): FutureOutput {
  return predictFutureAt(future, rating, snapshot, { playerId: input.playerId, clubId: input.clubId, at: snapshot.asOf, baselineValueEur: input.baselineValueEur });
}

/** His own club at the as-of date, for callers without a target club (squad totals). */
export function ownClubOf(snapshot: Snapshot, playerId: string): string | null {
  const p = snapshot.players.get(playerId);
  return p ? playerFacts(snapshot, p).owningClubId : null;
}
