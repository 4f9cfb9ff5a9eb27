import { usableCurrencies } from '../../src/money/currencies.js';
import { rateOf, type RateTable } from '../../src/money/rates.js';

/** The usable currencies with the smallest and the largest units-per-EUR rate. */
export function extremeRateCurrencies(table: RateTable): string[] {
  const byRate = usableCurrencies(table).sort((a, b) => rateOf(table, a)! - rateOf(table, b)!);
  return [byRate[0], byRate[byRate.length - 1]];
}

/** Numbers of a JSON text that print with an exponent although at least 1 (JSON does so from 1e21). */
export function hugeNumbersIn(text: string): number[] {
  const found: number[] = [];
  JSON.parse(text, (_k, v: unknown) => {
    if (typeof v === 'number' && Math.abs(v) >= 1 && /e/i.test(String(v))) found.push(v);
    return v;
  });
  return found;
}
