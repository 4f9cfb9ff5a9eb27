/**
 * Embedded (PGlite) databases for tests, started from data folders made once and copied: a copy
 * costs tenths of a second, where initdb or loading a dump into memory costs seconds of CPU per
 * test file.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/data/db.js';
import { alive } from '../../src/data/embedded-lock.js';
import { hashTree } from './tree-hash.js';

const ROOT = new URL('../../', import.meta.url).pathname;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Makes `path` (a folder or a file) once with `build` (given a temporary path to fill). Several test
 * processes may ask at once (the two suites, the runner and a test file): the first takes a lock
 * (`path.lock`, holding its process id) and builds; the others wait for it rather than build the
 * same thing beside it, and build themselves only if the holder dies without finishing.
 */
export async function madeOnce(path: string, build: (tmp: string) => Promise<void>): Promise<string> {
  const lock = `${path}.lock`;
  for (;;) {
    if (existsSync(path)) return path;
    try {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = Number(readFileSync(lock, { encoding: 'utf8', flag: 'r' }) || NaN);
    // a lock without a living holder (killed mid-build) is taken over; an empty one is being written
    if (Number.isInteger(holder) && !alive(holder)) rmSync(lock, { force: true });
    else await sleep(200);
  }
  try {
    if (existsSync(path)) return path;
    const tmp = `${path}.${process.pid}.tmp`;
    rmSync(tmp, { recursive: true, force: true });
    await build(tmp);
    renameSync(tmp, path);
    return path;
  } finally {
    rmSync(lock, { force: true });
  }
}

/**
 * Closes a data folder that test files will copy, leaving out the WAL segments PostgreSQL keeps ready
 * for later writes (five of 16 MB in a fresh folder): every copy, and its deletion, then costs half as
 * much. It keeps the segment in use and the next one, where the shutdown checkpoint may fall.
 */
export async function closePristine(handle: DatabaseHandle, dataDir: string): Promise<void> {
  const pglite = handle.pglite;
  if (!pglite) throw new Error('closePristine: not an embedded database');
  await pglite.exec('checkpoint');
  const { rows } = await pglite.query<{ segment: string }>('select pg_walfile_name(pg_current_wal_lsn()) as segment');
  await handle.close();
  const current = rows[0]!.segment;
  const next = (BigInt(`0x${current}`) + 1n).toString(16).toUpperCase().padStart(24, '0');
  const wal = join(dataDir, 'pg_wal');
  for (const name of readdirSync(wal)) if (/^[0-9A-F]{24}$/.test(name) && name !== current && name !== next) rmSync(join(wal, name));
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
    await closePristine(fresh, tmp);
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
