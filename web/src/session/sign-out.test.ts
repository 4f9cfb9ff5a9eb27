import assert from 'node:assert/strict';
import { test } from 'node:test';

// The browser's sessionStorage, in memory.
const store = new Map<string, string>();
(globalThis as { sessionStorage?: unknown }).sessionStorage = {
  getItem: (k: string) => store.get(k) ?? null,
  setItem: (k: string, v: string) => void store.set(k, v),
  removeItem: (k: string) => void store.delete(k),
};
const { currentKey, signIn } = await import('./session.ts');
const { signOutAndRevoke } = await import('./sign-out.ts');

test('sign-out revokes the key on the server while the tab still holds it, then forgets it', async () => {
  signIn('tl_key_of_this_tab_0123456789');
  const seen: Array<string | null> = [];
  await signOutAndRevoke(async () => void seen.push(currentKey()));
  assert.deepEqual(seen, ['tl_key_of_this_tab_0123456789'], 'the logout call carries the key');
  assert.equal(currentKey(), null);
});

test('a failed logout call still signs the tab out; without a key nothing is called', async () => {
  signIn('tl_key_of_this_tab_0123456789');
  await signOutAndRevoke(async () => {
    throw new TypeError('Failed to fetch');
  });
  assert.equal(currentKey(), null);
  let called = false;
  await signOutAndRevoke(async () => void (called = true));
  assert.equal(called, false);
});
