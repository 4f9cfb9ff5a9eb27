import cliProgress from 'cli-progress';
import type { TableFile } from './csv-source.js';
import type { TableSummary } from './tables.js';

/** Where the importer tells what it is doing; the CLI draws bars or lines, a server could log. */
export interface ImportReporter {
  tableStart(table: string, file: TableFile): void;
  tableBytes(table: string, bytesRead: number): void;
  tableDone(table: string, summary: TableSummary): void;
  tableSkipped(table: string, why: string): void;
  /** Rows of one of our tables written inside the replace transaction. */
  stored(table: string, rows: number): void;
  info(line: string): void;
  /** Called once at the end, whatever happened. */
  finish?(): void;
}

export const silentReporter: ImportReporter = {
  tableStart: () => {},
  tableBytes: () => {},
  tableDone: () => {},
  tableSkipped: () => {},
  stored: () => {},
  info: () => {},
};

const mib = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MiB`;

function doneLine(table: string, s: TableSummary): string {
  const reasons = Object.entries(s.reasons)
    .map(([r, n]) => `${r} ${n}`)
    .join(', ');
  return `${table}: ${s.read} read, ${s.loaded} loaded, ${s.rejected} rejected${reasons ? ` (${reasons})` : ''}`;
}

/** Plain lines, for logs and pipes. */
export function lineReporter(out: { write(line: string): unknown } = process.stderr): ImportReporter {
  return {
    tableStart: (table, file) => out.write(`${table}: reading ${file.path} (${mib(file.bytes)})\n`),
    tableBytes: () => {},
    tableDone: (table, s) => out.write(`${doneLine(table, s)}\n`),
    tableSkipped: (table, why) => out.write(`${table}: skipped, ${why}\n`),
    stored: (table, rows) => out.write(`stored ${table}: ${rows} rows\n`),
    info: (line) => out.write(`${line}\n`),
  };
}

/** One progress bar per table, by bytes read of its file, on a terminal. */
export function barReporter(out: NodeJS.WriteStream = process.stderr): ImportReporter {
  const multi = new cliProgress.MultiBar(
    { stream: out, format: '{table} [{bar}] {percentage}% | {done}/{size}', hideCursor: true, clearOnComplete: false, fps: 10 },
    cliProgress.Presets.shades_classic,
  );
  const bars = new Map<string, cliProgress.SingleBar>();
  let stopped = false;
  const stop = () => {
    if (!stopped) multi.stop();
    stopped = true;
  };
  const write = (line: string) => (stopped ? out.write(`${line}\n`) : multi.log(`${line}\n`));
  return {
    tableStart: (table, file) => {
      bars.set(table, multi.create(file.bytes, 0, { table: table.padEnd(17), done: mib(0), size: mib(file.bytes) }));
    },
    tableBytes: (table, bytes) => bars.get(table)?.update(bytes, { done: mib(bytes) }),
    tableDone: (table, s) => {
      const bar = bars.get(table);
      bar?.update(bar.getTotal(), { done: mib(bar.getTotal()) });
      write(doneLine(table, s));
    },
    tableSkipped: (table, why) => write(`${table}: skipped, ${why}`),
    // Storing happens after every file is read: the bars are done by then.
    stored: (table, rows) => {
      stop();
      write(`stored ${table}: ${rows} rows`);
    },
    info: (line) => write(line),
    finish: stop,
  };
}
