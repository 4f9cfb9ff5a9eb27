/**
 * What a backtest refits at an origin (30 June before a held-back season): the world as of that day,
 * the rating model fitted on it and every player rated, and the impact model fitted on those ratings,
 * with the next season's clubs of each league as an operator would name them before it starts (the
 * clubs of its fixtures, which are known in June). Nothing dated after the origin reaches a fit.
 */
import { buildSnapshot, withSeasonClubs, type SeasonClubsRow, type Snapshot } from '../../domain/snapshot.js';
import { seasonEnd } from '../../domain/season.js';
import type { MatchRow, WorldData } from '../../domain/world.js';
import { fitImpactModel, ImpactError, withModelRatings, type ImpactArtifact, type ImpactSettings } from '../impact/index.js';
import { fitRatingModel, rateAll, type RatingArtifact, type RatingSettings } from '../rating/index.js';

export interface OriginFit {
  origin: string;
  /** the season that starts the next day */
  season: number;
  base: Snapshot;
  rating: RatingArtifact;
  /** the base with our ratings */
  rated: Snapshot;
  /** null when the data before the origin holds no league results */
  impact: ImpactArtifact | null;
  /** the rated snapshot with the next season's clubs named */
  next: Snapshot;
}

export interface BacktestWorld {
  world: WorldData;
  /** the as-of date of the models the card describes: no outcome after it is read */
  asOf: string;
  dataVersion: string;
  rating: RatingSettings;
  impact: ImpactSettings;
}

/** The 30 June that starts season `season`. */
export const originOf = (season: number) => `${season}-06-30`;

/** Domestic-league matches of season `season`, dated on or before the as-of date. */
export function leagueMatchesOf(w: BacktestWorld, season: number): MatchRow[] {
  const leagues = new Set(w.world.competitions.filter((c) => c.type === 'DOMESTIC_LEAGUE').map((c) => c.id));
  return w.world.matches.filter((m) => m.season === season && leagues.has(m.competition_id) && m.date <= w.asOf);
}

/** Seasons that ended (30 June) by the as-of date, latest first. */
export function finishedSeasons(w: BacktestWorld): number[] {
  const seasons = new Set(w.world.matches.map((m) => m.season));
  return [...seasons].filter((s) => seasonEnd(s) <= w.asOf).sort((a, b) => b - a);
}

/**
 * The models at the origin of `season`. The rating model is the one given when it was fitted at a
 * later origin (backtest/index.ts fits it once, at the latest origin, and rates every earlier origin's
 * players with it, with only what was known at each origin), else fitted here.
 */
export function fitAtOrigin(w: BacktestWorld, season: number, seed: number, shared?: RatingArtifact): OriginFit {
  const origin = originOf(season);
  const base = buildSnapshot(w.world, origin, w.dataVersion);
  const rating = shared ?? fitRatingModel(base, { ...w.rating, seed });
  const rated = withModelRatings(base, rateAll(rating, base));
  let impact: ImpactArtifact | null = null;
  try {
    impact = fitImpactModel(rated, w.impact);
  } catch (err) {
    if (!(err instanceof ImpactError && err.code === 'no_training_data')) throw err;
  }
  const rows: SeasonClubsRow[] = [];
  const seen = new Set<string>();
  for (const m of leagueMatchesOf(w, season)) {
    for (const club of [m.home_club_id, m.away_club_id]) {
      const key = `${m.competition_id}|${club}`;
      if (seen.has(key)) continue;
      seen.add(key);
      rows.push({ competition_id: m.competition_id, season, club_id: club });
    }
  }
  return { origin, season, base, rating, rated, impact, next: withSeasonClubs(rated, rows, `backtest-${season}`) };
}
