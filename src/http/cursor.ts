import { createHash } from 'node:crypto';
import { ApiError } from './errors.js';

/**
 * Opaque list cursors, shared by every list. A cursor names the last item of a page and the
 * filters and sort it was made for; shown to a request with other filters or sort, it is
 * 400 `Invalid cursor`, as is anything that is not a cursor of ours.
 */
export const INVALID_CURSOR = 'Invalid cursor';

/** What a cursor is tied to: the request's filters and sort, in a canonical form (keys sorted, absent left out). */
export function cursorBinding(list: string, params: Readonly<Record<string, unknown>>): string {
  const canonical = Object.keys(params)
    .filter((k) => params[k] !== undefined)
    .sort()
    .map((k) => [k, params[k]]);
  return createHash('sha256').update(JSON.stringify([list, canonical])).digest('base64url').slice(0, 16);
}

export function encodeCursor(binding: string, after: string): string {
  return Buffer.from(JSON.stringify({ b: binding, a: after })).toString('base64url');
}

/** The item the cursor continues after; 400 `Invalid cursor` unless it was made for this binding. */
export function decodeCursor(cursor: string, binding: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new ApiError(400, INVALID_CURSOR);
  }
  const { b, a } = (parsed ?? {}) as { b?: unknown; a?: unknown };
  if (b !== binding || typeof a !== 'string' || a === '') throw new ApiError(400, INVALID_CURSOR);
  return a;
}
