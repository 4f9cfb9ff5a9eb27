import { LRUCache } from 'lru-cache';

/** A stored answer: enough to build a fresh Response each time it is served. */
export interface StoredAnswer {
  readonly status: number;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: string;
}

/**
 * Answers by request, kept for `ttlMs` and shared while in flight, so pages that ask the same thing
 * (or a person going back and forth) spend one request of the key's rolling limit, not many.
 * Only successful answers are kept: an error or a 429 is asked again next time.
 */
export class AnswerCache {
  private readonly entries: LRUCache<string, { expires: number; answer: Promise<StoredAnswer> }>;

  constructor(
    private readonly ttlMs: number,
    maxEntries = 500,
    private readonly now: () => number = Date.now,
  ) {
    this.entries = new LRUCache({ max: maxEntries });
  }

  get(key: string, load: () => Promise<StoredAnswer>): Promise<StoredAnswer> {
    const hit = this.entries.get(key);
    if (hit && hit.expires > this.now()) return hit.answer;
    const answer = load();
    this.entries.set(key, { expires: this.now() + this.ttlMs, answer });
    answer.then(
      (a) => {
        if (a.status < 200 || a.status >= 300) this.forget(key, answer);
      },
      () => this.forget(key, answer),
    );
    return answer;
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private forget(key: string, answer: Promise<StoredAnswer>): void {
    if (this.entries.get(key)?.answer === answer) this.entries.delete(key);
  }
}
