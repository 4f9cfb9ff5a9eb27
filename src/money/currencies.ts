import { codes as isoCodes, publishDate as isoPublishDate } from 'currency-codes';
import { rateOf, type RateTable } from './rates.js';

const ISO_4217 = new Set(isoCodes());

/** Publication date of the ISO 4217 list the `currency-codes` package carries. */
export const ISO_4217_LIST_DATE: string = isoPublishDate;

/** True for an active ISO 4217 code, upper case (`EUR`, `USD`; not `HRK`, withdrawn in 2023). */
export function isIsoCurrency(code: string): boolean {
  return ISO_4217.has(code);
}

export type CurrencyResult = { ok: true; code: string } | { ok: false; error: string };

/**
 * Resolves a requested currency (`currency` / `currency_code`): any case, echoed upper case.
 * Usable means a valid ISO 4217 code that the rate table can convert (EUR always can).
 * Errors are the exact strings of CONVENTIONS.md.
 */
export function resolveCurrency(input: unknown, table: RateTable): CurrencyResult {
  if (typeof input !== 'string') return { ok: false, error: 'currency_code must be a string' };
  const given = input.trim();
  const code = given.toUpperCase();
  if (/^[A-Z]{3}$/.test(code) && isIsoCurrency(code) && rateOf(table, code) !== undefined) return { ok: true, code };
  return { ok: false, error: `Invalid currency code: ${given}` };
}

/** Every code `resolveCurrency` accepts with this table, sorted (EUR included). */
export function usableCurrencies(table: RateTable): string[] {
  return ['EUR', ...Object.keys(table.rates)].filter(isIsoCurrency).sort();
}
