/**
 * The API key of this tab: in sessionStorage only (gone when the tab closes), never in a URL, a log
 * line or a message. Listeners hear sign-in and sign-out.
 */
const KEY_ITEM = 'touchline.key';
const listeners = new Set<() => void>();

export function currentKey(): string | null {
  try {
    return sessionStorage.getItem(KEY_ITEM);
  } catch {
    return null;
  }
}

export function signIn(key: string): void {
  sessionStorage.setItem(KEY_ITEM, key);
  for (const l of listeners) l();
}

export function signOut(): void {
  sessionStorage.removeItem(KEY_ITEM);
  for (const l of listeners) l();
}

export function onSessionChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
