/**
 * `npm test`: builds the tests and the code under test to plain JavaScript (test-command.ts), makes
 * the demo world's test database and models once (so parallel test files do not each build them), then runs every test file with node's test runner in a process of its own, two
 * at a time by default (TOUCHLINE_TEST_CONCURRENCY): each file has its own database copy, so files
 * are independent. The slowest go first so that the lanes end together (node 20's `--test` sorts the
 * files by name, so this runner schedules them itself). A file's output is printed whole when it
 * ends, with its time; a summary closes the run. Given files, runs only those.
 * Usage: node --import tsx test/helpers/run-tests.ts [--pg] [--list] [files...]   (--list prints the files in order)
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoWorldDir } from './app.js';
import { allTestFiles } from './test-files.js';
import { BEFORE_WORLD_ENV, BUILT_ENV, buildTests, testCommand } from './test-command.js';

const ROOT = new URL('../../', import.meta.url).pathname;

/**
 * Started first, by path without `.test.ts` or a folder: the slowest files (measured with
 * bench/test-timing.ts), and the real-data import, whose stored copy the discovery test on the same
 * data reads (that one imports again only when the copy is missing, so the order saves time, not failures).
 */
const FIRST = [
  'test/data/import/transfermarkt-real',
  'test/e2e/studio',
  'test/cli/leagues',
  'test/access/cli',
  'test/docs/examples',
  'test/data/demo',
  'test/data/world-store',
  'test/cli/serve',
  'test/e2e/docs-page',
  'test/api/fuzz',
  'test/api/recommend',
];
/** Started last: reads what a file of FIRST stored. */
const LAST = ['test/discovery/real-data'];
/**
 * Files that need no demo world, started while the runner still makes it (a minute of one core on a
 * clean checkout, which they fill), in the order above. Such a file that asks for the world fails,
 * saying to take it off this list (test-command.ts, BEFORE_WORLD_ENV).
 */
/** the nice value of a file started before the world is made */
const BEFORE_WORLD_NICE = 10;
const BEFORE_WORLD = [
  'test/data/import/', 'test/data/demo', 'test/data/staging', 'test/data/pglite-dialect', 'test/data/migration-',
  'test/valuation/', 'test/domain/', 'test/money/', 'test/lint/', 'test/logger', 'test/docs/readme-settings',
  'test/access/ratelimit/', 'test/access/password-policy', 'test/access/coverage', 'test/engine/loader', 'test/engine/worker-memory', 'test/engine/worker-reports',
  'test/discovery/fold', 'test/discovery/football-names', 'test/discovery/history', 'test/discovery/search-index', 'test/discovery/index-reuse',
];
/**
 * The PostgreSQL/Redis suite (`--pg`): the API tests whose answers go through storage (accounts, keys
 * and limits, the world as read back, rates, season membership, security, transport), by name
 * prefix so that a file split into happy path, errors and security stays in, and the scale-out tests.
 */
const PG = ['test/api/access', 'test/api/org', 'test/api/league-forecast', 'test/api/reference', 'test/api/security', 'test/api/transport', 'test/api/valuation', 'test/scale/'];

const args = process.argv.slice(2);
const pg = args.includes('--pg');
const list = args.includes('--list');
const given = args.filter((a) => a !== '--pg' && a !== '--list');
const matches = (file: string, prefixes: readonly string[]) => prefixes.some((p) => file.startsWith(p));
/** Index of the first prefix the file starts with, or -1. */
const rank = (file: string, prefixes: readonly string[]) => prefixes.findIndex((p) => file.startsWith(p));
let files = given;
if (!given.length) {
  const all = allTestFiles();
  const first = all.filter((f) => rank(f, FIRST) >= 0).sort((x, y) => rank(x, FIRST) - rank(y, FIRST));
  files = [...first, ...all.filter((f) => !first.includes(f) && !matches(f, LAST)), ...all.filter((f) => matches(f, LAST))];
  if (pg) files = files.filter((f) => matches(f, PG));
}
if (list) {
  console.log(files.join('\n'));
  process.exit(0);
}

const started = performance.now();
buildTests();
let worldReady = false;
/** files started below the world's making and still running, by process id */
const niced = new Set<number>();
const world = demoWorldDir().then(() => {
  worldReady = true;
  // their nice value was for the world's sake: a long one (the real-data import) would otherwise be starved to its end
  for (const pid of niced) unnice(pid);
  console.log(`# demo world database and models ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);
});

interface Result {
  readonly file: string;
  readonly code: number;
  readonly seconds: number;
  readonly counts: Record<string, number>;
}

const reports = mkdtempSync(join(tmpdir(), 'touchline-tests-'));
process.on('exit', () => rmSync(reports, { recursive: true, force: true }));

/** Every thread of the process back to the nice value of the runner's (Linux nice is per thread; lowering it needs the right to, else it stays). */
function unnice(pid: number): void {
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) setPriority(Number(tid), 0);
  } catch {
    // ended already, or not allowed
  }
}

/**
 * Runs one file in a node process of its own, its output held until it ends. The TAP report goes to
 * a file of its own, not to the test's process.stdout (some tests capture that); `node --test FILE`
 * would do the same at the cost of a second node process (and loader) per file.
 */
function runFile(file: string, lane: number, beforeWorld: boolean): Promise<Result> {
  const t0 = performance.now();
  const report = join(reports, `lane-${lane}.tap`);
  const child = spawn(process.execPath, ['--test-reporter=tap', `--test-reporter-destination=${report}`, ...testCommand(file)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, [BUILT_ENV]: '1', ...(beforeWorld ? { [BEFORE_WORLD_ENV]: '1' } : {}) } });
  // below the world's making, which every other file waits for: they take the CPU it leaves
  if (beforeWorld && child.pid) {
    try {
      setPriority(child.pid, BEFORE_WORLD_NICE);
      niced.add(child.pid);
    } catch {
      // ended already
    }
  }
  const out: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stderr.on('data', (c: Buffer) => out.push(c));
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      if (child.pid) niced.delete(child.pid);
      const text = (existsSync(report) ? readFileSync(report, 'utf8') : '') + Buffer.concat(out).toString();
      rmSync(report, { force: true });
      const seconds = (performance.now() - t0) / 1000;
      const counts: Record<string, number> = {};
      for (const m of text.matchAll(/^# (tests|pass|fail|cancelled|skipped|todo) (\d+)$/gm)) counts[m[1]!] = Number(m[2]);
      process.stdout.write(`# ---- ${file} (${seconds.toFixed(1)} s${code ? `, exit ${code ?? signal}` : ''})\n${text}`);
      resolve({ file, code: code ?? 1, seconds, counts });
    }),
  );
}

// The PostgreSQL suite runs one file at a time: the fault tests restart the shared server.
const concurrency = pg ? 1 : Number(process.env.TOUCHLINE_TEST_CONCURRENCY ?? 2);
const queue = [...files];
/** The next file to start: while the world is being made, the next that needs none (or, when none is left, the next once it is made). */
async function next(): Promise<{ file: string; beforeWorld: boolean } | undefined> {
  if (!worldReady) {
    const at = queue.findIndex((f) => matches(f, BEFORE_WORLD) && !matches(f, LAST));
    if (at >= 0) return { file: queue.splice(at, 1)[0]!, beforeWorld: true };
    await world;
  }
  const file = queue.shift();
  return file ? { file, beforeWorld: false } : undefined;
}
const results: Result[] = [];
await Promise.all(
  Array.from({ length: Math.max(1, concurrency) }, async (_, lane) => {
    for (let n = await next(); n; n = await next()) results.push(await runFile(n.file, lane, n.beforeWorld));
  }),
);
await world;
const total = (k: string) => results.reduce((n, r) => n + (r.counts[k] ?? 0), 0);
const failed = results.filter((r) => r.code !== 0);
console.log(`# ==== ${results.length} files in ${((performance.now() - started) / 1000).toFixed(1)} s, ${concurrency} at a time`);
for (const k of ['tests', 'pass', 'fail', 'cancelled', 'skipped', 'todo']) console.log(`# ${k} ${total(k)}`);
for (const r of failed) console.log(`# FAILED: ${r.file} (exit ${r.code})`);
process.exitCode = failed.length ? 1 : 0;
