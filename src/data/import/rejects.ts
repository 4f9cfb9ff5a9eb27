import { createWriteStream } from 'node:fs';

export type RejectReason =
  | 'column_count'
  | 'malformed_csv'
  | 'missing_field'
  | 'bad_number'
  | 'bad_date'
  | 'bad_value'
  | 'duplicate'
  | 'unknown_player'
  | 'age_mismatch'
  | 'unknown_club'
  | 'unknown_competition'
  | 'unknown_game';

export interface RejectedRow {
  table: string;
  line: number;
  reason: RejectReason;
  detail: string;
  raw: string;
}

function csvField(s: string | number): string {
  const v = String(s);
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** Collects rejected rows with their reason; counts per table and reason; writes them as CSV. */
export class RejectLog {
  readonly rows: RejectedRow[] = [];
  private readonly counts = new Map<string, Map<RejectReason, number>>();

  add(table: string, line: number, reason: RejectReason, detail: string, raw: string): void {
    this.rows.push({ table, line, reason, detail, raw });
    let t = this.counts.get(table);
    if (!t) this.counts.set(table, (t = new Map()));
    t.set(reason, (t.get(reason) ?? 0) + 1);
  }

  count(table?: string): number {
    if (table === undefined) return this.rows.length;
    let n = 0;
    for (const v of this.counts.get(table)?.values() ?? []) n += v;
    return n;
  }

  reasons(table: string): Partial<Record<RejectReason, number>> {
    return Object.fromEntries([...(this.counts.get(table) ?? new Map<RejectReason, number>())].sort());
  }

  /** Writes `table,line,reason,detail,raw` rows (header first). */
  async write(path: string): Promise<void> {
    const out = createWriteStream(path, { encoding: 'utf8' });
    const done = new Promise<void>((resolve, reject) => {
      out.on('finish', resolve);
      out.on('error', reject);
    });
    out.write('table,line,reason,detail,raw\n');
    for (const r of this.rows) {
      const line = `${[r.table, r.line, r.reason, r.detail, r.raw].map(csvField).join(',')}\n`;
      if (!out.write(line)) await new Promise<void>((res) => out.once('drain', () => res()));
    }
    out.end();
    await done;
  }
}
