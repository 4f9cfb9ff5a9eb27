/** Money as a person reads it: €12.5M, £850K; whole amounts below a thousand. */
export function formatMoney(amount: number, currency: string, locale = 'en-US'): string {
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    notation: Math.abs(amount) >= 1000 ? 'compact' : 'standard',
    minimumFractionDigits: 0,
    maximumFractionDigits: Math.abs(amount) >= 1000 ? 1 : 0,
  }).format(amount);
}

export function formatPercent(fraction: number): string {
  return `${(fraction * 100).toFixed(0)}%`;
}

/** Minutes as hours and minutes would mislead; football counts minutes in thousands. */
export function formatCount(n: number): string {
  return new Intl.NumberFormat('en-GB').format(n);
}

/** 1 decimal for the fractional expected ranks the simulation gives. */
export function formatRank(rank: number): string {
  return Number.isInteger(rank) ? String(rank) : rank.toFixed(1);
}
