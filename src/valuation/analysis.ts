import type { Snapshot } from '../domain/snapshot.js';
import { seasonLabel } from '../domain/season.js';
import { leagueForecast } from './league/forecast.js';
import { playerFacts } from '../domain/player-facts.js';
import { moneyPair, moneyPairFromAmount, toEur } from '../money/convert.js';
import type { ModelBundle } from './bundle.js';
import { expectedFeeAnswer, futureValueAnswer, futureValueEur, type Money } from './answers.js';
import { predictFee } from './fee/index.js';
import { contractEndUsed, playerWarnings, type Warning } from './warnings.js';
import { ImpactError, roiOf, sportiveImpact, squadAnalysis, type ImpactArtifact, type SquadAnalysis, type SquadEntryInput } from './impact/index.js';

/**
 * Sportive impact, ROI and squad analysis as the API gives them: the impact model's outputs with
 * money pairs through one rate table. Pure.
 */
const round2 = (x: number) => Math.round(x * 100) / 100;

function impactModel(bundle: ModelBundle) {
  if (!bundle.impact) throw new ImpactError('no_training_data', 'the models were trained on data without league results');
  return bundle.impact;
}

export function sportiveImpactAnswer(bundle: ModelBundle, snapshot: Snapshot, money: Money, q: { playerId: string; clubId: string }) {
  const impact = sportiveImpact(impactModel(bundle), snapshot, q);
  const value = moneyPair(impact.onFieldValueEur, money.code, money.rates);
  const original = round2(impact.originalExpectedPosition);
  const expected = round2(impact.newExpectedPosition);
  return {
    onFieldValueEur: impact.onFieldValueEur,
    body: {
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
      warnings: playerWarnings(snapshot, q.playerId, { clubId: q.clubId }),
    },
  };
}

export interface RoiQuery {
  playerId: string;
  clubId: string;
  /** In the requested currency, as the caller gave them. */
  annualWage: number | null;
  expectedTransferValue: number | null;
}

export function roiAnswer(bundle: ModelBundle, snapshot: Snapshot, money: Money, q: RoiQuery) {
  const givenFeeEur = q.expectedTransferValue === null ? null : toEur(q.expectedTransferValue, money.code, money.rates);
  const fee =
    q.expectedTransferValue === null
      ? moneyPair(expectedFeeAnswer(bundle, snapshot, money, { playerId: q.playerId, targetClubId: q.clubId }).feeEur, money.code, money.rates)
      : moneyPairFromAmount(q.expectedTransferValue, money.code, money.rates);
  const wage = q.annualWage === null ? null : moneyPairFromAmount(q.annualWage, money.code, money.rates);
  const impact = sportiveImpactAnswer(bundle, snapshot, money, q);
  // The fee and wage are costs, not the player's worth: the future value is the one asked with no fee.
  const future = futureValueAnswer(bundle, snapshot, money, { playerId: q.playerId, clubId: q.clubId });
  const totalEur = impact.onFieldValueEur + future.futureValueEur;
  const total = moneyPair(totalEur, money.code, money.rates);
  const feeEur = givenFeeEur ?? fee.amountEur;
  const wageEur = q.annualWage === null ? null : toEur(q.annualWage, money.code, money.rates);
  // The cost the answer shows decides "no cost": a fee of 0.4 is echoed as 0 and gives no ROI.
  const roi = fee.amount === 0 && (wage?.amount ?? 0) === 0 ? null : roiOf(totalEur, feeEur, wageEur);
  const facts = playerFacts(snapshot, snapshot.players.get(q.playerId)!);
  const rating = facts.latestRating;
  return {
    currency: money.code,
    expected_transfer_value: fee.amount,
    expected_transfer_value_in_eur: fee.amountEur,
    annual_wage: wage?.amount ?? null,
    annual_wage_in_eur: wage?.amountEur ?? null,
    total_value_created: total.amount,
    total_value_created_in_eur: total.amountEur,
    return_on_investment: roi === null ? null : Math.round(roi * 10_000) / 10_000,
    sportive_impact: impact.body,
    future_transfer_value: future.body,
    // The fee is paid now: an ended contract makes him a free agent.
    warnings: playerWarnings(snapshot, q.playerId, { clubId: q.clubId, contractEnd: contractEndUsed(snapshot, q.playerId) }),
    player_info: {
      age: facts.age,
      position: facts.position,
      best_role: facts.role,
      current_rating: rating ? Math.round(rating.rating) : null,
      current_potential: rating ? Math.round(rating.potential) : null,
    },
  };
}

/**
 * The club's actual squad in the analysis season: its row of the league's one actual-squad
 * simulation, which the league forecast reads too.
 */
export function actualSquadAnalysis(model: ImpactArtifact, snapshot: Snapshot, clubId: string): SquadAnalysis {
  return squadAnalysis(model, snapshot, { clubId });
}

export function squadAnswer(bundle: ModelBundle, snapshot: Snapshot, money: Money, q: { clubId: string; squad: SquadEntryInput[] | null }) {
  const result = q.squad === null
    ? actualSquadAnalysis(impactModel(bundle), snapshot, q.clubId)
    : squadAnalysis(impactModel(bundle), snapshot, { clubId: q.clubId, squad: q.squad });
  let feeEur = 0;
  let futureEur = 0;
  for (const e of result.squad) {
    // The fee is a sale by his own club; the future value is the one /get_future_transfer_value gives
    // for this player at this club.
    feeEur += predictFee(bundle.fee, snapshot, { playerId: e.playerId }).feeEur;
    futureEur += futureValueEur(bundle, snapshot, { playerId: e.playerId, clubId: q.clubId });
  }
  const fees = moneyPair(feeEur, money.code, money.rates);
  const futures = moneyPair(futureEur, money.code, money.rates);
  return {
    club_id: q.clubId,
    currency: money.code,
    expected_league_rank: round2(result.expectedLeagueRank),
    squad: result.squad.map((e) => ({ name: e.name, player_id: e.playerId, position: e.position })),
    squad_size: result.squad.length,
    squad_source: q.squad === null ? ('actual' as const) : ('custom' as const),
    total_expected_transfer_fee: fees.amount,
    total_expected_transfer_fee_in_eur: fees.amountEur,
    total_future_transfer_value: futures.amount,
    total_future_transfer_value_in_eur: futures.amountEur,
    // The league-level codes (season_clubs_assumed, thin_squad) belong to the league simulation.
    warnings: [] as Warning[],
  };
}

// ---------------------------------------------------------------------------------------------
// league forecast

const round1 = (x: number) => Math.round(x * 10) / 10;

/** The analysis season's table of a domestic league, as the API gives it. */
export function leagueForecastAnswer(bundle: ModelBundle, snapshot: Snapshot, money: Money, league: string) {
  const forecast = leagueForecast(impactModel(bundle), snapshot, league);
  return {
    competition: league,
    season: seasonLabel(forecast.season),
    currency: money.code,
    clubs: forecast.clubs.map((c) => {
      const revenue = moneyPair(c.expectedRevenueEur, money.code, money.rates);
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
    // The league-level codes (season_clubs_assumed, thin_squad) belong to the league simulation.
    warnings: [] as Warning[],
  };
}
