import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { servedAsOf } from '../../src/config.js';
import type { DatabaseHandle } from '../../src/data/db.js';
import { importTransfermarkt } from '../../src/data/import/transfermarkt.js';
import { loadWorld, readMeta, replaceWorld, worldVersion } from '../../src/data/world-store.js';
import { WORLD_TABLE_ORDER } from '../../src/domain/world.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { openEmptyDatabase } from '../helpers/embedded.js';

const FIXTURE = resolve(import.meta.dirname, '../fixtures/transfermarkt');
const work = mkdtempSync(join(tmpdir(), 'touchline-world-store-'));
/** The demo world, read back table by table. */
let t: TestApp;
/** The importer's small fixture world, for the tests that store whole worlds (the demo world takes seconds each time). */
let small: DatabaseHandle;
before(async () => {
  t = await startTestApp();
  small = await openEmptyDatabase();
  await importTransfermarkt(small.db, FIXTURE, { rejectsPath: join(work, 'rejects.csv') });
});
after(async () => {
  await t?.close();
  await small?.close();
  rmSync(work, { recursive: true, force: true });
});

test('loadWorld reads every table exactly as the driver decodes its rows', async () => {
  const loaded = await loadWorld(t.handle.db);
  for (const table of WORLD_TABLE_ORDER) {
    // The demo world holds no external attribute profiles: the last test stores one and reads it back.
    if (table === 'player_attributes') continue;
    const rows = loaded[table] as unknown as Record<string, unknown>[];
    const cols = Object.keys(rows[0] ?? {});
    assert.ok(rows.length > 0, `${table} has rows in the demo world`);
    const direct = (await t.handle.db.selectFrom(table as never).select(cols as never).execute()) as Record<string, unknown>[];
    const key = (r: Record<string, unknown>) => JSON.stringify(cols.map((c) => r[c]));
    assert.deepEqual(rows.map(key).sort(), direct.map(key).sort(), table);
    // Types too, value by value on a sample: numbers stay numbers, dates stay YYYY-MM-DD strings, nulls null.
    const byKey = new Map(direct.map((r) => [key(r), r]));
    for (const r of rows.slice(0, 200)) assert.deepEqual(r, byKey.get(key(r)), table);
  }
});

test('a world naming a row it does not hold is refused whole, and the stored world stays as it was', async () => {
  const before = await readMeta(small.db);
  const world = await loadWorld(small.db);
  const players = world.players.length;
  const broken = {
    ...world,
    appearances: [...world.appearances, { ...world.appearances[0], player_id: 'P00000000000000000000000000', season: 1990 }],
    transfers: [...world.transfers, { ...world.transfers[0], id: 'dangling', to_club_id: 'C00000000000000000000000000' }],
  };
  await assert.rejects(replaceWorld(small.db, broken, { source: 'test' }), /1 in appearances\.player_id -> players, 1 in transfers\.to_club_id -> clubs/);
  assert.deepEqual(await readMeta(small.db), before);
  assert.equal((await loadWorld(small.db)).players.length, players);
});

test('attribute profiles are stored and read back as they were, and are part of the data version', async () => {
  const world = await loadWorld(small.db);
  const without = worldVersion({ ...world, player_attributes: [] });
  const row = { player_id: world.players[0].id, season: 2023, source: 'ea', attributes: JSON.stringify({ pace: 91, finishing: 88, weak_foot: 4 }) };
  const version = await replaceWorld(small.db, { ...world, player_attributes: [row] }, { source: 'test' });
  assert.notEqual(version, without);
  assert.deepEqual((await loadWorld(small.db)).player_attributes, [row]);
  assert.equal(await replaceWorld(small.db, { ...world, player_attributes: [] }, { source: 'test' }), without);
});

test("a new world's description replaces the old one's whole: an import's data_as_of does not outlive it", async () => {
  const world = await loadWorld(small.db);
  await replaceWorld(small.db, { ...world, market_values: world.market_values.slice(1) }, { source: 'transfermarkt', source_hash: 'abc', importer: '1', data_as_of: '2024-06-30' });
  assert.equal((await readMeta(small.db)).data_as_of, '2024-06-30');
  await replaceWorld(small.db, world, { source: 'demo', seed: '7', as_of: '2026-06-30' });
  const meta = await readMeta(small.db);
  assert.equal(meta.source, 'demo');
  for (const key of ['data_as_of', 'source_hash', 'importer']) assert.equal(meta[key], undefined, key);
  assert.equal(servedAsOf({ TOUCHLINE_AS_OF: undefined }, meta), '2026-06-30');
});
