/**
 * `touchline data update` keeps the EA calibration input: the open dataset has no EA files, so the
 * update reads again the ones the served data was imported with (recorded in `meta`). Before, every
 * EA rating and attribute profile was dropped by the first update.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { runUpdate } from '../../src/admin/data-update.js';
import { loadConfig } from '../../src/config.js';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/data/db.js';
import { importTransfermarkt } from '../../src/data/import/transfermarkt.js';
import { readMeta } from '../../src/data/world-store.js';
import { FIXTURE, tables } from '../helpers/update-fixture.js';

const work = mkdtempSync(join(tmpdir(), 'touchline-update-ea-'));
const ea = { eaRatings: join(work, 'ea/male_players.csv'), eaMapping: join(work, 'ea/tm_to_eafc25.csv') };
const config = loadConfig({ LOG_LEVEL: 'silent', TOUCHLINE_DATA_DIR: join(work, 'data') });
let handle: DatabaseHandle;
let eaRows = 0;

/** The fixture's tables that parse, the last valuation left out: newer data, not the same files again. */
function newerData(): string {
  const dir = join(work, 'newer');
  mkdirSync(dir, { recursive: true });
  for (const [table, text] of tables()) {
    writeFileSync(join(dir, `${table}.csv`), table === 'player_valuations' ? `${text.trimEnd().split('\n').slice(0, -1).join('\n')}\n` : text);
  }
  return dir;
}

before(async () => {
  mkdirSync(join(work, 'ea'));
  mkdirSync(config.TOUCHLINE_DATA_DIR);
  for (const f of readdirSync(join(FIXTURE, 'ea'))) copyFileSync(join(FIXTURE, 'ea', f), join(work, 'ea', f));
  handle = await openDatabase({});
  await migrateToLatest(handle.db);
  const first = await importTransfermarkt(handle.db, FIXTURE, ea);
  eaRows = first.world.player_attributes ?? 0;
});
after(async () => {
  await handle?.close();
  rmSync(work, { recursive: true, force: true });
});

const update = async () => {
  const lines: string[] = [];
  const report = await runUpdate({ handle, config, progress: (l) => lines.push(l), terminal: null }, { dir: newerData(), source: 'newer', dryRun: true });
  return { report, lines };
};

test('the import records its EA files, and an update reads them again', async () => {
  const meta = await readMeta(handle.db);
  assert.equal(meta.ea_ratings_file, ea.eaRatings);
  assert.equal(meta.ea_mapping_file, ea.eaMapping);
  assert.ok(eaRows > 0, 'the fixture links EA players');
  const { report, lines } = await update();
  assert.equal(report.status, 'checked');
  assert.equal(report.counts.after.player_attributes, eaRows, 'EA attribute profiles kept');
  assert.equal(report.counts.after.ratings, report.counts.before.ratings, 'EA ratings kept (no model ratings in the fixture import)');
  assert.ok(lines.some((l) => l.startsWith(`EA ratings: read again from ${ea.eaRatings}`)), lines.join('\n'));
});

test('EA files gone since the import are said, and the update goes on without them', async () => {
  rmSync(ea.eaRatings);
  rmSync(ea.eaMapping);
  const { report, lines } = await update();
  assert.equal(report.status, 'checked');
  assert.ok(lines.includes(`EA ratings: ${ea.eaRatings}, read by the last import, is gone; the new data has none`), lines.join('\n'));
  assert.ok(lines.includes(`EA mapping: ${ea.eaMapping}, read by the last import, is gone; the new data has none`), lines.join('\n'));
  assert.equal(report.counts.after.player_attributes, 0);
});

test('importing the same files again records where the EA files are now (a database imported before they were recorded)', async () => {
  const moved = { eaRatings: join(work, 'ea2/male_players.csv'), eaMapping: join(work, 'ea2/tm_to_eafc25.csv') };
  mkdirSync(join(work, 'ea2'));
  for (const f of readdirSync(join(FIXTURE, 'ea'))) copyFileSync(join(FIXTURE, 'ea', f), join(work, 'ea2', f));
  const again = await importTransfermarkt(handle.db, FIXTURE, moved);
  assert.equal(again.status, 'unchanged');
  const meta = await readMeta(handle.db);
  assert.equal(meta.ea_ratings_file, moved.eaRatings);
  assert.equal(meta.ea_mapping_file, moved.eaMapping);
});
