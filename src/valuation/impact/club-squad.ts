/**
 * The squad a club is simulated with, and what it was completed with.
 *
 * A club of the analysis season in its current league plays its rated players with analysis data
 * (model.ts, `currentSquad`); an empty slot goes to a youth stand-in (replacementRating).
 *
 * A club newly named for a league (`leagues set-clubs`: promoted, or moved from another league)
 * has its squad from the evidence up to the as-of date (players registered there, transfers in and
 * out, which the careers hold), and that evidence is thin when it played outside the covered
 * leagues. Its squad is completed to a full one (two of each slot of a 4-3-3) with stand-ins at the
 * level promoted clubs of that league actually reached in their first season (league/promoted.ts):
 * the rating whose squad the tie maps to the goals they scored and conceded. Its own players play
 * when they are better; a signing is weighed against that level, not against youth players.
 * Its place is then a blend of the rank that squad gives and where the league's promoted clubs
 * finished (league/promoted.ts, `PromotedBlend`): its attack and defence are shifted to that place.
 */
import { memoFor, memoTable } from '../../domain/memo.js';
import type { Snapshot } from '../../domain/snapshot.js';
import { POSITION_GROUP, type PositionCode } from '../../domain/positions.js';
import type { SquadFeatures } from '../league/squad.js';
import { blendedPlace, expectedPlaces, placeCurve, promotedLevel, rankScale, shiftForPlace } from '../league/promoted.js';
import { currentSquad, featuresOf, leagueMatchModel, squadAt, strengthOf, HORIZON_SEASONS, type ImpactArtifact, type LeagueTieContext, type RatedPlayer } from './model.js';

/** Two of each slot of a 4-3-3: the full squad a newly named club is completed to. */
const FULL_SQUAD: readonly PositionCode[] = [
  'GK', 'GK', 'CB', 'CB', 'LB', 'RB', 'CB', 'CB', 'LB', 'RB', 'CDM', 'CM', 'CM', 'CDM', 'CM', 'CM', 'ST', 'LW', 'RW', 'ST', 'LW', 'RW',
];

/** Players with analysis data under which a squad is thin (the `thin_squad` warning). */
export const THIN_SQUAD = 18;

const FILL_PREFIX = '~fill:';

/** True for a stand-in of a completed squad (never a real player id). */
export function isStandIn(playerId: string): boolean {
  return playerId.startsWith(FILL_PREFIX);
}

/** True when the club plays the analysis season in a league other than its current one. */
export function newlyNamed(snapshot: Snapshot, club: string): boolean {
  const league = snapshot.analysisLeagueOfClub.get(club);
  return league !== undefined && league !== snapshot.leagueOfClub.get(club);
}

const PROBE = 60;

function standIns(club: string, positions: readonly PositionCode[], rating: number, season: number): RatedPlayer[] {
  return positions.map((position, i) => ({
    playerId: `${FILL_PREFIX}${club}:${i}`, position, rating, potential: rating,
    // rated in the last simulated season, so the age curve never moves them
    ratingSeason: season + HORIZON_SEASONS, age: 27,
  }));
}

/** How far the match-day XI of a squad of stand-ins falls below their rating (absences, form, off-position cover). */
function shortfall(artifact: ImpactArtifact): number {
  return memoFor(artifact, 'impact.stand-in-shortfall', () =>
    PROBE - featuresOf(squadAt(artifact.ageCurve, standIns('probe', FULL_SQUAD, PROBE, 0), null), artifact.settings, 0).xi);
}

/**
 * Rating of the stand-ins that complete a newly named club in `league`: the XI rating at which the
 * tie gives the learned attack and defence of the league's promoted clubs (goals scored and
 * conceded against the league's average; least squares over the two), plus the match-day shortfall
 * of a squad of stand-ins. Null when the model holds no tie context for the league. Once per model
 * and league. (Placing them instead at the strength of the league's club at their mean finish was
 * tried and scored worse in the league backtest: docs/models.md.)
 */
export function fillRating(artifact: ImpactArtifact, league: string): number | null {
  const byLeague = memoTable<number | null>(artifact, 'impact.fill-rating');
  if (!byLeague.has(league)) byLeague.set(league, computeFill(artifact, league));
  return byLeague.get(league)!;
}

function computeFill(artifact: ImpactArtifact, league: string): number | null {
  const ctx = artifact.leagues[league];
  if (!ctx || !artifact.promoted) return null;
  const level = promotedLevel(artifact.promoted, league);
  const ba = artifact.tie.attack.beta.xi, bd = artifact.tie.defence.beta.xi;
  const denominator = ba * ba + bd * bd;
  const offset = denominator > 0 ? (ba * level.attack + bd * level.defence) / denominator : 0;
  const r = ctx.featureMean.xi + offset + shortfall(artifact);
  return Math.min(99, Math.max(artifact.settings.replacementRating, r));
}

/** The positions a squad lacks for a full one, slot by slot. */
function missingSlots(squad: readonly { position: PositionCode }[]): PositionCode[] {
  const have = new Map<PositionCode, number>();
  for (const p of squad) have.set(p.position, (have.get(p.position) ?? 0) + 1);
  const groupSpare = new Map<string, number>();
  const missing: PositionCode[] = [];
  for (const pos of FULL_SQUAD) {
    const n = have.get(pos) ?? 0;
    if (n > 0) have.set(pos, n - 1);
    else missing.push(pos);
  }
  // a player at a position the template lacks (a LWB, a CAM) fills a missing slot of his group
  for (const [pos, n] of have) if (n > 0) groupSpare.set(POSITION_GROUP[pos], (groupSpare.get(POSITION_GROUP[pos]) ?? 0) + n);
  return missing.filter((pos) => {
    const g = POSITION_GROUP[pos];
    const spare = groupSpare.get(g) ?? 0;
    if (spare > 0 && g !== 'GK') { groupSpare.set(g, spare - 1); return false; }
    return true;
  });
}

/** The squad with the stand-ins a newly named club is completed with (none for other clubs). */
export function completeSquad(artifact: ImpactArtifact, snapshot: Snapshot, club: string, squad: readonly RatedPlayer[]): RatedPlayer[] {
  if (!newlyNamed(snapshot, club)) return [...squad];
  const rating = fillRating(artifact, snapshot.analysisLeagueOfClub.get(club)!);
  if (rating === null) return [...squad];
  return [...squad, ...standIns(club, missingSlots(squad), rating, snapshot.analysisSeason)];
}

/** The club's actual squad as simulated: its rated players with analysis data, completed when newly named. */
export function clubSquad(artifact: ImpactArtifact, snapshot: Snapshot, club: string): RatedPlayer[] {
  return completeSquad(artifact, snapshot, club, currentSquad(snapshot, club, artifact.settings));
}

export interface SquadEvidence {
  /** players with analysis data the club is simulated with */
  players: number;
  /** stand-ins added, and their rating: the promoted level for a newly named club, youth players otherwise */
  standIns: number;
  standInRating: number;
  newlyNamed: boolean;
}

/** What the club's actual squad holds and how it was completed (for the `thin_squad` warning). */
export function squadEvidence(artifact: ImpactArtifact, snapshot: Snapshot, club: string): SquadEvidence {
  const own = currentSquad(snapshot, club, artifact.settings);
  const full = completeSquad(artifact, snapshot, club, own);
  const added = full.length - own.length;
  return {
    players: own.length,
    standIns: added,
    standInRating: added > 0 ? full[full.length - 1].rating : artifact.settings.replacementRating,
    newlyNamed: newlyNamed(snapshot, club),
  };
}

/** True when the artifact's club baselines were computed on this snapshot and may be reused. */
export function baselinesValid(artifact: ImpactArtifact, snapshot: Snapshot): boolean {
  return artifact.dataVersion === snapshot.dataVersion && artifact.fittedAsOf === snapshot.asOf;
}

// Clubs the artifact does not hold (newly named for a league) or another snapshot's squads: their
// match days are simulated once per model and snapshot, not per request.

/** Features of a club's actual squad (as simulated) in horizon season k (0 = analysis season). */
export function baselineFeatures(artifact: ImpactArtifact, snapshot: Snapshot, club: string, k: number): SquadFeatures {
  const cached = baselinesValid(artifact, snapshot) && !newlyNamed(snapshot, club) ? artifact.clubs[club] : undefined;
  if (cached && k < cached.seasons.length) return cached.seasons[k];
  const byClub = memoTable<SquadFeatures>([artifact, snapshot], 'impact.baseline-features');
  const key = `${club}|${k}`;
  const hit = byClub.get(key);
  if (hit) return hit;
  const f = featuresOf(squadAt(artifact.ageCurve, clubSquad(artifact, snapshot, club), snapshot.analysisSeason + k), artifact.settings, k);
  byClub.set(key, f);
  return f;
}

/** Where a newly named club is expected to finish (shares of the table: 0 first, 1 last) and the strength that gives it. */
export interface PromotedStrength {
  /** where the league's promoted clubs finished (league/promoted.ts, `PromotedLevel.finish`) */
  priorPlace: number;
  /** where its actual completed squad puts it among the league's other clubs */
  squadPlace: number;
  /** the blend of the two that is simulated (settings `promotedBlend`) */
  blendedPlace: number;
  /** what is added to the squad's attack and defence to give the blended place */
  shift: number;
}

/**
 * The place parts of a newly named club with a learned promoted level (null for any other club).
 * Every club of its league at its actual squad's strength gives the expected places (league/promoted.ts);
 * the club's squad place is its rank among the others', the blended place a rank as well, and the
 * shift of its attack and defence gives the expected place that ranks there. Once per model,
 * snapshot and league.
 */
export function promotedStrength(artifact: ImpactArtifact, snapshot: Snapshot, club: string): PromotedStrength | null {
  const league = snapshot.analysisLeagueOfClub.get(club);
  if (!league || !newlyNamed(snapshot, club)) return null;
  const byLeague = memoTable<Map<string, PromotedStrength>>([artifact, snapshot], 'impact.promoted-strength');
  let parts = byLeague.get(league);
  if (!parts) byLeague.set(league, (parts = computePromoted(artifact, snapshot, league)));
  return parts.get(club) ?? null;
}

function computePromoted(artifact: ImpactArtifact, snapshot: Snapshot, league: string): Map<string, PromotedStrength> {
  const out = new Map<string, PromotedStrength>();
  const ctx = artifact.leagues[league];
  const members = snapshot.analysisClubsOfLeague.get(league) ?? [];
  const n = members.length;
  if (!ctx || n < 2 || !artifact.promoted || fillRating(artifact, league) === null) return out;
  const strengths = members.map((c) => strengthOf(artifact, ctx, c, baselineFeatures(artifact, snapshot, c, 0)));
  const table = {
    ...leagueMatchModel(artifact, league),
    attack: strengths.map((x) => x.attack), defence: strengths.map((x) => x.defence),
  };
  const places = expectedPlaces(table);
  const priorPlace = promotedLevel(artifact.promoted, league).finish;
  members.forEach((club, i) => {
    if (!newlyNamed(snapshot, club)) return;
    const scale = rankScale(places.filter((_, k) => k !== i));
    const squadPlace = (scale.rankOf(places[i]) - 1) / (n - 1);
    const blended = blendedPlace(artifact.settings.promotedBlend, priorPlace, squadPlace);
    const shift = shiftForPlace(placeCurve(table, i), scale.placeOfRank(1 + blended * (n - 1)));
    out.set(club, { priorPlace, squadPlace, blendedPlace: blended, shift });
  });
  return out;
}

/**
 * Attack and defence of `club` with a squad of features `f`: the tie's (model.ts, `strengthOf`),
 * and for a newly named club moved by the shift that takes its actual squad to the blended place,
 * so a changed squad still moves it along the full slope (a signing adds what he adds).
 */
export function clubStrength(artifact: ImpactArtifact, snapshot: Snapshot, ctx: LeagueTieContext, club: string, f: SquadFeatures): { attack: number; defence: number } {
  const s = strengthOf(artifact, ctx, club, f);
  const p = promotedStrength(artifact, snapshot, club);
  return p ? { attack: s.attack + p.shift, defence: s.defence + p.shift } : s;
}
