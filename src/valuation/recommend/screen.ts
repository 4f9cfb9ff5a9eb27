/**
 * The screen of recommend_signings: what a signing at one position would add on the pitch for one
 * club, estimated for every candidate at once, so the exact simulation runs only for a shortlist.
 *
 * For a candidate who is not at the club, sportive impact (impact.ts) compares the club's actual
 * squad with that squad plus him, on match days simulated per season, then plays the league on
 * common random numbers. Everything in it but his match days is the same for every candidate of a
 * position: the squad without him, every other club, the seeds. What he changes is the club's
 * match-day XI, which depends on his rating in that season (his position being fixed). So the
 * screen plays a grid of stand-in players of that position, one per rating (40 to 100 in steps of
 * 2), through the same steps as impact.ts:
 *   - what he adds to the squad's match-day XI: on the later seasons' number of match days (60,
 *     not the first season's 150), but paired, the squad with and without him on the same days;
 *   - the club's strength through the tie, never below the strength without him;
 *   - one league simulation per season in which every grid rating is a scenario, on the seed and
 *     target standard error of the exact run.
 * Ratings are played from the top down and stop once two in a row add nothing (below them he
 * rarely starts). A candidate's estimate is the interpolated extra revenue at his rating in each of
 * the 3 seasons (his rating moved along the age curve), summed and floored at 0 like on_field_value.
 *
 * What it leaves out, so what the exact run alone gets right: his own form and availability draws
 * (the stand-in has its own stream), and, for a player of another club of the same league, that his
 * club gets weaker without him. Both are small next to the rating; bench/recommend.ts measures the
 * recall of the shortlist against an exhaustive scan.
 */
import type { Snapshot } from '../../domain/snapshot.js';
import type { PositionCode } from '../../domain/positions.js';
import { expectedRevenueEur } from '../revenue/index.js';
import { simulateScenarios } from '../impact/scenarios.js';
import { leagueOf, revenueTableOf, simulationSeed } from '../impact/impact.js';
import {
  HORIZON_SEASONS, leagueMatchModel, matchDays, squadAt, strengthOf, type ImpactArtifact,
} from '../impact/model.js';
import { baselineFeatures, clubSquad } from '../impact/club-squad.js';

/** Ratings the stand-in is played at. */
export const SCREEN_GRID: readonly number[] = Array.from({ length: 31 }, (_, i) => 40 + 2 * i);
/** Not a player id (ids are P + 26 characters): the stand-in never meets a real player's stream. */
const STAND_IN = '~screen';

export interface ClubScreen {
  clubId: string;
  league: string;
  position: PositionCode;
  /** the analysis season and the two after it */
  seasons: number[];
  grid: readonly number[];
  /** per season, the club's extra expected revenue (EUR) with a stand-in of each grid rating */
  gainEur: number[][];
  /** the stand-in's share of starts on the analysis season's match days, per grid rating (0 below the ratings played) */
  startShare: number[];
}

/**
 * The club's screen for one position. Throws ImpactError like sportive impact (`unknown_club`,
 * `club_without_league`).
 */
export function clubScreen(artifact: ImpactArtifact, snapshot: Snapshot, clubId: string, position: PositionCode): ClubScreen {
  const setup = leagueOf(artifact, snapshot, clubId);
  const rs = artifact.settings;
  const squad = clubSquad(artifact, snapshot, clubId);
  const table = revenueTableOf(snapshot, setup.league, setup.clubs.length);
  // as impact.ts: the per-season target that gives the 3-season mean its standard error
  const target = rs.targetStandardError * Math.sqrt(HORIZON_SEASONS);
  const screenDays = { ...rs, shareDraws: Math.min(rs.shareDraws, rs.laterSeasonDraws) };
  const seasons: number[] = [];
  const gainEur: number[][] = [];
  const startShare = new Array<number>(SCREEN_GRID.length).fill(0);
  for (let k = 0; k < HORIZON_SEASONS; k++) {
    const season = snapshot.analysisSeason + k;
    seasons.push(season);
    const base = { attack: [] as number[], defence: [] as number[] };
    let own = 0;
    setup.clubs.forEach((club, i) => {
      if (club === clubId) own = i;
      const b = strengthOf(artifact, setup.ctx, club, baselineFeatures(artifact, snapshot, club, k));
      base.attack.push(b.attack);
      base.defence.push(b.defence);
    });
    const rest = squadAt(artifact.ageCurve, squad, season);
    // What he adds to the XI, from fewer match days than the exact run's first season (the later
    // seasons' count) but paired: the squad with and without him on the same days.
    const own0 = baselineFeatures(artifact, snapshot, clubId, k);
    const without = matchDays(rest, screenDays, k).features;
    // grid point -> scenario; equal strengths share one. From the top down: once two ratings in a
    // row add nothing (he would not start often enough to lift the XI), lower ones add nothing either.
    const scenarioOf = new Array<number>(SCREEN_GRID.length).fill(0);
    const scenarios = [base];
    const seen = new Map<string, number>();
    let idle = 0;
    for (let g = SCREEN_GRID.length - 1; g >= 0 && idle < 2; g--) {
      const days = matchDays([...rest, { playerId: STAND_IN, position, rating: SCREEN_GRID[g] }], screenDays, k);
      if (k === 0) startShare[g] = Math.min(0.9, days.startShares[STAND_IN] ?? 0);
      const w = days.features;
      const f = { xi: own0.xi + w.xi - without.xi, depth: own0.depth + w.depth - without.depth };
      const c = strengthOf(artifact, setup.ctx, clubId, f);
      const attack = Math.max(c.attack, base.attack[own]);
      const defence = Math.max(c.defence, base.defence[own]);
      if (attack === base.attack[own] && defence === base.defence[own]) {
        idle++;
        continue;
      }
      idle = 0;
      const key = `${attack}|${defence}`;
      let s = seen.get(key);
      if (s === undefined) {
        s = scenarios.length;
        seen.set(key, s);
        const a = [...base.attack], d = [...base.defence];
        a[own] = attack;
        d[own] = defence;
        scenarios.push({ attack: a, defence: d });
      }
      scenarioOf[g] = s;
    }
    if (scenarios.length === 1) {
      gainEur.push(scenarioOf.map(() => 0));
      continue;
    }
    const sim = simulateScenarios(
      { clubIds: setup.clubs, ...leagueMatchModel(artifact, setup.league), target: clubId, scenarios },
      { seed: simulationSeed(snapshot.dataVersion, setup.league, clubId, season), targetStandardError: target, runsFrom: 0, maxRuns: rs.maxRuns },
    );
    const revenue = sim.outcomes.map((o) => expectedRevenueEur(table, o.positionProbabilities));
    gainEur.push(scenarioOf.map((s) => revenue[s] - revenue[0]));
  }
  return { clubId, league: setup.league, position, seasons, grid: SCREEN_GRID, gainEur, startShare };
}

/** Linear interpolation on the grid, flat beyond its ends. */
function interpolate(grid: readonly number[], values: readonly number[], x: number): number {
  if (x <= grid[0]) return values[0];
  const last = grid.length - 1;
  if (x >= grid[last]) return values[last];
  let i = 1;
  while (grid[i] < x) i++;
  const t = (x - grid[i - 1]) / (grid[i] - grid[i - 1]);
  return values[i - 1] + t * (values[i] - values[i - 1]);
}

/** The screen's estimate of playing_time_percentage (0-0.9) from his rating in the analysis season. */
export function screenedPlayingTime(screen: ClubScreen, seasonRatings: readonly number[]): number {
  return interpolate(screen.grid, screen.startShare, seasonRatings[0]);
}

/**
 * The screen's estimate of on_field_value (EUR) for a player of the screen's position joining the
 * club, from his rating in each season of the horizon (ratingIn: moved along the age curve).
 */
export function screenedOnFieldValueEur(screen: ClubScreen, seasonRatings: readonly number[]): number {
  let total = 0;
  screen.gainEur.forEach((gains, k) => {
    total += interpolate(screen.grid, gains, seasonRatings[k]);
  });
  return Math.max(0, total);
}
