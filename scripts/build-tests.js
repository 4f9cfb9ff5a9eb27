#!/usr/bin/env node
/**
 * The test build: test/ transpiled file by file to build-test/ (same depth, fixtures copied), and
 * build/ brought up to date with src/. Every import of src/ in a test becomes an import of the same
 * module in build/, so `npm test` runs the tests and the code under test with plain node, as
 * `npm start` runs the server: no TypeScript loader in each of the suite's processes and analysis
 * workers (it cost about a second of CPU per process; docs/benchmarks.md, bench/test-timing.ts).
 *
 * Usage: node scripts/build-tests.js [--quiet]
 */
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer, mirrorTree, OUT, SRC } from './build-server.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const TEST = join(ROOT, 'test');
/** test-command.ts names the same folder when it runs a test file's build */
const TEST_OUT = join(ROOT, 'build-test');

/**
 * Each relative import of a .js module in src/ (`from "…"`, `import("…")`, `import "…"`: esbuild
 * prints every specifier in double quotes) pointed at the same module in build/. A string that only
 * holds such a path, or code in a string, is left alone.
 */
function toBuilt(js, outFile) {
  const dir = dirname(outFile);
  return js.replace(/(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)"(\.\.?\/[^"\n]*\.js)"/g, (whole, before, spec) => {
    const target = resolve(dir, spec);
    if (!target.startsWith(SRC + sep)) return whole;
    const built = relative(dir, join(OUT, relative(SRC, target))).split(sep).join('/');
    return `${before}"${built}"`;
  });
}

async function buildTests() {
  const server = await buildServer();
  const tests = await mirrorTree(TEST, TEST_OUT, toBuilt);
  return { server, tests };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { server, tests } = await buildTests();
  if (!process.argv.includes('--quiet')) {
    console.error(`build/: ${server.files} modules, ${server.written} written; build-test/: ${tests.files} modules, ${tests.written} written, ${tests.removed} removed; in ${(server.ms + tests.ms).toFixed(0)} ms`);
  }
}
