/**
 * How a test file is run: its build in build-test/ with plain node (scripts/build-tests.js; the code
 * under test then runs from build/, as `npm start` runs it), or its source through tsx. The build saves
 * each test process and its analysis workers the TypeScript loader: about 3 s of CPU an API test file.
 * TOUCHLINE_TEST_TSX=1 runs every file from its source.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = new URL('../../', import.meta.url).pathname;

export const COMPILED = process.env.TOUCHLINE_TEST_TSX !== '1';

/**
 * Run through tsx even in a compiled run: files that import TypeScript outside src/ (the client's
 * sources, a script), or that test running the sources through a loader.
 */
const FROM_SOURCE = ['test/clients/', 'test/engine/loader.test.ts'];

/** Set for the test processes of a run that built build/ and build-test/ before starting them. */
export const BUILT_ENV = 'TOUCHLINE_TEST_BUILT';

/**
 * Set for a test file started while the runner still makes the demo world (run-tests.ts's
 * BEFORE_WORLD): asking for the demo world then fails, so a file that comes to need it is moved, not waited for.
 */
export const BEFORE_WORLD_ENV = 'TOUCHLINE_TEST_BEFORE_WORLD';

/** Brings build/ and build-test/ up to date (well under a second when little changed); nothing when running from source. */
export function buildTests(): void {
  if (COMPILED) execFileSync(process.execPath, [join(ROOT, 'scripts/build-tests.js'), '--quiet'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
}

/** node's arguments that run `file` (relative to the root): its build, or its source through tsx (the web app's tests, beside its code, too). */
export function testCommand(file: string): string[] {
  if (COMPILED && file.startsWith('test/') && file.endsWith('.ts') && !FROM_SOURCE.some((p) => file.startsWith(p))) {
    return [`build-test/${file.slice('test/'.length, -'.ts'.length)}.js`];
  }
  return ['--import', 'tsx', file];
}
