import type { Hash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Feeds a folder's files to `h`, names in sorted order: their contents, or with `contents` false only
 * their sizes and dates (for large data files). Names the code or data a cached test artifact was made from.
 */
export function hashTree(h: Hash, dir: string, contents = true): void {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) hashTree(h, p, contents);
    else h.update(name).update(contents ? readFileSync(p) : `${st.size}:${st.mtimeMs}`);
  }
}
