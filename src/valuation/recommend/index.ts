/**
 * Who should a club sign at one position: every eligible player ranked by the return on investment
 * /get_roi_analysis answers for him and that club with no fee and no wage given (the fee is then
 * the expected fee of a move to that club). Pure: snapshot and models in, typed results out.
 *
 * Ranking thousands of players by the exact simulation would take minutes, so it goes in two steps:
 *   1. the screen: for every eligible player, the exact fee and future value (cheap) and an
 *      estimate of the on-field value from the club's screen (screen.ts), giving an estimated ROI;
 *   2. the exact ROI (roi, the very function of /get_roi_analysis) for the best `shortlist`
 *      of the screen, which http/ ranks by it as shown: return_on_investment (highest first, null
 *      last), then total_value_created, then player id.
 * Every number shown comes from step 2. The club's screen, the fees and the future values are kept
 * per snapshot, models, club and position, so a second request for that club and position (other
 * filters, limit or currency) costs only the exact runs it has not made yet.
 */
import { playerFacts } from '../../domain/player-facts.js';
import type { PositionCode } from '../../domain/positions.js';
import type { Snapshot } from '../../domain/snapshot.js';
import { roi as roiOfSigning, type RoiResult } from '../analysis.js';
import type { ModelBundle } from '../bundle.js';
import { predictFeePoint } from '../fee/index.js';
import { predictFutureMedian } from '../future/index.js';
import { ImpactError, type ImpactArtifact } from '../impact/index.js';
import { HORIZON_SEASONS, ratedPlayer, ratingIn, type RatedPlayer } from '../impact/model.js';
import { clubScreen, screenedOnFieldValueEur, type ClubScreen } from './screen.js';
import { memoFor, memoTable } from '../../domain/memo.js';

export { clubScreen, screenedOnFieldValueEur, SCREEN_GRID, type ClubScreen } from './screen.js';

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
 * Players of the screen given the exact run, whatever the limit (at most 25): a smaller limit then
 * answers the first candidates of a larger one. Chosen by the recall bench/recommend.ts measures.
 */
export const SHORTLIST = 25;

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
  /** the expected fee of a move to the club, as /get_roi_analysis takes it (EUR) */
  feeEur: number;
  /** the future value /get_roi_analysis shows (EUR) */
  futureEur: number;
  /** the screen's estimate of on_field_value (EUR) */
  onFieldEur: number;
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
    if (own.has(p.playerId) || p.currentTeamId === clubId || p.owningClubId === clubId) continue;
    // the same calls as roi: the fee of a move to the club, the future value framed by it
    const feeEur = predictFeePoint(bundle.fee, snapshot, { playerId: p.playerId, targetClubId: clubId });
    const futureEur = predictFutureMedian(bundle.future, bundle.rating, snapshot, { playerId: p.playerId, clubId, baselineValueEur: feeEur });
    players.push({ ...p, feeEur, futureEur, onFieldEur: screenedOnFieldValueEur(screen, p.seasonRatings) });
  }
  return { screen, players };
}

const SCREENS_KEPT = 64;

/** screenPosition, kept per snapshot, models, club and position (the most recent SCREENS_KEPT). */
export function screenedPosition(bundle: ModelBundle, snapshot: Snapshot, clubId: string, position: PositionCode): ScreenedPosition {
  const bySnapshot = memoTable<ScreenedPosition>(snapshot, 'recommend.screened');
  const key = `${bundle.version}|${clubId}|${position}`;
  let found = bySnapshot.get(key);
  if (found) {
    bySnapshot.delete(key);
  } else {
    found = screenPosition(bundle, snapshot, clubId, position);
    if (bySnapshot.size >= SCREENS_KEPT) bySnapshot.delete(bySnapshot.keys().next().value as string);
  }
  bySnapshot.set(key, found);
  return found;
}

function impactOf(bundle: ModelBundle): ImpactArtifact {
  if (!bundle.impact) throw new ImpactError('no_training_data', 'the models were trained on data without league results');
  return bundle.impact;
}

/** Players of the screen within the query's plan and limits, best estimated ROI first. */
export function eligibleByScreen(snapshot: Snapshot, screenedPlayers: readonly ScreenedPlayer[], q: RecommendQuery): ScreenedPlayer[] {
  let clubs: Set<string> | null = null;
  if (q.competitions !== null) {
    clubs = new Set();
    for (const c of q.competitions) for (const club of snapshot.clubsOfCompetition.get(c) ?? []) clubs.add(club);
  }
  const out = screenedPlayers.filter((p) => {
    if (!q.covered(p.currentTeamId, p.owningClubId)) return false;
    if (clubs !== null && (p.currentTeamId === null || !clubs.has(p.currentTeamId))) return false;
    if (q.maxAge !== null && (p.age === null || p.age > q.maxAge)) return false;
    // the fee as the answer shows it, so the filter and the number agree
    if (q.feeAllowed !== null && !q.feeAllowed(p.feeEur)) return false;
    return true;
  });
  const score = (p: ScreenedPlayer) => (p.feeEur > 0 ? (p.onFieldEur + p.futureEur) / p.feeEur : Number.NEGATIVE_INFINITY);
  const scores = new Map(out.map((p) => [p, score(p)]));
  return out.sort((a, b) => scores.get(b)! - scores.get(a)! || b.onFieldEur + b.futureEur - (a.onFieldEur + a.futureEur) || (a.playerId < b.playerId ? -1 : 1));
}

/** The exact ROI of each of the screen's best for the club. */
export interface Recommendation {
  clubId: string;
  position: PositionCode;
  /** the analysis season, the first of the 3 simulated */
  season: number;
  candidatesConsidered: number;
  /** the screen's best (at least `limit`), each with his exact ROI, in the screen's order */
  shortlist: { player: PoolPlayer; roi: RoiResult }[];
}

/** POST /v1/recommend_signings's result (see the header); http/ orders it as shown. Throws ImpactError like /get_roi_analysis. */
export function recommendSignings(bundle: ModelBundle, snapshot: Snapshot, q: RecommendQuery, opts: RecommendOptions = {}): Recommendation {
  const { players } = opts.screen ?? screenedPosition(bundle, snapshot, q.clubId, q.position);
  const eligible = eligibleByScreen(snapshot, players, q);
  const roi = opts.roi ?? ((playerId: string) => roiOfSigning(bundle, snapshot, { playerId, clubId: q.clubId, feeEur: null, annualWageEur: null }));
  const shortlist = eligible.slice(0, Math.max(q.limit, opts.shortlist ?? SHORTLIST));
  return {
    clubId: q.clubId,
    position: q.position,
    season: snapshot.analysisSeason,
    candidatesConsidered: eligible.length,
    shortlist: shortlist.map((p) => ({ player: p, roi: roi(p.playerId) })),
  };
}
