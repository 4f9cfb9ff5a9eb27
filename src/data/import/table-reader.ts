import { readCsv, type CsvItem, type TableFile } from './csv-source.js';
import { RejectLog, type RejectReason } from './rejects.js';
import type { ImportReporter } from './reporter.js';
import { newSummary, type TableSummary } from './tables.js';

/**
 * One import's reading of its tables: streams each file, counts what it read, loaded, rejected and
 * noted per table, keeps the rejects, and tells the reporter. The per-table readers (tm-*.ts) share it.
 */
export class TableReader {
  readonly tables: Record<string, TableSummary> = {};
  readonly rejects = new RejectLog();

  constructor(
    readonly dir: string,
    readonly files: ReadonlyMap<string, TableFile>,
    readonly reporter: ImportReporter,
  ) {}

  readonly reject = (table: string, item: CsvItem, reason: RejectReason, detail: string): false => {
    this.rejects.add(table, item.line, reason, detail, item.raw);
    return false;
  };

  /** Streams one table; `handle` returns true when the row was taken. */
  async eachRow(table: string, file: TableFile | undefined, handle: (item: CsvItem, r: Record<string, string>) => boolean): Promise<TableSummary> {
    const s = newSummary(file?.path ?? null);
    this.tables[table] = s;
    if (!file) {
      s.skipped = 'file absent';
      this.reporter.tableSkipped(table, `no ${table}.csv or ${table}.csv.gz in ${this.dir}`);
      return s;
    }
    this.reporter.tableStart(table, file);
    for await (const item of readCsv(file, (b) => this.reporter.tableBytes(table, b))) {
      s.read++;
      if (item.error) {
        this.reject(table, item, item.error, item.error === 'column_count' ? 'wrong number of fields' : 'broken CSV quoting');
        continue;
      }
      if (handle(item, item.row)) s.loaded++;
    }
    return s;
  }

  finish(table: string): void {
    const s = this.tables[table];
    s.rejected = this.rejects.count(table);
    s.reasons = this.rejects.reasons(table);
    if (!s.skipped) this.reporter.tableDone(table, s);
  }

  readonly note = (table: string, what: string): void => {
    const n = this.tables[table].notes;
    n[what] = (n[what] ?? 0) + 1;
  };
}

/** The later of two ISO dates. */
export const laterDate = (a: string, b: string): string => (b > a ? b : a);
