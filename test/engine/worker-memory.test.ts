/**
 * What a worker lets go of (engine/worker.ts): the snapshot fields no task reads throw when read,
 * so a task that comes to need one fails instead of answering from an empty table; the rest stay.
 * (The pool's answers against the main thread's, with these fields gone: pool.test.ts.)
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Snapshot } from '../../src/domain/snapshot.js';
import { releaseUnread, UNREAD_BY_TASKS } from '../../src/engine/worker.js';

test('the fields no task reads throw once released; the others are untouched', () => {
  const appearances = new Map([['P1', []]]);
  const snapshot = { appearances, values: new Map(), matches: [], transfers: [], transfersOfPlayer: new Map() } as unknown as Snapshot;
  releaseUnread(snapshot);
  for (const field of UNREAD_BY_TASKS) assert.throws(() => snapshot[field], /not held in the analysis workers/, field);
  assert.equal(snapshot.appearances, appearances);
  assert.ok(snapshot.transfersOfPlayer instanceof Map);
});
