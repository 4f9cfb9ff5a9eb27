import type { Snapshot } from '../../domain/snapshot.js';
import { seasonLabel } from '../../domain/season.js';
import type { Money } from '../../money/convert.js';
import type { PoolPlayer, Recommendation } from '../../valuation/recommend/index.js';
import { presentRoi, type RoiBody } from './analysis.js';

export interface RecommendedCandidate {
  player_id: string;
  name: string;
  age: number | null;
  club_id: string | null;
  club_name: string | null;
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
  return_on_investment: number | null;
  /** The ROI answer's warnings (free_agent, stale_value; never already_at_club: his club's players are no candidates). */
  warnings: RoiBody['warnings'];
}

/** The candidate as /get_roi_analysis answers for him: every number is the ROI answer's own. */
export function candidateOf(snapshot: Snapshot, p: PoolPlayer, roi: RoiBody): RecommendedCandidate {
  const club = p.currentTeamId === null ? undefined : snapshot.clubs.get(p.currentTeamId);
  return {
    player_id: p.playerId,
    name: snapshot.players.get(p.playerId)!.name,
    age: roi.player_info.age,
    club_id: club?.id ?? null,
    club_name: club?.name ?? null,
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
    return_on_investment: roi.return_on_investment,
    warnings: roi.warnings,
  };
}

/** The order of the answer, on the numbers as shown: ROI highest first (null last), then total value created, then player id. */
export function compareCandidates(a: RecommendedCandidate, b: RecommendedCandidate): number {
  const ra = a.return_on_investment, rb = b.return_on_investment;
  if (ra !== rb) {
    if (ra === null) return 1;
    if (rb === null) return -1;
    return rb - ra;
  }
  return b.total_value_created - a.total_value_created || b.total_value_created_in_eur - a.total_value_created_in_eur ||
    (a.player_id < b.player_id ? -1 : a.player_id > b.player_id ? 1 : 0);
}

/** POST /v1/recommend_signings's body: the shortlist as ROI answers, best first, at most `limit`. */
export function presentRecommendation(rec: Recommendation, snapshot: Snapshot, money: Money, limit: number) {
  const none = { expectedTransferValue: null, annualWage: null };
  const candidates = rec.shortlist
    .map((c) => candidateOf(snapshot, c.player, presentRoi(c.roi, none, money)))
    .sort(compareCandidates)
    .slice(0, limit);
  return {
    club_id: rec.clubId,
    position: rec.position,
    season: seasonLabel(rec.season),
    currency: money.code,
    candidates_considered: rec.candidatesConsidered,
    candidates,
  };
}
