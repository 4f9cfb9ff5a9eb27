import type { Snapshot } from '../../domain/snapshot.js';
import { seasonLabel } from '../../domain/season.js';
import type { Money } from '../../money/convert.js';
import type { PoolPlayer, Recommendation, RecommendSort } from '../../valuation/recommend/index.js';
import { candidateFacts, type CandidateFacts } from '../../valuation/recommend/facts.js';
import { presentRoi, type RoiBody, type RoiGiven } from './analysis.js';

export interface RecommendedCandidate {
  player_id: string;
  name: string;
  age: number | null;
  club_id: string | null;
  club_name: string | null;
  market_value_in_eur: number | null;
  contract_end_date: string | null;
  expected_transfer_value: number;
  expected_transfer_value_in_eur: number;
  future_transfer_value: number;
  future_transfer_value_in_eur: number;
  on_field_value: number;
  on_field_value_in_eur: number;
  increase_in_expected_position: number;
  playing_time_percentage: number;
  total_value_created: number;
  total_value_created_in_eur: number;
  net_value_created: number;
  net_value_created_in_eur: number;
  return_on_investment: number | null;
  /** The ROI answer's warnings (free_agent, stale_value; never already_at_club: his club's players are no candidates). */
  warnings: RoiBody['warnings'];
  reasons: string[];
}

/** An amount as a person says it: €38M, €850K (other currencies by their code: 38M GBP). */
export function spokenMoney(amount: number, code: string): string {
  const abs = Math.abs(amount);
  const text = abs >= 1e6 ? `${(abs / 1e6).toFixed(abs >= 1e7 ? 0 : 1)}M` : abs >= 1e3 ? `${Math.round(abs / 1e3)}K` : `${Math.round(abs)}`;
  const sign = amount < 0 ? '-' : '';
  return code === 'EUR' ? `${sign}€${text}` : `${sign}${text} ${code}`;
}

/** Up to three plain sentences from the numbers shown: minutes, what he adds, what he will be worth. */
function reasonsOf(c: Omit<RecommendedCandidate, 'warnings' | 'reasons'>, f: CandidateFacts, code: string): string[] {
  const out: string[] = [];
  out.push(`Expected to start ${Math.round(c.playing_time_percentage * 100)}% of the club's league matches next season.`);
  out.push(c.increase_in_expected_position >= 0.05
    ? `Adds ${c.increase_in_expected_position.toFixed(1)} places in the expected table, ${spokenMoney(c.on_field_value, code)} of league revenue over three seasons.`
    : `Adds no place in the expected table: ${spokenMoney(c.on_field_value, code)} of league revenue over three seasons.`);
  const fee = c.expected_transfer_value, future = c.future_transfer_value;
  const trend = fee === 0 ? 'Value' : future >= 1.1 * fee ? 'Value grows' : future >= 0.8 * fee ? 'Value holds' : 'Value falls';
  let value = `${trend}: ${spokenMoney(future, code)} in three years against a fee of ${spokenMoney(fee, code)}`;
  if (f.contractEnding) value += `; contract ends ${f.contractEndDate}`;
  out.push(`${value}.`);
  return out;
}

/** The candidate as /get_roi_analysis answers for him (with the same wage): every number is the ROI answer's own. */
export function candidateOf(snapshot: Snapshot, p: PoolPlayer, roi: RoiBody, money: Money): RecommendedCandidate {
  const club = p.currentTeamId === null ? undefined : snapshot.clubs.get(p.currentTeamId);
  const facts = candidateFacts(snapshot, p.playerId);
  const wage = roi.annual_wage ?? 0, wageEur = roi.annual_wage_in_eur ?? 0;
  const numbers = {
    player_id: p.playerId,
    name: snapshot.players.get(p.playerId)!.name,
    age: roi.player_info.age,
    club_id: club?.id ?? null,
    club_name: club?.name ?? null,
    market_value_in_eur: facts.marketValueEur,
    contract_end_date: facts.contractEndDate,
    expected_transfer_value: roi.expected_transfer_value,
    expected_transfer_value_in_eur: roi.expected_transfer_value_in_eur,
    future_transfer_value: roi.future_transfer_value.future_transfer_value,
    future_transfer_value_in_eur: roi.future_transfer_value.future_transfer_value_in_eur,
    on_field_value: roi.sportive_impact.on_field_value,
    on_field_value_in_eur: roi.sportive_impact.on_field_value_in_eur,
    increase_in_expected_position: roi.sportive_impact.simulation.increase_in_expected_position,
    playing_time_percentage: roi.sportive_impact.playing_time_percentage,
    total_value_created: roi.total_value_created,
    total_value_created_in_eur: roi.total_value_created_in_eur,
    // what the signing leaves the club: the ROI answer's value created less its fee and three years of its wage
    net_value_created: roi.total_value_created - roi.expected_transfer_value - 3 * wage,
    net_value_created_in_eur: roi.total_value_created_in_eur - roi.expected_transfer_value_in_eur - 3 * wageEur,
    return_on_investment: roi.return_on_investment,
  };
  return { ...numbers, warnings: roi.warnings, reasons: reasonsOf(numbers, facts, money.code) };
}

const SORTED_BY: Record<RecommendSort, (c: RecommendedCandidate) => number | null> = {
  net_value_created: (c) => c.net_value_created,
  total_value_created: (c) => c.total_value_created,
  return_on_investment: (c) => c.return_on_investment,
  on_field_value: (c) => c.on_field_value,
  future_transfer_value: (c) => c.future_transfer_value,
  expected_transfer_value: (c) => c.expected_transfer_value,
};

/** The order of the answer, on the numbers as shown: the sort highest first (a null ROI last), then player id. */
export function compareCandidates(sort: RecommendSort): (a: RecommendedCandidate, b: RecommendedCandidate) => number {
  const value = SORTED_BY[sort];
  return (a, b) => {
    const va = value(a), vb = value(b);
    if (va !== vb) {
      if (va === null) return 1;
      if (vb === null) return -1;
      return vb - va;
    }
    return a.player_id < b.player_id ? -1 : a.player_id > b.player_id ? 1 : 0;
  };
}

/** POST /v1/recommend_signings's body: the shortlist as ROI answers, best first, at most `limit`. */
export function presentRecommendation(
  rec: Recommendation, snapshot: Snapshot, money: Money, q: { limit: number; sort: RecommendSort; annualWage: number | null },
) {
  const given: RoiGiven = { expectedTransferValue: null, annualWage: q.annualWage };
  const candidates = rec.shortlist
    .map((c) => candidateOf(snapshot, c.player, presentRoi(c.roi, given, money), money))
    .sort(compareCandidates(q.sort))
    .slice(0, q.limit);
  return {
    club_id: rec.clubId,
    position: rec.position,
    season: seasonLabel(rec.season),
    currency: money.code,
    candidates_considered: rec.candidatesConsidered,
    candidates,
  };
}
