/**
 * The league forecast: the analysis season's table of one league, simulated.
 *
 * One simulation of the league with every club's actual squad (`actualLeagueTable`: one seed per
 * league, computed once per model, snapshot and league) gives every club's place distribution;
 * /squad_analysis for a club's actual squad reads the same simulation, so the two agree exactly, and
 * in every simulated season the places are shared out, so the expected positions average (n+1)/2.
 * Expected points are exact under the same model (match.ts): per fixture the joint score model gives
 * win and draw probabilities, summed over the double round robin.
 *
 * Expected money is what the league pays for the place (merit and prize money, the value of the
 * European place it leads to), over the place distribution: the revenue tables of sportive impact without their
 * relegation cost. Relegation is money lost the season after (a smaller TV deal), not money the
 * league pays, so a table of league revenue is never negative; sportive impact keeps the cost,
 * because there what counts is the difference a signing makes, and avoiding the drop is worth it.
 */
import type { Snapshot } from '../../domain/snapshot.js';
import { actualLeagueTable, leagueMatchModel, revenueTableOf, type ImpactArtifact } from '../impact/index.js';
import { expectedRevenueEur, type RevenueTable } from '../revenue/index.js';
import { goalRates, matchPoints } from './match.js';

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

/** The table's money the league pays per place: no relegation cost (see the header). */
export function leagueRevenueTable(table: RevenueTable): RevenueTable {
  return { ...table, places: table.places.map((p) => ({ ...p, relegation_eur: 0 })) };
}

/** The forecast of `league` in the snapshot's analysis season; no clubs when it has fewer than two. */
export function leagueForecast(model: ImpactArtifact, snapshot: Snapshot, league: string): LeagueForecast {
  const members = snapshot.analysisClubsOfLeague.get(league) ?? [];
  const season = snapshot.analysisSeason;
  if (members.length < 2) return { league, season, clubs: [] };

  const table = actualLeagueTable(model, snapshot, league);
  const { attack, defence } = table;
  const n = table.clubs.length;
  const points = new Array<number>(n).fill(0);
  const constants = leagueMatchModel(model, league);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i === j) continue;
      const m = matchPoints(goalRates({
        ...constants, home: { attack: attack[i], defence: defence[i] }, away: { attack: attack[j], defence: defence[j] },
      }));
      points[i] += m.home;
      points[j] += m.away;
    }
  }

  const money = leagueRevenueTable(revenueTableOf(snapshot, league, n));
  const clubs = table.clubs.map((clubId, i): ForecastClub => {
    const o = table.result.clubs[i];
    return {
      clubId,
      expectedPosition: o.expectedPosition,
      expectedPoints: points[i],
      positionProbabilities: o.positionProbabilities,
      expectedRevenueEur: expectedRevenueEur(money, o.positionProbabilities),
    };
  });
  clubs.sort((a, b) => a.expectedPosition - b.expectedPosition || b.expectedPoints - a.expectedPoints || (a.clubId < b.clubId ? -1 : 1));
  return { league, season, clubs };
}
