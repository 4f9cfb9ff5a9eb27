import { useEffect, useState } from 'preact/hooks';

/** The currencies offered; the API converts with its own rates and answers 400 for one it lacks. */
export const CURRENCIES = ['EUR', 'GBP', 'USD', 'CHF', 'SEK', 'NOK', 'DKK', 'JPY'] as const;
const ITEM = 'touchline.currency';
const listeners = new Set<(c: string) => void>();

export function currentCurrency(): string {
  try {
    return localStorage.getItem(ITEM) ?? 'EUR';
  } catch {
    return 'EUR';
  }
}

export function setCurrency(code: string): void {
  localStorage.setItem(ITEM, code);
  for (const l of listeners) l(code);
}

/** The chosen currency, kept across visits (it is a preference, not a secret). */
export function useCurrency(): string {
  const [c, setC] = useState(currentCurrency());
  useEffect(() => {
    listeners.add(setC);
    return () => {
      listeners.delete(setC);
    };
  }, []);
  return c;
}
