/**
 * The shared real data (../shared/data), imported once per CI run: the import test imports it, checks
 * the database, and leaves the world it stored in the system's temporary folder (never in the
 * repository); the discovery test reads that copy instead of importing a second time. The copy's name hashes the code that shapes
 * a stored world and the data files' names, sizes and dates, so a changed importer or copy is imported anew.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { migrateToLatest, openDatabase } from '../../src/data/db.js';
import { lineReporter } from '../../src/data/import/reporter.js';
import { importTransfermarkt } from '../../src/data/import/transfermarkt.js';
import { loadWorld } from '../../src/data/world-store.js';
import type { WorldData } from '../../src/domain/world.js';
import { hashTree } from './tree-hash.js';

const ROOT = resolve(import.meta.dirname, '../..');
export const REAL_DATA_ROOT = resolve(ROOT, '../shared/data');
export const REAL_DATA_DIR = join(REAL_DATA_ROOT, 'transfermarkt');
/** The EA files beside the Transfermarkt copy, as `touchline import transfermarkt` is given them in docs/cli.md. */
export const EA_FILES = {
  eaRatings: join(REAL_DATA_ROOT, 'eafc24_ratings', 'male_players.csv.gz'),
  eaMapping: join(REAL_DATA_ROOT, 'ea_tm_mapping', 'tm_to_eafc25.csv.gz'),
};
const PREFIX = 'touchline-real-world-';
export const realDataSkip: string | false = existsSync(join(REAL_DATA_DIR, 'players.csv.gz')) ? false : `shared data absent at ${REAL_DATA_DIR}`;

/** Where the imported world is kept between the test files of one run. */
export function realWorldCachePath(): string {
  const h = createHash('sha256');
  for (const dir of ['src/data', 'src/domain']) hashTree(h, join(ROOT, dir));
  hashTree(h, REAL_DATA_ROOT, false);
  return join(tmpdir(), `${PREFIX}${h.digest('hex').slice(0, 16)}.json`);
}

/** Leaves a stored world for the other test files (written whole, then renamed), in place of older ones. */
export function keepRealWorld(loaded: LoadedWorld): void {
  const file = realWorldCachePath();
  for (const name of readdirSync(tmpdir())) if (name.startsWith(PREFIX)) rmSync(join(tmpdir(), name), { force: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(loaded));
  renameSync(tmp, file);
}

export interface LoadedWorld {
  world: WorldData;
  dataVersion: string;
  importMs: number;
}

/**
 * Imports the folder (the EA files beside it are used when present). With `cachePath` (which must
 * lie outside the repository) a previous import is read back from there, or this one written there.
 */
export async function loadRealWorld(dir: string, quiet = false, cachePath: string | null = null): Promise<LoadedWorld> {
  if (cachePath && existsSync(cachePath)) return JSON.parse(readFileSync(cachePath, 'utf8')) as LoadedWorld;
  const loaded = await importWorld(dir, quiet);
  if (cachePath) writeFileSync(cachePath, JSON.stringify(loaded));
  return loaded;
}

async function importWorld(dir: string, quiet: boolean): Promise<LoadedWorld> {
  if (!existsSync(dir)) throw new Error(`No data folder at ${dir}`);
  const root = resolve(dir, '..');
  const eaRatings = join(root, 'eafc24_ratings', 'male_players.csv.gz');
  const eaMapping = join(root, 'ea_tm_mapping', 'tm_to_eafc25.csv.gz');
  const handle = await openDatabase({});
  try {
    await migrateToLatest(handle.db);
    const t0 = performance.now();
    const summary = await importTransfermarkt(
      handle.db,
      dir,
      { ...(existsSync(eaRatings) ? { eaRatings } : {}), ...(existsSync(eaMapping) ? { eaMapping } : {}) },
      quiet ? undefined : lineReporter(process.stderr),
    );
    const world = await loadWorld(handle.db);
    return { world, dataVersion: summary.data_version ?? summary.source_hash.slice(0, 12), importMs: performance.now() - t0 };
  } finally {
    await handle.close();
  }
}
