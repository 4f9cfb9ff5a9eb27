/**
 * Who should a club sign at one position: every eligible player ranked by what /get_roi_analysis
 * answers for him and that club with no fee given (the fee is then the expected fee of a move to
 * that club) and the caller's wage, by default by the value the signing leaves the club once paid
 * for (net value created). Pure: snapshot and models in, typed results out.
 *
 * Ranking thousands of players by the exact simulation would take minutes, so it goes in two steps:
 *   1. the screen: for every player of the position, estimates of the on-field value and the
 *      playing time from the club's screen (screen.ts); players the screen expects to play well
 *      under the minimum are dropped, the rest get the exact fee and future value (priced only
 *      then: most of a position would not play) and are ordered by the sort's estimate;
 *   2. the exact ROI (roi, the very function of /get_roi_analysis) in that order, keeping those
 *      whose exact playing time reaches the minimum, until max(limit, SHORTLIST) are kept (or
 *      MAX_EXACT_EXTRA runs more than that);
 *      http/ ranks them by the sort on the numbers as shown.
 * Every number shown comes from step 2. The club's screen, the fees and the future values are kept
 * per snapshot, models, club and position, so a second request for that club and position (other
 * filters, limit or currency) costs only the exact runs it has not made yet.
 */
import { LRUCache } from 'lru-cache';
import { playerFacts } from '../../domain/player-facts.js';
import type { PositionCode } from '../../domain/positions.js';
import type { Snapshot } from '../../domain/snapshot.js';
import { roi as roiOfSigning, type RoiResult } from '../analysis.js';
import type { ModelBundle } from '../bundle.js';
import { predictFeePoint } from '../fee/index.js';
import { predictFutureMedian } from '../future/index.js';
import { ImpactError, roiOf, type ImpactArtifact } from '../impact/index.js';
import { HORIZON_SEASONS, ratedPlayer, ratingIn, type RatedPlayer } from '../impact/model.js';
import { roundMoney } from '../../money/convert.js';
import { clubScreen, screenedOnFieldValueEur, screenedPlayingTime, type ClubScreen } from './screen.js';
import { isSideOf } from '../../domain/club-sides.js';
import { memoFor } from '../../domain/memo.js';

export { clubScreen, screenedOnFieldValueEur, screenedPlayingTime, SCREEN_GRID, type ClubScreen } from './screen.js';
export { isSideOf } from '../../domain/club-sides.js';

/** What the list is ordered by, highest first. */
export const RECOMMEND_SORTS = [
  'net_value_created', 'total_value_created', 'return_on_investment', 'on_field_value', 'future_transfer_value', 'expected_transfer_value',
] as const;
export type RecommendSort = (typeof RECOMMEND_SORTS)[number];

export interface RecommendQuery {
  clubId: string;
  position: PositionCode;
  /** Whether an expected fee (EUR) is within the caller's limit, as the answer shows it; null: no limit. */
  feeAllowed: ((feeEur: number) => boolean) | null;
  maxAge: number | null;
  /** Competition ids whose current clubs are searched; null: everything the plan covers. */
  competitions: readonly string[] | null;
  limit: number;
  /** The caller's plan, as CONVENTIONS.md covers a player: by his current team or his owning club. */
  covered: (currentTeamId: string | null, owningClubId: string | null) => boolean;
  /** The yearly wage assumed for every candidate (EUR); null: no wage counted. */
  annualWageEur: number | null;
  /** Whether an exact playing time (0-0.9, as /get_sportive_impact shows it) reaches the caller's minimum. */
  playsEnough: (playingTime: number) => boolean;
  /** The minimum as a share (0-1), for the screen's estimate. */
  minPlayingTime: number;
  sort: RecommendSort;
}

export interface RecommendOptions {
  /** Players of the screen given the exact run; default SHORTLIST. */
  shortlist?: number;
  /** The exact ROI of a player for the club (a cache may stand in front of it); default valuation's roi. */
  roi?: (playerId: string) => RoiResult;
  /** The club's screen for the position; default the one kept by screenedPosition. */
  screen?: ScreenedPosition;
}

/**
 * Candidates kept from the exact runs for a limit up to it: a limit up to SHORTLIST answers the first
 * candidates of a larger one. 15 keeps the cold call within 1 s (an exact run costs about 30 ms of
 * CPU on the real data) at a recall of the true top 10 of 9.75 (bench/recommend.ts).
 */
export const SHORTLIST = 15;
/** Exact runs at most beyond those kept: the screen's playing time is an estimate, some fall short. */
export const MAX_EXACT_EXTRA = 5;
/** How far under the minimum the screen's playing time may be and still get an exact run. */
export const PLAYING_TIME_SLACK = 0.1;

/** A player who may be recommended at his position: analysis data and a recent rating (the impact model needs one). */
export interface PoolPlayer {
  playerId: string;
  currentTeamId: string | null;
  owningClubId: string | null;
  age: number | null;
  rated: RatedPlayer;
  /** his rating in each season of the horizon (the age curve's), what the screen reads */
  seasonRatings: number[];
}

/** Players at a club now, by position (the position the API shows), in player-id order; once per snapshot and models. */
export function positionPools(artifact: ImpactArtifact, snapshot: Snapshot): Map<string, PoolPlayer[]> {
  return memoFor([artifact, snapshot], 'recommend.position-pools', () => buildPositionPools(artifact, snapshot));
}

function buildPositionPools(artifact: ImpactArtifact, snapshot: Snapshot): Map<string, PoolPlayer[]> {
  const out = new Map<string, PoolPlayer[]>();
  const ids = [...snapshot.players.keys()].sort();
  for (const id of ids) {
    const player = snapshot.players.get(id)!;
    const facts = playerFacts(snapshot, player);
    // Only players one could sign: at a club now, with analysis data.
    if (!player.analysis_available || !facts.inWorldNow) continue;
    const rated = ratedPlayer(snapshot, id, artifact.settings);
    if (!rated) continue;
    let list = out.get(facts.position);
    if (!list) out.set(facts.position, (list = []));
    const seasonRatings = Array.from({ length: HORIZON_SEASONS }, (_, k) => ratingIn(artifact.ageCurve, rated, snapshot.analysisSeason + k));
    list.push({ playerId: id, currentTeamId: facts.currentTeamId, owningClubId: facts.owningClubId, age: facts.age, rated, seasonRatings });
  }
  return out;
}

/** What the screen knows of each player of a position for one club. */
export interface ScreenedPlayer extends PoolPlayer {
  /** the expected fee of a move to the club, as /get_roi_analysis takes it (EUR); priced on first read */
  readonly feeEur: number;
  /** the future value /get_roi_analysis shows (EUR); priced on first read */
  readonly futureEur: number;
  /** the screen's estimate of on_field_value (EUR) */
  onFieldEur: number;
  /** the screen's estimate of playing_time_percentage (0-0.9) */
  playingTime: number;
}

export interface ScreenedPosition {
  screen: ClubScreen;
  players: ScreenedPlayer[];
}

/** The club's screen for a position and every player of that position through it, but the club's own. */
export function screenPosition(bundle: ModelBundle, snapshot: Snapshot, clubId: string, position: PositionCode): ScreenedPosition {
  const artifact = impactOf(bundle);
  const screen = clubScreen(artifact, snapshot, clubId, position);
  const own = new Set(snapshot.squads.get(clubId) ?? []);
  const players: ScreenedPlayer[] = [];
  for (const p of positionPools(artifact, snapshot).get(position) ?? []) {
    if (own.has(p.playerId) || isSideOf(snapshot, clubId, p.currentTeamId) || isSideOf(snapshot, clubId, p.owningClubId)) continue;
    // The same calls as roi: the fee of a move to the club, the future value framed by it. Priced when
    // first read, so only for players who pass the cheaper filters (most of a position would not play).
    let fee: number | undefined, future: number | undefined;
    const feeOf = () => (fee ??= predictFeePoint(bundle.fee, snapshot, { playerId: p.playerId, targetClubId: clubId }));
    players.push({
      ...p,
      get feeEur() { return feeOf(); },
      get futureEur() { return (future ??= predictFutureMedian(bundle.future, bundle.rating, snapshot, { playerId: p.playerId, clubId, baselineValueEur: feeOf() })); },
      onFieldEur: screenedOnFieldValueEur(screen, p.seasonRatings),
      playingTime: screenedPlayingTime(screen, p.seasonRatings),
    });
  }
  return { screen, players };
}

export const SCREENS_KEPT = 64;

/** screenPosition, kept per snapshot, models, club and position (the most recent SCREENS_KEPT). */
export function screenedPosition(bundle: ModelBundle, snapshot: Snapshot, clubId: string, position: PositionCode): ScreenedPosition {
  const kept = memoFor(snapshot, 'recommend.screened', () => new LRUCache<string, ScreenedPosition>({ max: SCREENS_KEPT }));
  const key = `${bundle.version}|${clubId}|${position}`;
  let found = kept.get(key);
  if (!found) kept.set(key, (found = screenPosition(bundle, snapshot, clubId, position)));
  return found;
}

function impactOf(bundle: ModelBundle): ImpactArtifact {
  if (!bundle.impact) throw new ImpactError('no_training_data', 'the models were trained on data without league results');
  return bundle.impact;
}

/** The screen's estimate of the number the query sorts by (a cost of 0 gives no ROI: last). */
export function screenedSortValue(p: ScreenedPlayer, sort: RecommendSort, annualWageEur: number | null): number {
  const total = p.onFieldEur + p.futureEur;
  const cost = p.feeEur + 3 * (annualWageEur ?? 0);
  switch (sort) {
    case 'net_value_created': return total - cost;
    case 'total_value_created': return total;
    case 'return_on_investment': return cost > 0 ? total / cost : Number.NEGATIVE_INFINITY;
    case 'on_field_value': return p.onFieldEur;
    case 'future_transfer_value': return p.futureEur;
    case 'expected_transfer_value': return p.feeEur;
  }
}

/**
 * Players of the screen within the query's plan and limits whom the screen expects to play near the
 * minimum at least, best estimate of the sort first.
 */
export function eligibleByScreen(snapshot: Snapshot, screenedPlayers: readonly ScreenedPlayer[], q: RecommendQuery): ScreenedPlayer[] {
  let clubs: Set<string> | null = null;
  if (q.competitions !== null) {
    clubs = new Set();
    for (const c of q.competitions) for (const club of snapshot.clubsOfCompetition.get(c) ?? []) clubs.add(club);
  }
  // The cheap tests first: the fee and the future value are priced only for those who pass them.
  const out = screenedPlayers.filter((p) => {
    if (p.playingTime < q.minPlayingTime - PLAYING_TIME_SLACK) return false;
    if (!q.covered(p.currentTeamId, p.owningClubId)) return false;
    if (clubs !== null && (p.currentTeamId === null || !clubs.has(p.currentTeamId))) return false;
    if (q.maxAge !== null && (p.age === null || p.age > q.maxAge)) return false;
    // the fee as the answer shows it, so the filter and the number agree
    return q.feeAllowed === null || q.feeAllowed(p.feeEur);
  });
  const scores = new Map(out.map((p) => [p, screenedSortValue(p, q.sort, q.annualWageEur)]));
  return out.sort((a, b) => scores.get(b)! - scores.get(a)! || b.onFieldEur + b.futureEur - (a.onFieldEur + a.futureEur) || (a.playerId < b.playerId ? -1 : 1));
}

/** The exact ROI of each of the screen's best for the club. */
export interface Recommendation {
  clubId: string;
  position: PositionCode;
  /** the analysis season, the first of the 3 simulated */
  season: number;
  /** players within the limits whom the screen expects to play near the minimum at least */
  candidatesConsidered: number;
  /** the screen's best whose exact playing time reaches the minimum, each with his exact ROI (the caller's wage counted), in the screen's order */
  shortlist: { player: PoolPlayer; roi: RoiResult }[];
}

/** roi with no wage, the wage then counted as /get_roi_analysis counts it: only the ratio depends on it. */
export function withWage(r: RoiResult, annualWageEur: number | null): RoiResult {
  return annualWageEur === null ? r : { ...r, returnOnInvestment: roiOf(r.totalValueCreatedEur, roundMoney(r.feeEur), annualWageEur) };
}

/** POST /v1/recommend_signings's result (see the header); http/ orders it as shown. Throws ImpactError like /get_roi_analysis. */
export function recommendSignings(bundle: ModelBundle, snapshot: Snapshot, q: RecommendQuery, opts: RecommendOptions = {}): Recommendation {
  const { players } = opts.screen ?? screenedPosition(bundle, snapshot, q.clubId, q.position);
  const eligible = eligibleByScreen(snapshot, players, q);
  const roi = opts.roi ?? ((playerId: string) => roiOfSigning(bundle, snapshot, { playerId, clubId: q.clubId, feeEur: null, annualWageEur: null }));
  const wanted = Math.max(q.limit, opts.shortlist ?? SHORTLIST);
  const shortlist: Recommendation['shortlist'] = [];
  for (let i = 0; i < eligible.length && i < wanted + MAX_EXACT_EXTRA && shortlist.length < wanted; i++) {
    const r = roi(eligible[i].playerId);
    if (q.playsEnough(r.impact.playingTimePercentage)) shortlist.push({ player: eligible[i], roi: withWage(r, q.annualWageEur) });
  }
  return {
    clubId: q.clubId,
    position: q.position,
    season: snapshot.analysisSeason,
    candidatesConsidered: eligible.length,
    shortlist,
  };
}
