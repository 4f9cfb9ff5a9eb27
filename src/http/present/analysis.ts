import { seasonLabel } from '../../domain/season.js';
import type { Snapshot } from '../../domain/snapshot.js';
import { moneyPairFromAmount, type Money } from '../../money/convert.js';
import type { LeagueForecastResult, MatchForecastResult, RoiResult, SportiveImpactResult, SquadValue } from '../../valuation/analysis.js';
import { pair, round1, round2 } from './money.js';
import { presentFuture } from './valuation.js';

/** POST /v1/get_sportive_impact's body (also inside the ROI answer). */
export function presentImpact(impact: SportiveImpactResult, money: Money) {
  const value = pair(impact.onFieldValueEur, money);
  const original = round2(impact.originalExpectedPosition);
  const expected = round2(impact.newExpectedPosition);
  return {
    currency: money.code,
    on_field_value: value.amount,
    on_field_value_in_eur: value.amountEur,
    simulation: {
      // From the two positions as shown, so the three figures agree to the hundredth.
      increase_in_expected_position: round2(Math.max(0, original - expected)),
      new_expected_position: expected,
      original_expected_position: original,
    },
    playing_time_percentage: round2(impact.playingTimePercentage),
    warnings: impact.warnings,
  };
}

/** The fee and wage as the caller gave them, in the answer's currency; null when not given. */
export interface RoiGiven {
  expectedTransferValue: number | null;
  annualWage: number | null;
}

/** POST /v1/get_roi_analysis's body. */
export function presentRoi(r: RoiResult, given: RoiGiven, money: Money) {
  // A fee or wage given is echoed as the caller gave it; the EUR side goes through the same rate.
  const fee = given.expectedTransferValue === null ? pair(r.feeEur, money) : moneyPairFromAmount(given.expectedTransferValue, money.code, money.rates);
  const wage = given.annualWage === null ? null : moneyPairFromAmount(given.annualWage, money.code, money.rates);
  const total = pair(r.totalValueCreatedEur, money);
  // The cost the answer shows decides "no cost": a fee of 0.4 is echoed as 0 and gives no ROI.
  const roi = fee.amount === 0 && (wage?.amount ?? 0) === 0 ? null : r.returnOnInvestment;
  return {
    currency: money.code,
    expected_transfer_value: fee.amount,
    expected_transfer_value_in_eur: fee.amountEur,
    annual_wage: wage?.amount ?? null,
    annual_wage_in_eur: wage?.amountEur ?? null,
    total_value_created: total.amount,
    total_value_created_in_eur: total.amountEur,
    return_on_investment: roi === null ? null : Math.round(roi * 10_000) / 10_000,
    sportive_impact: presentImpact(r.impact, money),
    future_transfer_value: presentFuture(r.future, money),
    player_info: {
      age: r.player.age,
      position: r.player.position,
      best_role: r.player.role,
      current_rating: r.player.rating === null ? null : Math.round(r.player.rating),
      current_potential: r.player.potential === null ? null : Math.round(r.player.potential),
    },
    warnings: r.warnings,
  };
}

export type RoiBody = ReturnType<typeof presentRoi>;

/** POST /v1/squad_analysis's body. */
export function presentSquad(v: SquadValue, money: Money) {
  const fees = pair(v.totalFeeEur, money);
  const futures = pair(v.totalFutureEur, money);
  return {
    club_id: v.clubId,
    currency: money.code,
    expected_league_rank: round2(v.expectedLeagueRank),
    squad: v.squad.map((e) => ({ name: e.name, player_id: e.playerId, position: e.position })),
    squad_size: v.squad.length,
    squad_source: v.source,
    total_expected_transfer_fee: fees.amount,
    total_expected_transfer_fee_in_eur: fees.amountEur,
    total_future_transfer_value: futures.amount,
    total_future_transfer_value_in_eur: futures.amountEur,
    warnings: v.warnings,
  };
}

/** GET /v1/league_forecast's body. */
export function presentForecast(forecast: LeagueForecastResult, snapshot: Snapshot, money: Money) {
  return {
    competition: forecast.league,
    season: seasonLabel(forecast.season),
    currency: money.code,
    clubs: forecast.clubs.map((c) => {
      const revenue = pair(c.expectedRevenueEur, money);
      return {
        club_id: c.clubId,
        name: snapshot.clubs.get(c.clubId)?.name ?? '',
        expected_position: round2(c.expectedPosition),
        expected_points: round1(c.expectedPoints),
        position_probabilities: c.positionProbabilities,
        expected_revenue: revenue.amount,
        expected_revenue_in_eur: revenue.amountEur,
      };
    }),
    warnings: forecast.warnings,
  };
}

export const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

/** GET /v1/match_forecast's body. */
export function presentMatch(m: MatchForecastResult, q: { homeClubId: string; awayClubId: string }) {
  return {
    home_club_id: q.homeClubId,
    away_club_id: q.awayClubId,
    season: seasonLabel(m.season),
    home_win: round4(m.homeWin),
    draw: round4(m.draw),
    away_win: round4(m.awayWin),
    expected_goals: { home: round2(m.expectedGoals.home), away: round2(m.expectedGoals.away) },
    likely_scores: m.likelyScores.map((s) => ({ home: s.home, away: s.away, probability: round4(s.probability) })),
    warnings: m.warnings,
  };
}
