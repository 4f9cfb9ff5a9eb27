/**
 * Fingerprint of the Transfermarkt importer: the test fixture (with the EA files) imported into a
 * fresh in-memory database; the summary (without its duration), the stored world and the rejects
 * file are hashed. A restructuring of the importer must leave every hash unchanged.
 * With `--data DIR` a folder of the real layout is imported instead (minutes).
 *
 * Run: node --import tsx bench/import-fingerprint.ts [--data ../shared/data/transfermarkt]
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { migrateToLatest, openDatabase } from '../src/data/db.js';
import { importTransfermarkt } from '../src/data/import/transfermarkt.js';
import { loadWorld } from '../src/data/world-store.js';

const sha = (s: string | Buffer) => createHash('sha256').update(s).digest('hex').slice(0, 16);
const line = (name: string, value: unknown) => console.log(`${name.padEnd(34)} ${sha(typeof value === 'string' ? value : JSON.stringify(value))}`);

const i = process.argv.indexOf('--data');
const fixture = resolve('test/fixtures/transfermarkt');
const dir = i >= 0 ? resolve(process.argv[i + 1]) : fixture;
const ea = i >= 0 ? {} : { eaRatings: join(fixture, 'ea/male_players.csv'), eaMapping: join(fixture, 'ea/tm_to_eafc25.csv') };
const work = mkdtempSync(join(tmpdir(), 'touchline-import-fingerprint-'));
const handle = await openDatabase({});
try {
  await migrateToLatest(handle.db);
  const summary = await importTransfermarkt(handle.db, dir, { ...ea, asOf: '2024-06-30', rejectsPath: join(work, 'rejects.csv') });
  const { duration_ms: _ms, rejects_file: _file, ...stable } = summary;
  line('import summary', stable);
  for (const [table, s] of Object.entries(summary.tables)) line(`  table ${table}`, s);
  const world = await loadWorld(handle.db);
  line('imported world', world);
  for (const [table, rows] of Object.entries(world)) line(`  world.${table}`, rows);
  line('rejects file', readFileSync(join(work, 'rejects.csv')));
} finally {
  await handle.close();
  rmSync(work, { recursive: true, force: true });
}
