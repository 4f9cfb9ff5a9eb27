/**
 * What a recommendation says of a candidate beyond the ROI numbers: his latest crowd value, his
 * contract, and the warnings they call for (EXTENSIONS.md, "Warnings on every analysis answer").
 */
import type { Snapshot } from '../../domain/snapshot.js';
import { featureIndex, latestValue } from '../features/index.js';

export interface CandidateFacts {
  /** latest crowd value on or before the as-of date (EUR), null without one */
  marketValueEur: number | null;
  marketValueDate: string | null;
  /** end of the contract in force, null when unknown */
  contractEndDate: string | null;
  /** the crowd value is more than 12 months older than the as-of date */
  staleValue: boolean;
  /** the contract ended on or before the as-of date */
  freeAgent: boolean;
  /** the contract ends within 12 months after the as-of date */
  contractEnding: boolean;
}

function addYears(date: string, years: number): string {
  return `${String(Number(date.slice(0, 4)) + years).padStart(4, '0')}${date.slice(4)}`;
}

export function candidateFacts(snapshot: Snapshot, playerId: string): CandidateFacts {
  const latest = latestValue(featureIndex(snapshot), playerId, snapshot.asOf);
  const contractEndDate = snapshot.contracts.get(playerId)?.end_date ?? null;
  const asOf = snapshot.asOf;
  return {
    marketValueEur: latest?.valueEur ?? null,
    marketValueDate: latest?.date ?? null,
    contractEndDate,
    staleValue: latest !== null && latest.date < addYears(asOf, -1),
    freeAgent: contractEndDate !== null && contractEndDate <= asOf,
    contractEnding: contractEndDate !== null && contractEndDate > asOf && contractEndDate <= addYears(asOf, 1),
  };
}
