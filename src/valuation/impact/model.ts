/**
 * The impact model: results-based club strength (Dixon–Coles with time decay on domestic-league
 * matches up to the as-of date) tied to squad strength (the match-day XI rating from our ratings
 * of each club's current squad), so a what-if squad moves a club's attack and defence; plus the
 * age curve that moves ratings over the 3-season horizon.
 *
 * The match-day XI rating is the mean rating of the XI that takes the pitch over simulated match
 * days (players miss matches, form varies), not of the nominal best XI: a player adds to it only on
 * the days he starts, so what a signing adds follows his playing time, and a player who never
 * starts adds nothing. The nominal bench ("depth") gets no slope for the same reason; the match
 * days already count the bench through the days a starter is missing.
 *
 * The tie is fitted within leagues: attack, defence and the squad features are centred on their
 * league's (weighted) means before `fitTie`, so the slope is learned from how clubs of the same
 * league differ (strengths of clubs in separate leagues are not on one scale: the leagues never
 * meet). A club's strength with a squad of features f is then
 *   strengthFor(tie, club, f - leagueFeatureMean, residualWeight) + leagueStrengthMean,
 * which gives a club without results (a promoted club) its league's average plus the slope times
 * its squad's distance from the average (then shifted to the place the promoted blend gives:
 * club-squad.ts, `clubStrength`). A club with results keeps half its residual (settings
 * `residualWeight`): next season's results regress halfway from what past results say beyond the
 * squad towards what the squad says (tuned on the league backtest's origins before 2022).
 */
import { ImpactError } from './errors.js';
import type { Snapshot } from '../../domain/snapshot.js';
import type { RatingRow } from '../../domain/world.js';
import { isPositionCode, type PositionCode } from '../../domain/positions.js';
import { ageYears } from '../../domain/season.js';
import { defaultAgeCurve, fitAgeCurve, projectRating, type AgeCurve, type AgeCurveRow } from '../league/age-curve.js';
import { squadStrength, type SquadFeatures, type SquadPlayer } from '../league/squad.js';
import { keepMatchDays, squadStrengthWith } from '../league/match-days.js';
import { fitStrength, homeAdvantageIn, type MatchRow, type StrengthArtifact } from '../league/strength.js';
import { fitTie, strengthFor, type TieArtifact, type TieRow } from '../league/tie.js';
import { fitPromotedPrior, type PromotedBlend, type PromotedPrior } from '../league/promoted.js';
import type { GoalCeiling } from '../league/match.js';

/** artifact version: 10 adds the crowdless home offset of the strength fit and each league's own spread */
export const IMPACT_MODEL_VERSION = 10;
/** seasons simulated by sportive impact: the analysis season and the two after it */
export const HORIZON_SEASONS = 3;

export interface ImpactSettings {
  /** Dixon–Coles time decay per day; default ln 2 / 365 */
  decay?: number;
  /** Dixon–Coles ridge on attack and defence; default 2 */
  ridge?: number;
  /** matches older than this are not used; default 4 * 365 days */
  maxMatchAgeDays?: number;
  /** ridge of the strength/squad tie; default 0.05 */
  tieRidge?: number;
  /**
   * share of a club's tie residual (its results-based strength beyond what its squad predicts) kept
   * in every simulation; default 0.5, tuned on the league backtest's 2019-2021 origins only
   */
  residualWeight?: number;
  /** rating of a youth stand-in for an empty XI slot or bench place; default 40 */
  replacementRating?: number;
  /** a squad player counts only with a rating from this many seasons before the current one at most; default 1 */
  maxRatingAgeSeasons?: number;
  /** consecutive-season rating pairs needed to fit the age curve instead of the default; default 1000 */
  minAgeCurveRows?: number;
  /** standard error of every reported expected position; default 0.05 */
  targetStandardError?: number;
  /** cap of Monte Carlo runs per simulated season; default 100000 */
  maxRuns?: number;
  /**
   * simulated match days of the analysis season (and of the squads the tie is fitted on): the
   * start shares behind playing time and the match-day XI rating; default 150 (standard error of a
   * share <= 0.041)
   */
  shareDraws?: number;
  /** simulated match days of the two later seasons (strength only, no playing time); default 60 */
  laterSeasonDraws?: number;
  /**
   * how a newly named club's squad strength is blended with its league's promoted level
   * (league/promoted.ts, `PromotedBlend`); default PROMOTED_BLEND, learned by the league backtest
   * from promoted clubs of the seasons 2016/17-2023/24
   */
  promotedBlend?: PromotedBlend;
}

/**
 * The default blend: `fitPromotedBlend` on the promoted clubs of the seasons 2016/17 to 2023/24
 * (every season finished by 30 June 2024), as the league backtest printed it ("blend for later
 * origins"); at each of its origins the bench learns the blend only from seasons finished before it.
 */
export const PROMOTED_BLEND: PromotedBlend = { squadWeight: 0.4, offset: 0.064 };

export type ResolvedImpactSettings = Required<ImpactSettings>;

export function resolveImpactSettings(s: ImpactSettings = {}): ResolvedImpactSettings {
  return {
    decay: s.decay ?? Math.LN2 / 365,
    ridge: s.ridge ?? 2,
    maxMatchAgeDays: s.maxMatchAgeDays ?? 4 * 365,
    tieRidge: s.tieRidge ?? 0.05,
    residualWeight: s.residualWeight ?? 0.5,
    replacementRating: s.replacementRating ?? 40,
    maxRatingAgeSeasons: s.maxRatingAgeSeasons ?? 1,
    minAgeCurveRows: s.minAgeCurveRows ?? 1000,
    targetStandardError: s.targetStandardError ?? 0.05,
    maxRuns: s.maxRuns ?? 100_000,
    shareDraws: s.shareDraws ?? 150,
    laterSeasonDraws: s.laterSeasonDraws ?? 60,
    promotedBlend: s.promotedBlend ?? PROMOTED_BLEND,
  };
}

export interface LeagueTieContext {
  /** weighted means over the league's clubs that have both results and a squad */
  featureMean: SquadFeatures;
  strengthMean: { attack: number; defence: number };
  clubsWithResults: number;
  /** the league's own factor on the artifact's `spread`, learned by the match backtest (absent: 1) */
  spread?: number;
}

export interface ClubBaseline {
  league: string;
  /** rated squad size */
  players: number;
  /** squad features with current ratings (what the tie was fitted on) */
  features: SquadFeatures;
  /** squad features in each season of the horizon (ratings moved along the age curve) */
  seasons: SquadFeatures[];
}

export interface ImpactArtifact {
  kind: 'impact';
  version: number;
  fittedAsOf: string;
  dataVersion: string;
  currentSeason: number;
  analysisSeason: number;
  settings: ResolvedImpactSettings;
  strength: StrengthArtifact;
  tie: TieArtifact;
  leagues: Record<string, LeagueTieContext>;
  /** baseline of every club of a current domestic league (a cache of the fitted snapshot) */
  clubs: Record<string, ClubBaseline>;
  ageCurve: AgeCurve;
  /** how promoted clubs did in their first season, per league (league/promoted.ts): the level newly named clubs are completed to */
  promoted: PromotedPrior;
  /**
   * How far the clubs' strengths spread around their league's mean in the analysis season: the tie's
   * estimates, regressed towards the mean, predict matches too evenly, so training spreads them to the
   * dispersion the match backtest learns from held-back seasons (1: as fitted; bundle.ts).
   */
  spread: number;
  /** where a side's expected goals bend (league/match.ts; null: they do not), learned with the spread */
  ceiling: GoalCeiling | null;
  stats: {
    matchesUsed: number;
    clubsTied: number;
    ageCurveRows: number;
    ageCurveSource: 'fitted' | 'default';
    tieRSquared: { attack: number; defence: number };
    slopes: { attack: { xi: number; depth: number }; defence: { xi: number; depth: number } };
  };
}

// ---------------------------------------------------------------------------------------------
// players and squads

export interface RatedPlayer {
  playerId: string;
  position: PositionCode;
  rating: number;
  potential: number;
  ratingSeason: number;
  /** age at the rating date of ratingSeason (31 December), years */
  age: number;
}

const NEUTRAL_AGE = 27; // on the plateau of the age curve: no change when the birth date is unknown

function latestRating(snapshot: Snapshot, playerId: string, minSeason: number): RatingRow | null {
  const rows = snapshot.ratings.get(playerId);
  if (!rows || rows.length === 0) return null;
  const r = rows[rows.length - 1];
  return r.season >= minSeason ? r : null;
}

/** The player's latest rating (recent enough) with position and age, or null when he has none. */
export function ratedPlayer(snapshot: Snapshot, playerId: string, settings: ResolvedImpactSettings, position?: PositionCode): RatedPlayer | null {
  const r = latestRating(snapshot, playerId, snapshot.currentSeason - settings.maxRatingAgeSeasons);
  if (!r || !Number.isFinite(r.rating)) return null;
  const player = snapshot.players.get(playerId);
  const pos: PositionCode = position ?? (isPositionCode(r.position) ? r.position : isPositionCode(player?.position) ? player.position : 'CM');
  const birth = player?.birth_date ?? null;
  return {
    playerId,
    position: pos,
    rating: r.rating,
    potential: Number.isFinite(r.potential) ? Math.max(r.potential, r.rating) : r.rating,
    ratingSeason: r.season,
    age: birth ? ageYears(birth, `${r.season}-12-31`) : NEUTRAL_AGE,
  };
}

/** Rating in `season`, moved along the age curve from the rating's season (unchanged for earlier seasons). */
export function ratingIn(curve: AgeCurve, p: RatedPlayer, season: number): number {
  const years = season - p.ratingSeason;
  if (years <= 0) return p.rating;
  return projectRating(curve, { rating: p.rating, age: p.age, potential: p.potential }, years)[years - 1];
}

/**
 * Rated players of the club's current squad with analysis data (players without a recent rating
 * or without analysis data are left out). Every club's squad follows this one rule, so the echo of
 * an actual-squad analysis is a valid custom squad and a league's simulated clubs are on one footing.
 */
export function currentSquad(snapshot: Snapshot, clubId: string, settings: ResolvedImpactSettings): RatedPlayer[] {
  const out: RatedPlayer[] = [];
  for (const id of snapshot.squads.get(clubId) ?? []) {
    if (!snapshot.players.get(id)?.analysis_available) continue;
    const p = ratedPlayer(snapshot, id, settings);
    if (p) out.push(p);
  }
  return out;
}

/** The squad in `season` (null: current ratings) as squad.ts players. */
export function squadAt(curve: AgeCurve, squad: readonly RatedPlayer[], season: number | null): SquadPlayer[] {
  return squad.map((p) => ({ playerId: p.playerId, position: p.position, rating: season === null ? p.rating : ratingIn(curve, p, season) }));
}

/**
 * Every squad draws its match days from the same seed: each player's availability and form come
 * from his own stream, so a squad with and without one player share everybody else's match days.
 */
const MATCH_DAY_SEED = 1;

/** Match days simulated for horizon season k (0 = analysis season; null = current ratings, the tie's). */
export function drawsFor(settings: ResolvedImpactSettings, k: number | null): number {
  return k === null || k === 0 ? settings.shareDraws : settings.laterSeasonDraws;
}

export interface MatchDays {
  /** `xi`: mean rating of the XI that takes the pitch; `depth`: the nominal bench (the tie gives it no weight) */
  features: SquadFeatures;
  startShares: Record<string, number>;
  /** with `without`: the features of the squad without that player, on the same match days */
  withoutFeatures?: SquadFeatures;
}

/**
 * Squad features on simulated match days. A player adds to `xi` only on the days he starts, so
 * what he adds to the club's strength follows his start share (his playing time).
 */
export function matchDays(players: readonly SquadPlayer[], settings: ResolvedImpactSettings, k: number | null, without?: string): MatchDays {
  const s = squadStrength(players, {
    replacementRating: settings.replacementRating, shareDraws: drawsFor(settings, k), seed: MATCH_DAY_SEED, without,
  });
  const out: MatchDays = { features: { xi: s.matchDayXiRating, depth: s.depthRating }, startShares: s.startShares };
  if (s.matchDayXiRatingWithout !== undefined) out.withoutFeatures = { xi: s.matchDayXiRatingWithout, depth: s.depthRating };
  return out;
}

/** matchDays of `squad` plus `added` (who is not in it), on the squad's kept match days (league/match-days.ts). */
export function matchDaysWith(squad: readonly SquadPlayer[], added: SquadPlayer, settings: ResolvedImpactSettings, k: number | null): MatchDays {
  const s = squadStrengthWith(squad, added, { replacementRating: settings.replacementRating, shareDraws: drawsFor(settings, k), seed: MATCH_DAY_SEED });
  return { features: { xi: s.matchDayXiRating, depth: s.depthRating }, startShares: s.startShares };
}

/** Keeps the match days matchDaysWith reads for `squad` (ahead of its first candidate). */
export function warmMatchDays(squad: readonly SquadPlayer[], settings: ResolvedImpactSettings, k: number | null): void {
  keepMatchDays(squad, { replacementRating: settings.replacementRating, shareDraws: drawsFor(settings, k), seed: MATCH_DAY_SEED });
}

export function featuresOf(players: readonly SquadPlayer[], settings: ResolvedImpactSettings, k: number | null): SquadFeatures {
  return matchDays(players, settings, k).features;
}

// ---------------------------------------------------------------------------------------------
// fit

function domesticMatches(snapshot: Snapshot): MatchRow[] {
  const out: MatchRow[] = [];
  for (const m of snapshot.matches) {
    if (snapshot.competitions.get(m.competition_id)?.type !== 'DOMESTIC_LEAGUE') continue;
    out.push({ date: m.date, home: m.home_club_id, away: m.away_club_id, homeGoals: m.home_goals, awayGoals: m.away_goals, competition: m.competition_id });
  }
  return out;
}

/**
 * Year-on-year changes of our ratings by age, for the age curve. A player whose last rating is
 * before the last rated season dropped out (the fit counts careers ending from those).
 */
function ageCurveRows(snapshot: Snapshot): AgeCurveRow[] {
  const rows: AgeCurveRow[] = [];
  let lastSeason = -Infinity;
  for (const list of snapshot.ratings.values()) for (const r of list) lastSeason = Math.max(lastSeason, r.season);
  for (const [playerId, list] of snapshot.ratings) {
    const birth = snapshot.players.get(playerId)?.birth_date;
    if (!birth || list.length === 0) continue;
    for (let i = 1; i < list.length; i++) {
      if (list[i].season !== list[i - 1].season + 1) continue;
      rows.push({ age: ageYears(birth, `${list[i - 1].season}-12-31`), ratingDelta: list[i].rating - list[i - 1].rating });
    }
    const last = list[list.length - 1];
    if (last.season < lastSeason) {
      rows.push({ age: ageYears(birth, `${last.season}-12-31`), ratingDelta: 0, dropped: true });
    }
  }
  return rows;
}

function weightedMean(values: number[], weights: number[]): number {
  let s = 0, w = 0;
  for (let i = 0; i < values.length; i++) { s += values[i] * weights[i]; w += weights[i]; }
  return w > 0 ? s / w : 0;
}

/**
 * Fits the impact model on the snapshot: nothing dated after its as-of date is used (the snapshot
 * holds nothing later, and the strength fit filters on the date as well).
 */
export function fitImpactModel(snapshot: Snapshot, settings: ImpactSettings = {}): ImpactArtifact {
  const s = resolveImpactSettings(settings);
  const strength = fitStrength(domesticMatches(snapshot), {
    asOf: snapshot.asOf, xi: s.decay, ridge: s.ridge, maxAgeDays: s.maxMatchAgeDays,
  });

  const curveRows = ageCurveRows(snapshot);
  const ageCurve = curveRows.length >= s.minAgeCurveRows ? fitAgeCurve(curveRows, { dropLevel: s.replacementRating }) : defaultAgeCurve();

  const clubs: Record<string, ClubBaseline> = {};
  const leagues: Record<string, LeagueTieContext> = {};
  const centred: TieRow[] = [];
  for (const league of [...snapshot.clubsOfLeague.keys()].sort()) {
    const members = [...snapshot.clubsOfLeague.get(league)!].sort();
    for (const club of members) {
      const squad = currentSquad(snapshot, club, s);
      clubs[club] = {
        league,
        players: squad.length,
        features: featuresOf(squadAt(ageCurve, squad, null), s, null),
        seasons: Array.from({ length: HORIZON_SEASONS }, (_, k) => featuresOf(squadAt(ageCurve, squad, snapshot.analysisSeason + k), s, k)),
      };
    }
    const withResults = members.filter((c) => strength.clubs[c] && strength.clubs[c].weight > 0);
    const w = withResults.map((c) => strength.clubs[c].weight);
    const ctx: LeagueTieContext = withResults.length > 0
      ? {
        featureMean: {
          xi: weightedMean(withResults.map((c) => clubs[c].features.xi), w),
          depth: weightedMean(withResults.map((c) => clubs[c].features.depth), w),
        },
        strengthMean: {
          attack: weightedMean(withResults.map((c) => strength.clubs[c].attack), w),
          defence: weightedMean(withResults.map((c) => strength.clubs[c].defence), w),
        },
        clubsWithResults: withResults.length,
      }
      : {
        featureMean: {
          xi: members.reduce((a, c) => a + clubs[c].features.xi, 0) / Math.max(1, members.length),
          depth: members.reduce((a, c) => a + clubs[c].features.depth, 0) / Math.max(1, members.length),
        },
        strengthMean: { attack: 0, defence: 0 },
        clubsWithResults: 0,
      };
    leagues[league] = ctx;
    for (const c of withResults) {
      const st = strength.clubs[c];
      centred.push({
        club: c,
        attack: st.attack - ctx.strengthMean.attack,
        defence: st.defence - ctx.strengthMean.defence,
        xi: clubs[c].features.xi - ctx.featureMean.xi,
        depth: clubs[c].features.depth - ctx.featureMean.depth,
        weight: st.weight,
      });
    }
  }
  if (centred.length === 0) throw new ImpactError('no_training_data', 'fitImpactModel: no club of a current league has both results and a rated squad');
  // depth gets no slope: a player on the bench who never starts must add nothing (match-day XIs
  // already count the bench through the days a starter is missing)
  const tie = fitTie(centred, { ridge: s.tieRidge, useDepth: false });
  const leaguesOfData = new Set([...snapshot.competitions.values()].filter((c) => c.type === 'DOMESTIC_LEAGUE').map((c) => c.id));
  const promoted = fitPromotedPrior(snapshot.matches, leaguesOfData, snapshot.asOf);
  return {
    kind: 'impact',
    version: IMPACT_MODEL_VERSION,
    fittedAsOf: snapshot.asOf,
    dataVersion: snapshot.dataVersion,
    currentSeason: snapshot.currentSeason,
    analysisSeason: snapshot.analysisSeason,
    settings: s,
    strength,
    tie,
    leagues,
    clubs,
    ageCurve,
    promoted,
    spread: 1,
    ceiling: null,
    stats: {
      matchesUsed: strength.matchesUsed,
      clubsTied: tie.clubsUsed,
      ageCurveRows: curveRows.length,
      ageCurveSource: ageCurve.table ? 'fitted' : 'default',
      tieRSquared: { attack: tie.attack.rSquared, defence: tie.defence.rSquared },
      slopes: { attack: tie.attack.beta, defence: tie.defence.beta },
    },
  };
}

// ---------------------------------------------------------------------------------------------
// strengths

/** The match model's constants in `league` (league/match.ts): intercept, the league's home advantage, rho, the goal ceiling. */
export function leagueMatchModel(artifact: ImpactArtifact, league: string): { intercept: number; homeAdvantage: number; rho: number; ceiling: GoalCeiling | null } {
  return { intercept: artifact.strength.intercept, homeAdvantage: homeAdvantageIn(artifact.strength, league), rho: artifact.strength.rho, ceiling: artifact.ceiling };
}

/** League context for the tie; a league unknown to the artifact gets the all-league average (0, 0). */
export function leagueContext(artifact: ImpactArtifact, league: string, fallbackFeatures: SquadFeatures[]): LeagueTieContext {
  const ctx = artifact.leagues[league];
  if (ctx) return ctx;
  const n = Math.max(1, fallbackFeatures.length);
  return {
    featureMean: { xi: fallbackFeatures.reduce((a, f) => a + f.xi, 0) / n, depth: fallbackFeatures.reduce((a, f) => a + f.depth, 0) / n },
    strengthMean: { attack: 0, defence: 0 },
    clubsWithResults: 0,
  };
}

/** Attack and defence of `club` playing in a league of context `ctx` with a squad of features `f`. */
export function strengthOf(artifact: ImpactArtifact, ctx: LeagueTieContext, club: string, f: SquadFeatures): { attack: number; defence: number } {
  const s = strengthFor(artifact.tie, club, { xi: f.xi - ctx.featureMean.xi, depth: f.depth - ctx.featureMean.depth }, artifact.settings.residualWeight);
  const k = artifact.spread * (ctx.spread ?? 1);
  return { attack: k * s.attack + ctx.strengthMean.attack, defence: k * s.defence + ctx.strengthMean.defence };
}
