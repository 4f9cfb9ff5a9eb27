/**
 * @touchline/client: the Touchline API, typed from its OpenAPI document (schema.d.ts, generated).
 * Every path, parameter and answer is typed; a 429 or 503 is asked again after its Retry-After (at
 * most `retries` times); any other refusal becomes a TouchlineError with the status and the API's
 * message. Runs in Node 20+ and browsers (it needs only fetch).
 */
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema.js';

export type { paths, components, operations } from './schema.js';

/** An answer the API refused: its status, its `error` message and the whole body. */
export class TouchlineError extends Error {
  override readonly name = 'TouchlineError';

  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown,
    /** from Retry-After, on 429 and 503 */
    readonly retryAfterSeconds: number | null,
  ) {
    super(message);
  }
}

export interface TouchlineClientOptions {
  /** e.g. `http://127.0.0.1:8080` (no trailing /v1) */
  baseUrl: string;
  /** sent as `x-api-key`; leave it out for the endpoints that need none, or when `fetch` adds it */
  apiKey?: string;
  /** 429 and 503 are asked again after Retry-After, at most this many times; default 3 */
  retries?: number;
  /** the longest wait, in seconds, it accepts before giving up on a retry; default 120 */
  maxWaitSeconds?: number;
  /** a refusal throws a TouchlineError (default true); false returns openapi-fetch's { data, error, response } */
  throwOnError?: boolean;
  fetch?: (request: Request) => Promise<Response>;
}

export type TouchlineClient = Client<paths>;

const RETRYABLE = new Set([429, 503]);

function retryAfterOf(res: Response): number | null {
  const header = res.headers.get('retry-after');
  if (header === null) return null;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
}

async function errorOf(res: Response): Promise<TouchlineError> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the text is the body
  }
  const message = typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string'
    ? (body as { error: string }).error
    : `Touchline answered ${res.status}`;
  return new TouchlineError(res.status, message, body, retryAfterOf(res));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createTouchlineClient(options: TouchlineClientOptions): TouchlineClient {
  const base = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const retries = options.retries ?? 3;
  const maxWait = options.maxWaitSeconds ?? 120;
  const throwOnError = options.throwOnError ?? true;
  const send = async (request: Request): Promise<Response> => {
    if (options.apiKey && !request.headers.has('x-api-key')) request.headers.set('x-api-key', options.apiKey);
    for (let attempt = 0; ; attempt++) {
      const res = await base(request.clone());
      const wait = retryAfterOf(res);
      if (RETRYABLE.has(res.status) && attempt < retries && wait !== null && wait <= maxWait) {
        await res.body?.cancel();
        await sleep(wait * 1000);
        continue;
      }
      if (!res.ok && throwOnError) throw await errorOf(res);
      return res;
    }
  };
  return createClient<paths>({ baseUrl: options.baseUrl, fetch: send });
}
