import { useEffect, useState } from 'preact/hooks';

export type Loaded<T> =
  | { readonly state: 'loading' }
  | { readonly state: 'error'; readonly message: string }
  | { readonly state: 'ok'; readonly data: T };

/** Runs `load` when `deps` change; the newest call wins, older answers are dropped. */
export function useApi<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    setLoaded({ state: 'loading' });
    load().then(
      (data) => live && setLoaded({ state: 'ok', data }),
      (err: unknown) => live && setLoaded({ state: 'error', message: err instanceof Error ? err.message : 'Something went wrong.' }),
    );
    return () => {
      live = false;
    };
  }, deps);
  return loaded;
}
