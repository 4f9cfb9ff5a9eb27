import { closeSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
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
  /** Set when the holder has begun shutting down: it lets go within seconds (markStopping). */
  readonly stopping?: boolean;
}

/** The embedded database's lock; `update.lock` is the one a data update or rollback holds (src/cli/data-command.ts). */
export type LockName = 'touchline.lock' | 'update.lock';

function lockPath(dataDir: string, name: LockName = 'touchline.lock'): string {
  return join(dataDir, name);
}

/** Whether a process with this id is running (a lock left by a killed process is stale). */
export function alive(pid: number): boolean {
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

export class LockedError extends Error {
  constructor(
    message: string,
    /** The live holder, when one holds the lock. */
    readonly holder: LockInfo | null = null,
  ) {
    super(message);
  }
}

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
      if (holder) throw new LockedError(`${what} is ${name === 'update.lock' ? 'running in' : 'in use by'} process ${holder.pid}`, holder);
      rmSync(path, { force: true }); // stale: its process is gone
    }
  }
  throw new LockedError(`could not lock ${what}`);
}

/**
 * Says in the lock file that this process, its holder, is shutting down, so that a start finding
 * it waits for the folder rather than failing at once (acquireLockWaiting). No-op when not the holder.
 */
export function markStopping(dataDir: string, name: LockName = 'touchline.lock'): void {
  const path = lockPath(dataDir, name);
  try {
    const info = JSON.parse(readFileSync(path, 'utf8')) as LockInfo;
    if (info.pid !== process.pid || info.stopping) return;
    // replaced in one rename, so a reader never sees half a file
    const next = `${path}.${process.pid}.tmp`;
    writeFileSync(next, JSON.stringify({ ...info, stopping: true } satisfies LockInfo), { mode: 0o600 });
    renameSync(next, path);
  } catch {
    // no lock file, or not ours: nothing to say
  }
}

/** How long a start waits for a holder that is shutting down. */
export const STOPPING_WAIT_MS = 15_000;

/**
 * acquireLock, but a holder that is shutting down is waited for, up to `waitMs`, with `onWait` told
 * once; a holder that is not shutting down, or still holds it at the end, is a LockedError as before.
 */
export async function acquireLockWaiting(
  dataDir: string,
  socket: string | null,
  opts: { waitMs?: number; pollMs?: number; onWait?: (holder: LockInfo, waitMs: number) => void } = {},
): Promise<() => void> {
  const waitMs = opts.waitMs ?? STOPPING_WAIT_MS;
  const deadline = Date.now() + waitMs;
  let told = false;
  for (;;) {
    try {
      return acquireLock(dataDir, socket);
    } catch (err) {
      if (!(err instanceof LockedError) || !err.holder?.stopping || Date.now() >= deadline) throw err;
      if (!told) opts.onWait?.(err.holder, waitMs);
      told = true;
    }
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 100));
  }
}
