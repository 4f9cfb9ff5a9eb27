import type { ComponentChildren } from 'preact';
import type { Loaded } from '../api/use-api';

export function Loading({ what }: { what: string }) {
  return (
    <p class="loading" role="status" aria-live="polite">
      Loading {what}…
    </p>
  );
}

export function ErrorBox({ message }: { message: string }) {
  return (
    <p class="error" role="alert">
      {message}
    </p>
  );
}

/** Loading, error or the content, in one place so every panel has all three. */
export function Show<T>({ loaded, what, children }: { loaded: Loaded<T>; what: string; children: (data: T) => ComponentChildren }) {
  if (loaded.state === 'loading') return <Loading what={what} />;
  if (loaded.state === 'error') return <ErrorBox message={loaded.message} />;
  return <>{children(loaded.data)}</>;
}
