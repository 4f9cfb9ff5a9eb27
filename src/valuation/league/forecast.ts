/**
 * The league forecast: the analysis season's table of one league, simulated.
 *
 * Each club's place distribution and expected position are those of its actual-squad analysis
 * (`actualSquadAnalysis`: the same strengths, seed and run count), so the forecast and
 * /squad_analysis never disagree. Expected points are exact under the same model: per fixture
 * the Poisson goal rates give win and draw probabilities, summed over the double round robin.
 * Expected money is the league's revenue table (the one sportive impact uses) over the place
 * distribution.
 */
import type { Snapshot } from '../../domain/snapshot.js';
import { actualSquadAnalysis } from '../analysis.js';
import { revenueTableOf, type ImpactArtifact } from '../impact/index.js';
import { baselineFeatures, leagueContext, strengthOf } from '../impact/model.js';
import { expectedRevenueEur } from '../revenue/index.js';
import { poissonPmf } from './strength.js';

export interface ForecastClub {
  clubId: string;
  /** 1 is best; the actual-squad analysis' expected league rank */
  expectedPosition: number;
  expectedPoints: number;
  /** index 0 = first place */
  positionProbabilities: number[];
  expectedRevenueEur: number;
}

export interface LeagueForecast {
  league: string;
  season: number;
  /** ordered by expected position, then expected points, then club id */
  clubs: ForecastClub[];
}

/** Goals per side are capped here, as in the simulation (the tail beyond is negligible). */
const MAX_GOALS = 20;

/** Expected points of home and away in one match with Poisson goal rates (3 for a win, 1 for a draw). */
export function matchPoints(homeRate: number, awayRate: number): { home: number; away: number } {
  const ph = poissonPmf(homeRate, MAX_GOALS), pa = poissonPmf(awayRate, MAX_GOALS);
  let win = 0, draw = 0, loss = 0;
  for (let x = 0; x <= MAX_GOALS; x++) {
    for (let y = 0; y <= MAX_GOALS; y++) {
      const p = ph[x] * pa[y];
      if (x > y) win += p; else if (x === y) draw += p; else loss += p;
    }
  }
  const total = win + draw + loss;
  return { home: (3 * win + draw) / total, away: (3 * loss + draw) / total };
}

/** The forecast of `league` in the snapshot's analysis season; no clubs when it has fewer than two. */
export function leagueForecast(model: ImpactArtifact, snapshot: Snapshot, league: string): LeagueForecast {
  const members = snapshot.analysisClubsOfLeague.get(league) ?? [];
  const season = snapshot.analysisSeason;
  if (members.length < 2) return { league, season, clubs: [] };

  const features = members.map((c) => baselineFeatures(model, snapshot, c, 0));
  const ctx = leagueContext(model, league, features);
  const strengths = members.map((c, i) => strengthOf(model, ctx, c, features[i]));
  const points = new Array<number>(members.length).fill(0);
  const { intercept, homeAdvantage } = model.strength;
  for (let i = 0; i < members.length; i++) {
    for (let j = 0; j < members.length; j++) {
      if (i === j) continue;
      const m = matchPoints(
        Math.exp(intercept + homeAdvantage + strengths[i].attack - strengths[j].defence),
        Math.exp(intercept + strengths[j].attack - strengths[i].defence),
      );
      points[i] += m.home;
      points[j] += m.away;
    }
  }

  const table = revenueTableOf(snapshot, league, members.length);
  const clubs = members.map((clubId, i): ForecastClub => {
    const analysis = actualSquadAnalysis(model, snapshot, clubId);
    return {
      clubId,
      expectedPosition: analysis.expectedLeagueRank,
      expectedPoints: points[i],
      positionProbabilities: analysis.positionProbabilities,
      expectedRevenueEur: expectedRevenueEur(table, analysis.positionProbabilities),
    };
  });
  clubs.sort((a, b) => a.expectedPosition - b.expectedPosition || b.expectedPoints - a.expectedPoints || (a.clubId < b.clubId ? -1 : 1));
  return { league, season, clubs };
}
