/**
 * Embedded (PGlite) databases for tests, started from data folders made once and copied: a copy
 * costs tenths of a second, where initdb or loading a dump into memory costs seconds of CPU per
 * test file.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/data/db.js';
import { hashTree } from './tree-hash.js';

const ROOT = new URL('../../', import.meta.url).pathname;

/**
 * Makes `dir` once with `build` (given a temporary folder to fill), safely when several test
 * processes race: each builds aside and the first rename wins.
 */
export async function madeOnce(dir: string, build: (tmp: string) => Promise<void>): Promise<string> {
  if (existsSync(dir)) return dir;
  const tmp = `${dir}.${process.pid}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  await build(tmp);
  try {
    renameSync(tmp, dir);
  } catch (err) {
    // Another process got there first (a folder is not replaced by rename): keep theirs.
    rmSync(tmp, { recursive: true, force: true });
    if (!existsSync(dir)) throw err;
  }
  return dir;
}

/** A private copy of a data folder made once, in a temporary folder of its own; `remove` deletes it. */
export function copyDataDir(pristine: string, prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cpSync(pristine, dir, { recursive: true });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The migrated, empty data folder, made once per version of the migrations. */
async function emptyDataDir(): Promise<string> {
  const h = createHash('sha256');
  hashTree(h, join(ROOT, 'src/data/migrations'));
  h.update(readFileSync(join(ROOT, 'src/data/db.ts')));
  mkdirSync(join(ROOT, '.cache'), { recursive: true });
  return madeOnce(join(ROOT, '.cache', `test-empty-${h.digest('hex').slice(0, 16)}.pgdata`), async (tmp) => {
    const fresh = await openDatabase({ dataDir: tmp });
    await migrateToLatest(fresh.db);
    await fresh.close();
  });
}

/** A migrated embedded database with nothing in it, on a copy of the folder made once; closing it deletes the copy. */
export async function openEmptyDatabase(): Promise<DatabaseHandle> {
  const copy = copyDataDir(await emptyDataDir(), 'touchline-test-db-');
  const handle = await openDatabase({ dataDir: copy.dir });
  await migrateToLatest(handle.db);
  return {
    ...handle,
    close: async () => {
      await handle.close();
      copy.remove();
    },
  };
}
