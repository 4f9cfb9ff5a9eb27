import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashTree } from './tree-hash.js';

const ROOT = new URL('../../', import.meta.url).pathname;

let key: string | null = null;

/**
 * A hash of the code that shapes the demo world and the models trained on it: the tests' stored
 * world and models are kept under it, so neither is reused by other code (a model change that forgot
 * to bump its version would otherwise be tested against the models of the code before it).
 */
export function codeKey(): string {
  if (key) return key;
  const h = createHash('sha256');
  for (const dir of ['src/data/demo', 'src/data/migrations', 'src/domain', 'src/valuation']) hashTree(h, join(ROOT, dir));
  h.update(readFileSync(join(ROOT, 'src/data/world-store.ts')));
  key = h.digest('hex').slice(0, 16);
  return key;
}

/** Models are trained once per code and data version and kept here between test files and runs. */
export const MODELS_DIR = join(ROOT, '.cache/models', codeKey());
