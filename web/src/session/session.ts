/**
 * The API key of this tab: in sessionStorage only (gone when the tab closes), never in a URL, a log
 * line or a message. Listeners hear sign-in and sign-out.
 */
const KEY_ITEM = 'touchline.key';
/** The email signed in with, to find the person's own role among an organisation's members; none after a key sign-in. */
const EMAIL_ITEM = 'touchline.email';
const listeners = new Set<() => void>();

export function currentKey(): string | null {
  try {
    return sessionStorage.getItem(KEY_ITEM);
  } catch {
    return null;
  }
}

export function currentEmail(): string | null {
  try {
    return sessionStorage.getItem(EMAIL_ITEM);
  } catch {
    return null;
  }
}

export function signIn(key: string, email?: string): void {
  sessionStorage.setItem(KEY_ITEM, key);
  if (email) sessionStorage.setItem(EMAIL_ITEM, email.trim().toLowerCase());
  else sessionStorage.removeItem(EMAIL_ITEM);
  for (const l of listeners) l();
}

export function signOut(): void {
  sessionStorage.removeItem(KEY_ITEM);
  sessionStorage.removeItem(EMAIL_ITEM);
  for (const l of listeners) l();
}

export function onSessionChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
