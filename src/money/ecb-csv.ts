import { parse } from 'csv-parse/sync';
import { createRateTable, ECB_SOURCE, isIsoDate, type RateTable } from './rates.js';

/** The text is not an ECB reference-rate CSV, or its newest row is unusable. */
export class EcbCsvError extends Error {}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** `2024-06-28` or the daily file's `28 June 2024` (month name full or 3 letters) to ISO; undefined otherwise. */
export function parseEcbDate(s: string): string | undefined {
  const t = s.trim();
  if (isIsoDate(t)) return t;
  const m = /^(\d{1,2})\s+([A-Za-z]+)\.?\s+(\d{4})$/.exec(t);
  if (!m) return undefined;
  const name = m[2].toLowerCase();
  const month = MONTHS.findIndex((full) => full === name || (name.length === 3 && full.startsWith(name)));
  if (month < 0) return undefined;
  const iso = `${m[3]}-${String(month + 1).padStart(2, '0')}-${m[1].padStart(2, '0')}`;
  return isIsoDate(iso) ? iso : undefined;
}

const MISSING = /^(N\/?A|)$/i;
const DECIMAL = /^\d+(\.\d+)?$/;

/**
 * Reads the ECB euro reference-rate CSV: the daily `eurofxref.csv` (one data row, dates like
 * `28 June 2024`) or the historical `eurofxref-hist.csv` (one row per day, ISO dates). Header
 * `Date, USD, JPY, ...`, possibly with a trailing comma. The newest row becomes the table;
 * `N/A` and blank cells (currencies not quoted that day) are skipped, never filled from an
 * older day, so the table holds the rates of one date only.
 */
export function parseEcbCsv(text: string, source: string = ECB_SOURCE): RateTable {
  if (text.trim() === '') throw new EcbCsvError('ECB rates CSV is empty');
  let records: string[][];
  try {
    records = parse(text, { bom: true, trim: true, skip_empty_lines: true, relax_column_count: true, relax_quotes: true });
  } catch (err) {
    throw new EcbCsvError(`Not an ECB reference-rate CSV: ${err instanceof Error ? err.message : String(err)}`);
  }
  const header = records[0] ?? [];
  if ((header[0] ?? '').toLowerCase() !== 'date') {
    throw new EcbCsvError(`Not an ECB reference-rate CSV: the header must start with "Date", found ${JSON.stringify(header[0] ?? '')}`);
  }

  const columns: Array<{ index: number; code: string }> = [];
  const seen = new Set<string>();
  header.forEach((name, index) => {
    if (index === 0 || name === '') return; // the trailing comma leaves a blank column
    if (!/^[A-Z]{3}$/.test(name)) {
      throw new EcbCsvError(`Not an ECB reference-rate CSV: header column ${index + 1} is ${JSON.stringify(name)}, not a currency code`);
    }
    if (seen.has(name)) throw new EcbCsvError(`Not an ECB reference-rate CSV: currency ${name} appears twice in the header`);
    seen.add(name);
    columns.push({ index, code: name });
  });
  if (columns.length === 0) throw new EcbCsvError('Not an ECB reference-rate CSV: the header names no currencies');

  const rows = records.slice(1);
  if (rows.length === 0) throw new EcbCsvError('ECB rates CSV has a header but no data row');
  let newest: { date: string; row: string[] } | undefined;
  rows.forEach((row, i) => {
    const date = parseEcbDate(row[0] ?? '');
    if (date === undefined) {
      throw new EcbCsvError(`ECB rates CSV data row ${i + 1}: ${JSON.stringify(row[0] ?? '')} is not a date (expected YYYY-MM-DD or "28 June 2024")`);
    }
    if (newest === undefined || date > newest.date) newest = { date, row };
  });
  const { date, row } = newest!;

  const extra = row.findIndex((cell, index) => index > 0 && cell !== '' && (index >= header.length || header[index] === ''));
  if (extra >= 0) throw new EcbCsvError(`ECB rates CSV row of ${date}: value ${JSON.stringify(row[extra])} in column ${extra + 1} has no currency in the header`);

  const rates: Record<string, number> = {};
  for (const { index, code } of columns) {
    const cell = row[index] ?? '';
    if (MISSING.test(cell)) continue;
    const rate = DECIMAL.test(cell) ? Number(cell) : NaN;
    if (!(rate > 0)) throw new EcbCsvError(`ECB rates CSV row of ${date}: rate for ${code} is ${JSON.stringify(cell)}, not a positive number`);
    rates[code] = rate;
  }
  if (Object.keys(rates).length === 0) throw new EcbCsvError(`ECB rates CSV row of ${date} holds no rates (all N/A)`);
  try {
    return createRateTable({ date, source, rates });
  } catch (err) {
    throw new EcbCsvError(`ECB rates CSV row of ${date}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
