import { useEffect, useState } from 'preact/hooks';
import { ApiFailure } from './client';

export type Loaded<T> =
  | { readonly state: 'loading' }
  | { readonly state: 'error'; readonly message: string }
  | { readonly state: 'ok'; readonly data: T };

/**
 * Runs `load` when `deps` change; the newest call wins, older answers are dropped. A 429 is asked
 * again once, after the wait the API gave, so a panel recovers by itself.
 */
export function useApi<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const attempt = (retried: boolean) =>
      load().then(
        (data) => live && setLoaded({ state: 'ok', data }),
        (err: unknown) => {
          if (!live) return;
          setLoaded({ state: 'error', message: err instanceof Error ? err.message : 'Something went wrong.' });
          if (!retried && err instanceof ApiFailure && err.status === 429) timer = setTimeout(() => void attempt(true), ((err.retryAfterSeconds ?? 60) + 1) * 1000);
        },
      );
    setLoaded({ state: 'loading' });
    void attempt(false);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, deps);
  return loaded;
}
