import { createTouchlineClient } from '../../../clients/typescript/src/index';
import { AnswerCache, type StoredAnswer } from './answer-cache';
import { currentKey, onSessionChange, signOut } from '../session/session';
import { noteAccountCurrency } from '../ui/currency';

/** Answers are kept 10 minutes: the world changes on an import, not while a person browses. */
const cache = new AnswerCache(10 * 60_000);
onSessionChange(() => {
  cache.clear();
  noteAccountCurrency(null);
});

type RateListener = (retryAfterSeconds: number) => void;
const rateListeners = new Set<RateListener>();
/** Called with the wait when the API answers 429. */
export function onRateLimited(listener: RateListener): () => void {
  rateListeners.add(listener);
  return () => rateListeners.delete(listener);
}

async function send(request: Request): Promise<StoredAnswer> {
  const res = await fetch(request);
  const body = await res.text();
  if (res.status === 429) {
    let wait = Number(res.headers.get('Retry-After'));
    try {
      const parsed = JSON.parse(body) as { retry_after_seconds?: number };
      if (typeof parsed.retry_after_seconds === 'number') wait = parsed.retry_after_seconds;
    } catch {
      // not JSON: the header's wait stands
    }
    for (const l of rateListeners) l(Number.isFinite(wait) ? wait : 60);
  }
  return { status: res.status, headers: [...res.headers.entries()], body };
}

/** An answer to a request that named no currency is in the account's preferred one: the picker shows it. */
function learnAccountCurrency(body: string): void {
  if (!body.includes('"currency"')) return;
  try {
    const parsed = JSON.parse(body) as { currency?: unknown };
    if (typeof parsed.currency === 'string' && /^[A-Z]{3}$/.test(parsed.currency)) noteAccountCurrency(parsed.currency);
  } catch {
    // not JSON: nothing to learn
  }
}

/** The organisation's shared work, changed by its members at any time. */
const SHARED = /^\/v1\/(lists|org)(\/|$)/;

/** Every call of the app: the key in a header, answers cached by method, URL and body. */
async function studioFetch(input: Request): Promise<Response> {
  const key = currentKey();
  const request = input.clone();
  if (key) request.headers.set('x-api-key', key);
  const url = new URL(request.url);
  const isLogin = url.pathname === '/v1/auth/login';
  // The shortlist changes under the person's own hand, the lists and the organisation under colleagues': never answered from the cache.
  const uncached = isLogin || url.pathname === '/v1/shortlist' || url.pathname === '/v1/auth/logout' || SHARED.test(url.pathname);
  const body = request.method === 'GET' ? '' : await input.clone().text();
  const answer = uncached ? await send(request) : await cache.get(`${key ?? ''}|${request.method} ${request.url}|${body}`, () => send(request));
  if (answer.status === 200 && !isLogin && !url.searchParams.has('currency') && !body.includes('"currency_code"')) learnAccountCurrency(answer.body);
  // A key that stopped working (revoked, expired) signs the tab out rather than failing every page.
  if (answer.status === 401 && key && !isLogin) signOut();
  return new Response(answer.status === 204 ? null : answer.body, { status: answer.status, headers: new Headers(answer.headers.map(([k, v]): [string, string] => [k, v])) });
}

/**
 * The Studio's calls go through the TypeScript client (clients/typescript), with the Studio's own fetch
 * (session key, answer cache, sign-out on 401); a 429 is shown to the person rather than waited out.
 */
export const api = createTouchlineClient({ baseUrl: '', fetch: studioFetch, retries: 0, throwOnError: false });

/** An API refusal with the API's own message (which never holds the key). */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }
}

/** The data of an openapi-fetch result, or an ApiFailure carrying the API's message. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data !== undefined && result.response.ok) return result.data;
  const err = (result.error ?? {}) as { error?: unknown; retry_after_seconds?: unknown };
  const status = result.response.status;
  if (status === 429) {
    const wait = typeof err.retry_after_seconds === 'number' ? err.retry_after_seconds : null;
    throw new ApiFailure(429, `Too many requests for now: try again in ${wait ?? 60} s.`, wait);
  }
  throw new ApiFailure(status, typeof err.error === 'string' ? err.error : `The server answered ${status}.`);
}
