import type { RejectReason } from './rejects.js';

/** What the import did with one table: read by the importer, told by the reporter. */
export interface TableSummary {
  file: string | null;
  read: number;
  loaded: number;
  rejected: number;
  reasons: Partial<Record<RejectReason, number>>;
  /** Rows kept but adjusted, or read but not turned into rows, by cause. */
  notes: Record<string, number>;
  skipped?: string;
}

export function newSummary(file: string | null): TableSummary {
  return { file, read: 0, loaded: 0, rejected: 0, reasons: {}, notes: {} };
}
