import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ownerOnly } from './owner-only.js';

/**
 * The embedded database has no cross-process locking: a second process writing the same folder
 * loses data silently. One process at a time holds this lock file; others ask it over the admin
 * channel instead (src/admin/).
 */
export interface LockInfo {
  readonly pid: number;
  /** Unix socket of the holder's admin channel, when it serves one. */
  readonly socket: string | null;
}

/** The embedded database's lock; `update.lock` is the one a data update or rollback holds (src/cli/data-command.ts). */
export type LockName = 'touchline.lock' | 'update.lock';

function lockPath(dataDir: string, name: LockName = 'touchline.lock'): string {
  return join(dataDir, name);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live holder of the folder's lock, if any (a stale lock of a dead process counts as none). */
export function lockHolder(dataDir: string, name: LockName = 'touchline.lock'): LockInfo | null {
  try {
    const info = JSON.parse(readFileSync(lockPath(dataDir, name), 'utf8')) as LockInfo;
    return info.pid !== process.pid && alive(info.pid) ? info : null;
  } catch {
    return null;
  }
}

export class LockedError extends Error {}

/** Takes the lock or throws LockedError naming the holder; returns the release function. */
export function acquireLock(dataDir: string, socket: string | null, name: LockName = 'touchline.lock'): () => void {
  // The data folder (database, models, lock, admin socket) is the owner's alone.
  ownerOnly(dataDir);
  const path = lockPath(dataDir, name);
  const what = name === 'update.lock' ? `a data update or rollback in ${dataDir}` : `the embedded database in ${dataDir}`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, JSON.stringify({ pid: process.pid, socket } satisfies LockInfo));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        rmSync(path, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = lockHolder(dataDir, name);
      if (holder) throw new LockedError(`${what} is ${name === 'update.lock' ? 'running in' : 'in use by'} process ${holder.pid}`);
      rmSync(path, { force: true }); // stale: its process is gone
    }
  }
  throw new LockedError(`could not lock ${what}`);
}
