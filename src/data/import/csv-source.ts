import { createHash } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { Parser, type CsvError, type Options } from 'csv-parse';

/** A table file of the layout: `<table>.csv` or `<table>.csv.gz`. */
export interface TableFile {
  table: string;
  path: string;
  bytes: number;
  gzip: boolean;
}

/** Finds `<table>.csv.gz` or `<table>.csv` in a folder; both present is an error (which one is the truth?). */
export function findTableFile(dir: string, table: string): TableFile | null {
  const gz = join(dir, `${table}.csv.gz`);
  const plain = join(dir, `${table}.csv`);
  const hasGz = existsSync(gz);
  const hasPlain = existsSync(plain);
  if (hasGz && hasPlain) throw new Error(`Both ${table}.csv and ${table}.csv.gz are in ${dir}; keep one`);
  if (!hasGz && !hasPlain) return null;
  const path = hasGz ? gz : plain;
  return { table, path, bytes: statSync(path).size, gzip: hasGz };
}

/** A file given by path (the EA files), gzip by name. */
export function fileAt(table: string, path: string): TableFile {
  if (!existsSync(path)) throw new Error(`File not found: ${path}`);
  return { table, path, bytes: statSync(path).size, gzip: path.endsWith('.gz') };
}

export type CsvRecord = Record<string, string>;

export interface CsvItem {
  row: CsvRecord;
  /** Line number in the (uncompressed) file, header = line 1. */
  line: number;
  raw: string;
  /** Set when the row is unusable as CSV (wrong column count, broken quoting). */
  error?: 'column_count' | 'malformed_csv';
}

/** Counts the bytes read from disk (compressed bytes for .gz), for a progress bar by file size. */
class ByteCounter extends Transform {
  private total = 0;
  private last = 0;
  constructor(private readonly onBytes: (bytes: number) => void) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.total += chunk.length;
    if (this.total - this.last >= 256 * 1024) {
      this.last = this.total;
      this.onBytes(this.total);
    }
    cb(null, chunk);
  }
  override _flush(cb: TransformCallback): void {
    this.onBytes(this.total);
    cb();
  }
}

interface ParsedRecord {
  record: CsvRecord;
  raw: string;
  lines: number;
  invalidFieldLength: number;
}

/**
 * A parser that tags each record with the two counters of `parser.info` the reader needs, read as it
 * pushes the record (the moment csv-parse's own `info: true` copies them). That option copies the
 * whole info object per record: a third of the parse's CPU (1 of 2.4 s on player_valuations).
 */
class CountingParser extends Parser {
  constructor(options: Options) {
    super(options);
  }
  override push(chunk: unknown): boolean {
    if (chunk === null) return super.push(null);
    const { record, raw } = chunk as { record: CsvRecord; raw: string };
    return super.push({ record, raw, lines: this.info.lines, invalidFieldLength: this.info.invalid_field_length } satisfies ParsedRecord);
  }
}

/**
 * Streams a CSV (or gzip CSV) file as records keyed by header. Rows with a wrong number of fields or
 * broken quoting are yielded with `error` set instead of stopping the parse, so they can be rejected.
 */
export async function* readCsv(file: TableFile, onBytes: (bytes: number) => void = () => {}): AsyncGenerator<CsvItem> {
  const skipped: CsvItem[] = [];
  const parser = new CountingParser({
    columns: (header: string[]) => header.map((h, i) => (h === '' && i === 0 ? '_index' : h.trim())),
    bom: true,
    raw: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_skip: (err: CsvError | undefined, raw: string | undefined) => {
      skipped.push({ row: {}, line: Number((err as { lines?: number } | undefined)?.lines ?? 0), raw: raw ?? '', error: 'malformed_csv' });
      return undefined;
    },
  });
  let source: NodeJS.ReadableStream = createReadStream(file.path).pipe(new ByteCounter(onBytes));
  if (file.gzip) source = source.pipe(createGunzip());
  source.on('error', (err) => parser.destroy(err as Error));
  source.pipe(parser);
  let invalidSoFar = 0;
  for await (const item of parser as AsyncIterable<ParsedRecord>) {
    while (skipped.length) yield skipped.shift() as CsvItem;
    const rawLine = item.raw.replace(/\r?\n$/, '');
    // invalid_field_length is a running count: a rise marks this record as having the wrong width.
    const bad = item.invalidFieldLength > invalidSoFar;
    invalidSoFar = item.invalidFieldLength;
    yield { row: item.record, line: item.lines, raw: rawLine, ...(bad ? { error: 'column_count' as const } : {}) };
  }
  while (skipped.length) yield skipped.shift() as CsvItem;
}

/** sha256 over the given files' names and bytes, plus any extra strings (options, importer version). */
export async function hashInputs(files: TableFile[], extra: string[]): Promise<string> {
  const h = createHash('sha256');
  for (const f of [...files].sort((a, b) => a.table.localeCompare(b.table))) {
    h.update(`${f.table}\0${f.gzip ? 'gz' : 'csv'}\0${f.bytes}\0`);
    for await (const chunk of createReadStream(f.path)) h.update(chunk as Buffer);
  }
  for (const e of extra) h.update(`\0${e}`);
  return h.digest('hex');
}
