import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/data/db.js';
import { createStaging, hasStaging, swapInStaging } from '../../src/data/staging.js';
import { loadWorld, readMeta, replaceModelRatings, replaceWorld, setMeta } from '../../src/data/world-store.js';
import type { WorldData } from '../../src/domain/world.js';
import { syntheticWorld } from '../valuation/features/synthetic.js';

// The staging copy an update fills, and the swap that puts it in place of the live world at once.

let handle: DatabaseHandle;
const first = syntheticWorld({ seed: 1, players: 30 });
const second = syntheticWorld({ seed: 2, players: 40 });

before(async () => {
  handle = await openDatabase({});
  await migrateToLatest(handle.db);
  await replaceWorld(handle.db, first, { source: 'first', data_as_of: '2024-06-30' });
  // Not the world's: a swap leaves it alone.
  await setMeta(handle.db, { access_version: 'kept' });
});
after(async () => {
  await handle?.close();
});

/** Index names of the live world tables (the names the migrations gave). */
async function liveIndexes(): Promise<string[]> {
  const { rows } = await sql<{ n: string }>`select tablename || '.' || indexname as n from pg_indexes where schemaname = current_schema() order by 1`.execute(handle.db);
  return rows.map((r) => r.n);
}

const sorted = (w: WorldData) => Object.fromEntries(Object.entries(w).map(([t, rows]) => [t, (rows as unknown[]).map((r) => JSON.stringify(r)).sort()]));

test('a world stored and rated in the staging copy leaves the live one as it was until the swap', async () => {
  const indexes = await liveIndexes();
  await createStaging(handle.db);
  const version = await replaceWorld(handle.db, second, { source: 'second', data_as_of: '2025-06-30' }, undefined, 'staging');
  await replaceModelRatings(handle.db, [], 'ratings-of-second', 'staging');
  assert.deepEqual(sorted(await loadWorld(handle.db)), sorted(first), 'live: the first world');
  assert.equal((await readMeta(handle.db)).source, 'first');
  assert.deepEqual(sorted(await loadWorld(handle.db, 'staging')), sorted(second));

  await swapInStaging(handle.db);
  assert.deepEqual(sorted(await loadWorld(handle.db)), sorted(second), 'live: the second world');
  const meta = await readMeta(handle.db);
  assert.deepEqual([meta.source, meta.data_as_of, meta.data_version, meta.ratings_version, meta.access_version], ['second', '2025-06-30', version, 'ratings-of-second', 'kept']);
  assert.equal(await hasStaging(handle.db), false, 'the staging copy is gone');
  assert.deepEqual(await liveIndexes(), indexes, 'the live tables keep the index names the migrations gave');
  // The swapped-in tables take the next update and a training like the ones they replaced.
  await replaceModelRatings(handle.db, [], 'again');
  await createStaging(handle.db);
  await replaceWorld(handle.db, first, { source: 'first' }, undefined, 'staging');
  await swapInStaging(handle.db);
  assert.deepEqual(sorted(await loadWorld(handle.db)), sorted(first));
  assert.deepEqual(await liveIndexes(), indexes);
});

test('an empty staging copy (an update that stopped before storing) is never swapped in; the next update starts afresh', async () => {
  const before = await readMeta(handle.db);
  await createStaging(handle.db);
  await assert.rejects(swapInStaging(handle.db), /the staging copy holds no world/);
  assert.deepEqual(await readMeta(handle.db), before);
  assert.equal((await loadWorld(handle.db)).players.length, first.players.length);
  // A leftover staging copy (a killed update) is dropped by the next one.
  await replaceWorld(handle.db, second, { source: 'half' }, undefined, 'staging');
  await createStaging(handle.db);
  assert.equal((await loadWorld(handle.db, 'staging')).players.length, 0);
});
