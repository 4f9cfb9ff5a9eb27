#!/usr/bin/env node
/**
 * The server build (issue 30): every src/**\/*.ts transpiled file by file to plain ESM JavaScript in
 * build/, beside a copy of the other files src/ reads at run time (JSON tables). `npm start` runs
 * build/cli/main.js with plain node: no TypeScript loader in the request path or in the analysis
 * workers (docs/engine.md, "The server build").
 *
 * - build/ mirrors src/ at the same depth, so every path a module computes from import.meta.url
 *   (src/paths.ts, the web app's files) resolves to the same place from either tree.
 * - No bundling: the analysis worker (engine/worker.js) must stay a module of its own.
 * - Target esnext: an older target rewrites `import ... with { type: 'json' }` and breaks it.
 * - A file is written only when its content changed, through a temporary file and a rename, so
 *   several builds at once (two `npm start`, `npm run cli` beside a server) never leave a half-written
 *   file for another process to load; outputs whose source is gone are removed.
 *
 * Usage: node scripts/build-server.js [--quiet]
 */
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const SRC = join(ROOT, 'src');
export const OUT = join(ROOT, 'build');

/** Every file under `dir`, as paths relative to it (with `/`). */
function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath ?? e.path, e.name)).split(sep).join('/'));
}

/** Writes `bytes` to `file` unless it holds them already; atomically (rename). Returns whether it wrote. */
function writeIfChanged(file, bytes) {
  try {
    if (Buffer.compare(readFileSync(file), bytes) === 0) return false;
  } catch {
    // not there yet
  }
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, bytes);
  renameSync(tmp, file);
  return true;
}

/** The output path (relative to OUT) each source file (relative to SRC) gives. */
function outputsOf(source) {
  return source.endsWith('.ts') ? [source.replace(/\.ts$/, '.js'), source.replace(/\.ts$/, '.js.map')] : [source];
}

/**
 * Transpiles every .ts file under `from` to `to` at the same depth (other files copied), writing only
 * what changed and removing outputs whose source is gone. `rewrite(js, outFile)` may change a module's
 * text before it is written.
 */
export async function mirrorTree(from, to, rewrite = (js) => js) {
  const started = performance.now();
  const sources = filesUnder(from).filter((f) => !f.endsWith('.tmp'));
  const ts = sources.filter((f) => f.endsWith('.ts'));
  const result = await build({
    entryPoints: ts.map((f) => join(from, f)),
    outdir: to,
    outbase: from,
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'esnext',
    // Stack traces map back to the sources with NODE_OPTIONS=--enable-source-maps (off by default: no cost).
    sourcemap: 'linked',
    sourcesContent: false,
    write: false,
    logLevel: 'silent',
  });
  let written = 0;
  for (const f of result.outputFiles) {
    const bytes = f.path.endsWith('.js') ? Buffer.from(rewrite(f.text, f.path)) : Buffer.from(f.contents);
    if (writeIfChanged(f.path, bytes)) written++;
  }
  for (const f of sources.filter((s) => !s.endsWith('.ts'))) if (writeIfChanged(join(to, f), readFileSync(join(from, f)))) written++;

  // Outputs of deleted sources go too, and stale temporaries of a build that was killed.
  const expected = new Set(sources.flatMap(outputsOf));
  let removed = 0;
  for (const f of filesUnder(to)) {
    // another build's temporary is renamed in milliseconds: only an old one is left over
    const stale = f.endsWith('.tmp') ? Date.now() - (statSync(join(to, f), { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 60_000 : !expected.has(f);
    if (stale) {
      rmSync(join(to, f), { force: true });
      removed++;
    }
  }
  return { files: ts.length, written, removed, ms: performance.now() - started };
}

export function buildServer() {
  return mirrorTree(SRC, OUT);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = await buildServer();
  if (!process.argv.includes('--quiet')) {
    console.error(`build/: ${r.files} modules from src/, ${r.written} files written, ${r.removed} removed, in ${r.ms.toFixed(0)} ms`);
  }
}
