import { LRUCache } from 'lru-cache';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's one answer cache: every valuation and analysis route keeps its answers here, by key prefix. */
    answers: AnswerCache;
  }
}

/** Entries the app keeps: ROI results for recommendations are the most numerous. */
export const ANSWERS_KEPT = 25_000;

/**
 * Answers of the valuation endpoints, kept by their inputs and the versions of data, models and
 * rates they were computed from: the same request on the same data gives the same answer, and a
 * repeated simulation costs a lookup. Least recently used entries leave first.
 */
export class AnswerCache {
  private readonly entries: LRUCache<string, object>;
  /** Look-ups answered from the cache and computed, since the start (the metrics read them). */
  readonly counts = { hits: 0, misses: 0 };

  constructor(capacity = 5_000) {
    this.entries = new LRUCache({ max: capacity });
  }

  get<T extends object>(key: string, compute: () => T): T {
    const kept = this.entries.get(key);
    if (kept !== undefined) {
      this.counts.hits++;
      return kept as T;
    }
    this.counts.misses++;
    const value = compute();
    this.entries.set(key, value);
    return value;
  }

  /**
   * The same for an answer computed elsewhere (the worker pool): the promise is kept, so identical
   * requests in flight share one computation, and dropped if it fails (a full queue is not an answer).
   */
  getAsync<T extends object>(key: string, compute: () => Promise<T>): Promise<T> {
    return this.get(key, () =>
      compute().catch((err: unknown) => {
        this.entries.delete(key);
        throw err;
      }),
    );
  }
}
