// The default table is the ECB reference-rate set of 28 June 2024 (see the file's "note"); it
// serves until an operator imports a newer ECB file with `touchline rates import`.
import defaultRatesJson from './rates-default.json' with { type: 'json' };

/** Euro reference rates of one date: `rates[code]` is units of that currency per 1 EUR. */
export interface RateTable {
  /** ISO date `YYYY-MM-DD` the rates were published for. */
  readonly date: string;
  readonly source: string;
  /** Non-EUR currencies only; EUR is always 1. Codes are upper case. */
  readonly rates: Readonly<Record<string, number>>;
}

export const ECB_SOURCE = 'European Central Bank euro foreign exchange reference rates';

/** A rate table that breaks the rules above (bad date, code or rate). */
export class RateTableError extends Error {}

const CODE = /^[A-Z]{3}$/;

/** True for a real calendar date written `YYYY-MM-DD`. */
export function isIsoDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
}

/**
 * Checks and freezes a rate table. Rates must be positive finite numbers keyed by three
 * upper-case letters; an `EUR` entry is allowed only as 1 and is dropped (it is implicit).
 */
export function createRateTable(input: { date: string; source: string; rates: Record<string, number> }): RateTable {
  if (typeof input.date !== 'string' || !isIsoDate(input.date)) {
    throw new RateTableError(`Rate table date must be a date YYYY-MM-DD, got ${JSON.stringify(input.date)}`);
  }
  if (typeof input.source !== 'string' || input.source.trim() === '') {
    throw new RateTableError('Rate table source must be a non-empty string');
  }
  const rates: Record<string, number> = {};
  for (const [code, rate] of Object.entries(input.rates ?? {})) {
    if (!CODE.test(code)) throw new RateTableError(`Rate table currency code must be three upper-case letters, got ${JSON.stringify(code)}`);
    if (typeof rate !== 'number' || !Number.isFinite(rate) || rate <= 0) {
      throw new RateTableError(`Rate for ${code} must be a positive number, got ${JSON.stringify(rate)}`);
    }
    if (code === 'EUR') {
      if (rate !== 1) throw new RateTableError(`Rate for EUR must be 1, got ${rate}`);
      continue;
    }
    rates[code] = rate;
  }
  if (Object.keys(rates).length === 0) throw new RateTableError('Rate table holds no rates');
  const sorted = Object.fromEntries(Object.keys(rates).sort().map((c) => [c, rates[c]]));
  return Object.freeze({ date: input.date, source: input.source.trim(), rates: Object.freeze(sorted) });
}

/** Units of `code` per 1 EUR, or undefined when the table has no rate for it. `code` must be upper case. */
export function rateOf(table: RateTable, code: string): number | undefined {
  if (code === 'EUR') return 1;
  return Object.hasOwn(table.rates, code) ? table.rates[code] : undefined;
}

let defaultTable: RateTable | undefined;

/** The rate table shipped with the service (src/money/rates-default.json). */
export function defaultRateTable(): RateTable {
  defaultTable ??= createRateTable(defaultRatesJson);
  return defaultTable;
}
