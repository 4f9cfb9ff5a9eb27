import { useEffect, useState } from 'preact/hooks';

/** The currencies offered; the API converts with its own rates and answers 400 for one it lacks. */
export const CURRENCIES = ['EUR', 'GBP', 'USD', 'CHF', 'SEK', 'NOK', 'DKK', 'JPY'] as const;
const ITEM = 'touchline.currency';
const listeners = new Set<() => void>();
/** The account's preferred currency as the API last answered in it (null until an answer shows it). */
let accountCurrency: string | null = null;

/**
 * The code picked at the top, or null when none is: requests then name no currency and the API
 * answers in the account's preferred currency (EUR for an account without one).
 */
export function pickedCurrency(): string | null {
  try {
    return localStorage.getItem(ITEM) || null;
  } catch {
    return null;
  }
}

/** Picks a currency, or (empty) goes back to the account's own. */
export function setCurrency(code: string): void {
  if (code) localStorage.setItem(ITEM, code);
  else localStorage.removeItem(ITEM);
  for (const l of listeners) l();
}

/** Told by the API client the currency of an answer to a request that named none (null: signed out). */
export function noteAccountCurrency(code: string | null): void {
  if (code === accountCurrency) return;
  accountCurrency = code;
  for (const l of listeners) l();
}

export function accountCurrencyCode(): string | null {
  return accountCurrency;
}

function useCurrencyState<T>(read: () => T): T {
  const [value, setValue] = useState(read);
  useEffect(() => {
    const on = () => setValue(read);
    listeners.add(on);
    return () => {
      listeners.delete(on);
    };
  }, []);
  return value;
}

/** What requests name: the picked code, or null for the account's own (a preference, not a secret, kept across visits). */
export function usePickedCurrency(): string | null {
  return useCurrencyState(pickedCurrency);
}

/** The code money is shown and typed in: the picked one, else the account's, else EUR. */
export function useCurrency(): string {
  return useCurrencyState(() => pickedCurrency() ?? accountCurrency ?? 'EUR');
}

/** The account's preferred currency as learned from answers, for the picker's first option. */
export function useAccountCurrency(): string | null {
  return useCurrencyState(accountCurrencyCode);
}

/** `{ currency }` for a query, or nothing when none is picked. */
export const currencyQuery = (c: string | null): { currency?: string } => (c ? { currency: c } : {});
/** `{ currency_code }` for a body, or nothing when none is picked. */
export const currencyBody = (c: string | null): { currency_code?: string } => (c ? { currency_code: c } : {});
