import { useEffect } from 'preact/hooks';

/** The tab's title for a page: "<page> · Touchline Studio". */
export function useTitle(page: string | null): void {
  useEffect(() => {
    document.title = page ? `${page} · Touchline Studio` : 'Touchline Studio';
  }, [page]);
}
