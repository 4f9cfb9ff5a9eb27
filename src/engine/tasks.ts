/**
 * The analysis work the pool runs: season simulations (sportive impact, ROI, squad analysis, league
 * forecast) and recommendation screening. Plain data in, plain data out, so a task crosses a thread
 * boundary; `runTask` is the one implementation, called by the worker and, without a pool, in-thread.
 */
import type { PositionCode } from '../domain/positions.js';
import type { Snapshot } from '../domain/snapshot.js';
import type { RateTable } from '../money/rates.js';
import { leagueForecastAnswer, roiAnswer, sportiveImpactAnswer, squadAnswer } from '../valuation/analysis.js';
import type { Money } from '../valuation/answers.js';
import type { ModelBundle } from '../valuation/bundle.js';
import { ImpactError, type ImpactErrorCode } from '../valuation/impact/index.js';
import { recommendSignings, type RoiBody } from '../valuation/recommend/index.js';

export interface MoneySpec {
  code: string;
  rates: RateTable;
}

export type Task =
  | { kind: 'impact'; money: MoneySpec; playerId: string; clubId: string }
  | { kind: 'roi'; money: MoneySpec; playerId: string; clubId: string; annualWage: number | null; expectedTransferValue: number | null }
  | { kind: 'squad'; money: MoneySpec; clubId: string; squad: { playerId: string; position: string }[] | null }
  | { kind: 'forecast'; money: MoneySpec; league: string }
  | {
    kind: 'recommend';
    money: MoneySpec;
    clubId: string;
    position: PositionCode;
    maxExpectedTransferValue: number | null;
    maxAge: number | null;
    competitions: string[] | null;
    limit: number;
    /** clubs the caller's plan covers; null: all */
    coveredClubs: string[] | null;
  };

/** What a task answers: the body, or the impact model's refusal (an ImpactError does not survive the thread boundary). */
export type TaskResult =
  | { ok: true; body: unknown }
  | { ok: false; code: ImpactErrorCode; message: string; index: number | null };

export interface EngineModels {
  snapshot: Snapshot;
  bundle: ModelBundle;
  /** exact ROI answers of recommendation shortlists, per club; kept by the caller per snapshot and models */
  rois: Map<string, RoiBody>;
}

const ROIS_KEPT = 20_000;

function answer(m: EngineModels, task: Task): unknown {
  const { snapshot, bundle } = m;
  const money: Money = task.money;
  switch (task.kind) {
    case 'impact':
      return sportiveImpactAnswer(bundle, snapshot, money, task).body;
    case 'roi':
      return roiAnswer(bundle, snapshot, money, task);
    case 'squad':
      return squadAnswer(bundle, snapshot, money, task);
    case 'forecast':
      return leagueForecastAnswer(bundle, snapshot, money, task.league);
    case 'recommend': {
      const covered = task.coveredClubs === null ? null : new Set(task.coveredClubs);
      return recommendSignings(bundle, snapshot, money, {
        ...task,
        covered: covered === null ? () => true : (team, owner) => (team !== null && covered.has(team)) || (owner !== null && covered.has(owner)),
      }, {
        roi: (playerId) => {
          const key = `${playerId}|${task.clubId}|${money.code}|${money.rates.date}`;
          let found = m.rois.get(key);
          if (!found) {
            found = roiAnswer(bundle, snapshot, money, { playerId, clubId: task.clubId, annualWage: null, expectedTransferValue: null });
            if (m.rois.size >= ROIS_KEPT) m.rois.delete(m.rois.keys().next().value as string);
            m.rois.set(key, found);
          }
          return found;
        },
      });
    }
  }
}

export function runTask(m: EngineModels, task: Task): TaskResult {
  try {
    return { ok: true, body: answer(m, task) };
  } catch (err) {
    if (err instanceof ImpactError) return { ok: false, code: err.code, message: err.message, index: err.index ?? null };
    throw err;
  }
}
