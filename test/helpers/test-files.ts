import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = new URL('../../', import.meta.url).pathname;

function under(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...under(path));
    else if (name.endsWith('.test.ts')) out.push(relative(ROOT, path));
  }
  return out;
}

/** Every test file of the repository (test/ and the web app's beside its code), relative to the root, sorted. */
export function allTestFiles(): string[] {
  return [...under(join(ROOT, 'test')), ...under(join(ROOT, 'web/src'))].sort();
}
