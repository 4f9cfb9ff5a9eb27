import { rateOf, type RateTable } from './rates.js';

function rateOrThrow(code: string, table: RateTable): number {
  const rate = rateOf(table, code);
  // Callers resolve the code first (resolveCurrency), so a miss here is a programming error.
  if (rate === undefined) throw new RangeError(`No exchange rate for ${code} in the table of ${table.date}`);
  return rate;
}

/** EUR amount in `code` (unrounded). */
export function fromEur(amountEur: number, code: string, table: RateTable): number {
  return amountEur * rateOrThrow(code, table);
}

/** Amount in `code` in EUR (unrounded). */
export function toEur(amount: number, code: string, table: RateTable): number {
  return amount / rateOrThrow(code, table);
}

/** Whole number, halves rounded away from zero (Math.round would give -2 for -2.5). Never -0. */
export function roundMoney(x: number): number {
  if (!Number.isFinite(x)) throw new RangeError(`Cannot round a money amount of ${x}`);
  const r = Math.sign(x) * Math.round(Math.abs(x));
  return r === 0 ? 0 : r;
}

export interface MoneyPair {
  /** In the requested currency, whole number. */
  amount: number;
  /** In EUR, whole number. */
  amountEur: number;
}

/**
 * A computed EUR amount as the `x` / `x_in_eur` pair of a response. Both come from the one
 * unrounded EUR figure through one rate, so for EUR they are identical.
 */
export function moneyPair(amountEur: number, code: string, table: RateTable): MoneyPair {
  return { amount: roundMoney(fromEur(amountEur, code, table)), amountEur: roundMoney(amountEur) };
}

/**
 * An amount the caller gave in the requested currency (a fee, a wage) as the same pair: the
 * echo keeps the caller's figure and the EUR side goes through the same rate.
 */
export function moneyPairFromAmount(amount: number, code: string, table: RateTable): MoneyPair {
  return { amount: roundMoney(amount), amountEur: roundMoney(toEur(amount, code, table)) };
}

/** The currency an answer is given in, and the one rate table every amount of it goes through. */
export interface Money {
  readonly code: string;
  readonly rates: RateTable;
}
