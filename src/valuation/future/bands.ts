/**
 * The six fixed bands of the ratio future value / baseline (EXTENSIONS.md, "Future value: one
 * distribution"), and the mass a distribution of the future value puts in each.
 */

/** Most optimistic first; a band holds ratios >= its lower bound and below the previous one's. */
export const VALUE_CATEGORIES = [
  { name: 'Elite Prospect', minRatio: 2.5 },
  { name: 'Excellent Opportunity', minRatio: 1.5 },
  { name: 'Steady Grower', minRatio: 1.1 },
  { name: 'Stable Value', minRatio: 0.8 },
  { name: 'Decline', minRatio: 0.5 },
  { name: 'Major decline', minRatio: 0 },
] as const;
export type ValueCategory = (typeof VALUE_CATEGORIES)[number]['name'];
export const CATEGORY_NAMES: readonly ValueCategory[] = VALUE_CATEGORIES.map((c) => c.name);

/** Index of the band holding the ratio (0 = Elite Prospect). */
export function categoryOf(ratio: number): number {
  for (let i = 0; i < VALUE_CATEGORIES.length; i++) if (ratio >= VALUE_CATEGORIES[i].minRatio) return i;
  return VALUE_CATEGORIES.length - 1;
}

/**
 * Mass per band, most optimistic first, of a future value whose distribution function is `cdf`
 * (P(value < x), x in EUR), framed by `baseline`. The masses telescope, so they sum to 1.
 */
export function bandMasses(cdf: (valueEur: number) => number, baseline: number): number[] {
  const out = new Array<number>(VALUE_CATEGORIES.length).fill(0);
  let above = 0; // P(value >= the previous band's lower bound)
  for (let i = 0; i < VALUE_CATEGORIES.length; i++) {
    const lower = VALUE_CATEGORIES[i].minRatio * baseline;
    const atLeast = i === VALUE_CATEGORIES.length - 1 ? 1 : 1 - cdf(lower);
    out[i] = Math.max(0, atLeast - above);
    above = Math.max(above, atLeast);
  }
  return out;
}

/** Band of a value framed by a baseline: with a baseline of 0 every value is at least 2.5 times it. */
export function categoryOfValue(valueEur: number, baseline: number): number {
  return baseline > 0 ? categoryOf(valueEur / baseline) : 0;
}
