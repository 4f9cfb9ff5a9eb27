import type { Snapshot } from '../domain/snapshot.js';
import { playerFacts } from '../domain/player-facts.js';
import { roundMoney } from '../money/convert.js';
import type { ModelBundle } from './bundle.js';
import { futureValue, type FutureValue } from './answers.js';
import { contractEndUsed, playerWarnings, type Warning } from './warnings.js';
import { predictFee } from './fee/index.js';
import {
  ImpactError, clubSeasonWarnings, forecastWarnings, leagueMatchModel, leagueStrengths, roiOf, sportiveImpact, squadAnalysis,
  type ImpactArtifact, type SportiveImpact, type SquadAnalysis, type SquadEntryInput,
} from './impact/index.js';
import { leagueForecast, type LeagueForecast } from './league/forecast.js';
import { goalRates, matchProbabilities, type MatchProbabilities } from './league/match.js';

/**
 * Sportive impact, ROI, squad analysis and the league forecast as results: the models' outputs, every
 * amount in EUR and unrounded. Pure; http/ presents them.
 */
function impactModel(bundle: ModelBundle): ImpactArtifact {
  if (!bundle.impact) throw new ImpactError('no_training_data', 'the models were trained on data without league results');
  return bundle.impact;
}

/** The impact model's answer with the answer's warnings (already_at_club, stale_value). */
export type SportiveImpactResult = SportiveImpact & { warnings: Warning[] };

export function sportiveImpactOf(bundle: ModelBundle, snapshot: Snapshot, q: { playerId: string; clubId: string }): SportiveImpactResult {
  const model = impactModel(bundle);
  // what the simulation assumed about the club's season, then the player's own warnings
  return {
    ...sportiveImpact(model, snapshot, q),
    warnings: [...clubSeasonWarnings(model, snapshot, q.clubId), ...playerWarnings(snapshot, q.playerId, { clubId: q.clubId })],
  };
}

export interface RoiQuery {
  playerId: string;
  clubId: string;
  /** The fee the caller gave, in EUR; null: his expected fee for a move to the club. */
  feeEur: number | null;
  /** The yearly wage the caller gave, in EUR; null: no wage cost. */
  annualWageEur: number | null;
}

export interface RoiResult {
  /** The fee counted as cost: the one given, else the expected fee for a move to the club (unrounded). */
  feeEur: number;
  impact: SportiveImpactResult;
  /** The future value with no fee given: the fee paid is a cost, not the player's worth. */
  future: FutureValue;
  totalValueCreatedEur: number;
  /** Value created ÷ (fee + 3 × wage); null when the cost is 0. */
  returnOnInvestment: number | null;
  player: { age: number | null; position: string; role: string; rating: number | null; potential: number | null };
  /** already_at_club, free_agent (the fee is paid now), stale_value. */
  warnings: Warning[];
}

export function roi(bundle: ModelBundle, snapshot: Snapshot, q: RoiQuery): RoiResult {
  const feeEur = q.feeEur ?? predictFee(bundle.fee, snapshot, { playerId: q.playerId, targetClubId: q.clubId }).feeEur;
  const impact = sportiveImpactOf(bundle, snapshot, q);
  // The baseline is /get_future_transfer_value's with no fee given: his fee on a neutral market.
  const future = futureValue(bundle, snapshot, { playerId: q.playerId, clubId: q.clubId });
  const totalValueCreatedEur = impact.onFieldValueEur + future.futureValueEur;
  // An expected fee is a cost in whole euros, as it is paid.
  const costFeeEur = q.feeEur ?? roundMoney(feeEur);
  const facts = playerFacts(snapshot, snapshot.players.get(q.playerId)!);
  const rating = facts.latestRating;
  return {
    feeEur,
    impact,
    future,
    totalValueCreatedEur,
    returnOnInvestment: roiOf(totalValueCreatedEur, costFeeEur, q.annualWageEur),
    player: { age: facts.age, position: facts.position, role: facts.role, rating: rating?.rating ?? null, potential: rating?.potential ?? null },
    warnings: [
      ...impact.warnings.filter((w) => w.code === 'season_clubs_assumed' || w.code === 'thin_squad'),
      ...playerWarnings(snapshot, q.playerId, { clubId: q.clubId, contractEnd: contractEndUsed(snapshot, q.playerId) }),
    ],
  };
}

/**
 * The club's actual squad in the analysis season: its row of the league's one actual-squad
 * simulation, which the league forecast reads too.
 */
export function actualSquadAnalysis(model: ImpactArtifact, snapshot: Snapshot, clubId: string): SquadAnalysis {
  return squadAnalysis(model, snapshot, { clubId });
}

export interface SquadValue {
  clubId: string;
  source: 'actual' | 'custom';
  expectedLeagueRank: number;
  /** Probability of each final place, index 0 = first (the shadow squad's before and after) */
  positionProbabilities: number[];
  season: number;
  squad: { name: string; playerId: string; position: string }[];
  totalFeeEur: number;
  totalFutureEur: number;
  /** The league simulation's: season_clubs_assumed, thin_squad */
  warnings: Warning[];
}

export function squadValue(bundle: ModelBundle, snapshot: Snapshot, q: { clubId: string; squad: SquadEntryInput[] | null }): SquadValue {
  const model = impactModel(bundle);
  const result = q.squad === null
    ? actualSquadAnalysis(model, snapshot, q.clubId)
    : squadAnalysis(model, snapshot, { clubId: q.clubId, squad: q.squad });
  let totalFeeEur = 0;
  let totalFutureEur = 0;
  for (const e of result.squad) {
    // The fee is a sale by his own club; the future value is the one /get_future_transfer_value gives
    // for this player at this club.
    totalFeeEur += predictFee(bundle.fee, snapshot, { playerId: e.playerId }).feeEur;
    totalFutureEur += futureValue(bundle, snapshot, { playerId: e.playerId, clubId: q.clubId }).futureValueEur;
  }
  return {
    clubId: q.clubId,
    source: q.squad === null ? 'actual' : 'custom',
    expectedLeagueRank: result.expectedLeagueRank,
    positionProbabilities: result.positionProbabilities,
    season: result.season,
    squad: result.squad.map((e) => ({ name: e.name, playerId: e.playerId, position: e.position })),
    totalFeeEur,
    totalFutureEur,
    warnings: clubSeasonWarnings(model, snapshot, q.clubId, q.squad === null ? undefined : result.squad.length),
  };
}

/** The analysis season's table of a domestic league, with its warnings. */
export type LeagueForecastResult = LeagueForecast & { warnings: Warning[] };

export function leagueForecastOf(bundle: ModelBundle, snapshot: Snapshot, league: string): LeagueForecastResult {
  const model = impactModel(bundle);
  return { ...leagueForecast(model, snapshot, league), warnings: forecastWarnings(model, snapshot, league) };
}

export interface MatchQuery {
  homeClubId: string;
  awayClubId: string;
  /** no home advantage */
  neutral: boolean;
}

/** One fixture of the analysis season as the league simulation plays it, with the likeliest scores. */
export type MatchForecastResult = MatchProbabilities & { season: number; warnings: Warning[] };

/** How many likely scores a match forecast lists. */
export const LIKELY_SCORES = 5;

export function matchForecastOf(bundle: ModelBundle, snapshot: Snapshot, q: MatchQuery): MatchForecastResult {
  const model = impactModel(bundle);
  const side = (clubId: string) => {
    const league = snapshot.analysisLeagueOfClub.get(clubId);
    if (!league) throw new ImpactError('club_without_league', `Club ${clubId} has no domestic league in the analysis season`);
    const s = leagueStrengths(model, snapshot, league);
    const i = s.clubs.indexOf(clubId);
    return { league, attack: s.attack[i], defence: s.defence[i] };
  };
  const home = side(q.homeClubId), away = side(q.awayClubId);
  // the home side's league sets the home advantage (the two may play in different leagues)
  const rates = goalRates({ ...leagueMatchModel(model, home.league), home, away }, q.neutral);
  const warnings: Warning[] = [...clubSeasonWarnings(model, snapshot, q.homeClubId)];
  for (const w of clubSeasonWarnings(model, snapshot, q.awayClubId)) if (!warnings.some((x) => x.message === w.message)) warnings.push(w);
  if (home.league !== away.league) {
    const name = (id: string) => snapshot.competitions.get(id)?.name ?? id;
    warnings.push({
      code: 'leagues_differ',
      message: `The two clubs play in different leagues (${name(home.league)} and ${name(away.league)}); each strength is measured within its own league, ` +
        'so the two are compared as if the leagues were equally strong.',
    });
  }
  return { ...matchProbabilities(rates, LIKELY_SCORES), season: snapshot.analysisSeason, warnings };
}
