/**
 * Loads the real Transfermarkt copy for the benches: an in-memory embedded database, the importer
 * with the EA files, then the stored world read back. Nothing is cached in the repository.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openDatabase, migrateToLatest } from '../../src/data/db.js';
import { importTransfermarkt } from '../../src/data/import/transfermarkt.js';
import { lineReporter } from '../../src/data/import/reporter.js';
import { loadWorld } from '../../src/data/world-store.js';
import type { WorldData } from '../../src/domain/world.js';

export interface LoadedWorld {
  world: WorldData;
  dataVersion: string;
  importMs: number;
}

/** `--data DIR` from argv, default ../shared/data/transfermarkt (relative to the repo root). */
export function dataDirFromArgs(argv: readonly string[] = process.argv.slice(2)): string {
  const i = argv.indexOf('--data');
  return resolve(i >= 0 && argv[i + 1] ? argv[i + 1] : '../shared/data/transfermarkt');
}

/** `--world-cache FILE` from argv: a JSON copy of the imported world kept outside the repository. */
export function worldCacheFromArgs(argv: readonly string[] = process.argv.slice(2)): string | null {
  const i = argv.indexOf('--world-cache');
  return i >= 0 && argv[i + 1] ? resolve(argv[i + 1]) : null;
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
