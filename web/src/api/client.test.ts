import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiFailure, unwrap } from './client.ts';

const res = (status: number) => new Response(null, { status });

test("unwrap gives the data, the API's message, or the wait of a 429", () => {
  assert.deepEqual(unwrap({ data: { ok: 1 }, response: res(200) }), { ok: 1 });
  assert.throws(() => unwrap({ error: { error: 'Requested club is not allowed' }, response: res(403) }), (e: unknown) => e instanceof ApiFailure && e.status === 403 && e.message === 'Requested club is not allowed');
  assert.throws(
    () => unwrap({ error: { error: 'Rate limit exceeded', limit: 60, window_seconds: 60, retry_after_seconds: 12 }, response: res(429) }),
    (e: unknown) => e instanceof ApiFailure && e.retryAfterSeconds === 12 && e.message === 'Too many requests for now: try again in 12 s.',
  );
  assert.throws(() => unwrap({ error: 'oops', response: res(502) }), /The server answered 502\./);
});
