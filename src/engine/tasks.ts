/**
 * The analysis work the pool runs: season simulations (sportive impact, ROI, squad analysis, league
 * forecast) and recommendation screening. Plain data in, valuation/'s results (EUR, unrounded) out,
 * so a task crosses a thread boundary and http/ presents the result; `runTask` is the one
 * implementation, called by the worker and, without a pool, in-thread.
 */
import { LRUCache } from 'lru-cache';
import type { PositionCode } from '../domain/positions.js';
import type { Snapshot } from '../domain/snapshot.js';
import { moneyPair } from '../money/convert.js';
import type { RateTable } from '../money/rates.js';
import { leagueForecastOf, matchForecastOf, roi, sportiveImpactOf, squadValue, type RoiResult } from '../valuation/analysis.js';
import type { ModelBundle } from '../valuation/bundle.js';
import { ImpactError, warmClub, type ImpactErrorCode } from '../valuation/impact/index.js';
import { recommendSignings, type RecommendSort } from '../valuation/recommend/index.js';

export type Task =
  /**
   * unpack the package (warms a worker ahead of the first request); the worker then builds what the
   * analyses of each club named share, between tasks (worker.ts)
   */
  | { kind: 'warm'; clubs?: string[] }
  | { kind: 'impact'; playerId: string; clubId: string }
  | { kind: 'roi'; playerId: string; clubId: string; feeEur: number | null; annualWageEur: number | null }
  | { kind: 'squad'; clubId: string; squad: { playerId: string; position: string }[] | null }
  | { kind: 'forecast'; league: string }
  | { kind: 'match'; homeClubId: string; awayClubId: string; neutral: boolean }
  | {
    kind: 'recommend';
    clubId: string;
    position: PositionCode;
    /** the caller's limit on the fee as the answer shows it, in `money`; null: none */
    maxFee: { amount: number; code: string; rates: RateTable } | null;
    maxAge: number | null;
    competitions: string[] | null;
    limit: number;
    /** clubs the caller's plan covers; null: all */
    coveredClubs: string[] | null;
    /** the caller's yearly wage for every candidate (EUR); null: none */
    annualWageEur: number | null;
    /** 0-100: the playing time (as shown, two decimals) every candidate reaches */
    minPlayingTimePercentage: number;
    sort: RecommendSort;
  };

/**
 * Builds what the analyses of `club` share (valuation/impact's warmClub); a club that cannot be
 * simulated answers its own error when asked, so there is nothing to keep for it.
 */
export function warmClubOf(m: EngineModels, club: string): void {
  if (!m.bundle.impact) return;
  try {
    warmClub(m.bundle.impact, m.snapshot, club);
  } catch (err) {
    if (!(err instanceof ImpactError)) throw err;
  }
}

/** What a task answers: the result, or the impact model's refusal (an ImpactError does not survive the thread boundary). */
export type TaskResult =
  | { ok: true; result: unknown }
  | { ok: false; code: ImpactErrorCode; message: string; index: number | null };

export interface EngineModels {
  snapshot: Snapshot;
  bundle: ModelBundle;
  /** exact ROI results of recommendation shortlists, by player and club; kept per snapshot and models */
  rois: LRUCache<string, RoiResult>;
}

/**
 * Exact ROI results kept per worker for recommendation shortlists, least recently used leaving first:
 * about 5 KB each on the demo world, so 2,000 hold 10 MB a worker; a cold recommendation makes about
 * 20, so the shortlists of about a hundred recent ones stay.
 */
export const ROIS_KEPT = 2_000;

/** The models a thread serves, with an empty cache of ROI results. */
export function engineModels(snapshot: Snapshot, bundle: ModelBundle): EngineModels {
  return { snapshot, bundle, rois: new LRUCache({ max: ROIS_KEPT }) };
}

function compute(m: EngineModels, task: Task): unknown {
  const { snapshot, bundle } = m;
  switch (task.kind) {
    case 'warm':
      // the clubs are warmed by the worker between tasks (worker.ts), not here
      return null;
    case 'impact':
      return sportiveImpactOf(bundle, snapshot, task);
    case 'roi':
      return roi(bundle, snapshot, task);
    case 'squad':
      return squadValue(bundle, snapshot, task);
    case 'forecast':
      return leagueForecastOf(bundle, snapshot, task.league);
    case 'match':
      return matchForecastOf(bundle, snapshot, task);
    case 'recommend': {
      const covered = task.coveredClubs === null ? null : new Set(task.coveredClubs);
      const maxFee = task.maxFee;
      return recommendSignings(bundle, snapshot, {
        clubId: task.clubId,
        position: task.position,
        // the fee as the answer shows it, so the filter and the number agree
        feeAllowed: maxFee === null ? null : (feeEur) => moneyPair(feeEur, maxFee.code, maxFee.rates).amount <= maxFee.amount,
        maxAge: task.maxAge,
        competitions: task.competitions,
        limit: task.limit,
        covered: covered === null ? () => true : (team, owner) => (team !== null && covered.has(team)) || (owner !== null && covered.has(owner)),
        annualWageEur: task.annualWageEur,
        // on the playing time as shown (two decimals), so the filter and the number agree
        playsEnough: (share) => Math.round(share * 100) >= task.minPlayingTimePercentage - 1e-9,
        minPlayingTime: task.minPlayingTimePercentage / 100,
        sort: task.sort,
      }, {
        roi: (playerId) => {
          const key = `${playerId}|${task.clubId}`;
          let found = m.rois.get(key);
          if (!found) m.rois.set(key, (found = roi(bundle, snapshot, { playerId, clubId: task.clubId, feeEur: null, annualWageEur: null })));
          return found;
        },
      });
    }
  }
}

export function runTask(m: EngineModels, task: Task): TaskResult {
  try {
    return { ok: true, result: compute(m, task) };
  } catch (err) {
    if (err instanceof ImpactError) return { ok: false, code: err.code, message: err.message, index: err.index ?? null };
    throw err;
  }
}
