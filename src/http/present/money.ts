import { moneyPair, type Money, type MoneyPair } from '../../money/convert.js';

/** An EUR result as the `x` / `x_in_eur` pair of an answer. */
export const pair = (eur: number, m: Money): MoneyPair => moneyPair(eur, m.code, m.rates);

/** An 80% range in the answer's currency. */
export const range = (lowEur: number, highEur: number, m: Money) => ({ low: pair(lowEur, m).amount, high: pair(highEur, m).amount });

export const round1 = (x: number) => Math.round(x * 10) / 10;
export const round2 = (x: number) => Math.round(x * 100) / 100;
