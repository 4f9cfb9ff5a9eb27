import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository root, from the TypeScript sources (tsx, tests) and from the compiled server alike:
 * src/ and build/ (scripts/build-server.js) both sit one level below it. A path to package.json,
 * web/dist or docs/ starts here rather than at a `../..` counted from the file that needs it.
 */
export const REPO_ROOT: string = fileURLToPath(new URL('../', import.meta.url));

/** A path below the repository root. */
export function repoPath(...parts: string[]): string {
  return join(REPO_ROOT, ...parts);
}

/** package.json's version: what /v1/health and `touchline --version` say. */
export const VERSION: string = (JSON.parse(readFileSync(repoPath('package.json'), 'utf8')) as { version: string }).version;
