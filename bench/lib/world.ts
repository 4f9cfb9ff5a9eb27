/** The real-data benches' arguments: where the Transfermarkt copy is, and where to keep its import. */
import { resolve } from 'node:path';

export { loadRealWorld, type LoadedWorld } from '../../test/helpers/real-world.js';

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

