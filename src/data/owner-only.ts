import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Makes a folder readable by its owner only: the folder and every folder in it 0700, every file 0600.
 * For folders made by earlier versions or another umask too; symbolic links are left alone (their
 * targets are not ours to change). Files made later by this process are covered by its umask (the CLI
 * sets 0077).
 */
export function ownerOnly(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (!st || st.isSymbolicLink()) continue;
    if (st.isDirectory()) ownerOnly(path);
    else if ((st.mode & 0o777) !== 0o600) chmodSync(path, 0o600);
  }
}
