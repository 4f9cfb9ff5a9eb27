/**
 * How long `touchline data update` takes on this machine, end to end as an operator runs it: the
 * shared Transfermarkt copy zipped (as the dataset publishes it) and served from a local HTTP server on
 * 127.0.0.1, then `touchline data update --from URL` into a fresh data folder: download, unzip, check,
 * import, retrain, swap. Run twice: the first on an empty folder (models trained), the second the same
 * zip again (found unchanged). Prints each run's wall time, and the first run's phases as the CLI's
 * progress lines mark them: the staging copy filled (import), the models trained on it, and the swap
 * into the live tables (the one transaction servers wait on; the report after it is in that figure).
 *   node --import tsx bench/data-update.ts [DIR]
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import yazl from 'yazl';

const root = resolve(import.meta.dirname, '..');
const dir = resolve(process.argv[2] ?? join(root, '../shared/data/transfermarkt'));
if (!existsSync(dir)) {
  console.log(`skipped: no dataset at ${dir}`);
  process.exit(0);
}
const work = mkdtempSync(join(tmpdir(), 'touchline-bench-update-'));
const zipFile = join(work, 'transfermarkt-datasets.zip');
await new Promise<void>((done, fail) => {
  const z = new yazl.ZipFile();
  for (const f of readdirSync(dir).filter((n) => /\.csv(\.gz)?$/.test(n))) z.addFile(join(dir, f), `transfermarkt-datasets/${f}`, { compress: false });
  z.end();
  const out = createWriteStream(zipFile);
  z.outputStream.pipe(out).on('close', () => done()).on('error', fail);
});
const zipBytes = statSync(zipFile).size;
const http = createServer((_req, res) => {
  const body = readFileSync(zipFile);
  res.writeHead(200, { 'content-type': 'application/zip', 'content-length': body.length }).end(body);
});
await new Promise<void>((r) => http.listen(0, '127.0.0.1', () => r()));
const port = (http.address() as { port: number }).port;
const url = `http://127.0.0.1:${port}/transfermarkt-datasets.zip`;

/** Progress lines that end a phase, and the phase they end (the last one runs to the process's end). */
const MARKS: Array<[RegExp, string]> = [
  [/every table and column needed is there/, 'download, unzip, check'],
  [/storing the new world in the staging copy/, 'read the served world and the new tables'],
  [/training the models on the new data/, 'store into the staging copy'],
  [/swapping the new data in/, 'train on the staging copy, keep the previous world'],
];
const LAST_PHASE = 'swap into the live tables (one transaction), report';

function run(): Promise<{ ms: number; code: number | null; out: string; phases: string }> {
  const started = performance.now();
  const env: NodeJS.ProcessEnv = { ...process.env, TOUCHLINE_DATA_DIR: join(work, 'data'), LOG_LEVEL: 'warn' };
  delete env.TOUCHLINE_AS_OF;
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/cli/main.ts'), 'data', 'update', '--from', url, '--json'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const marks: number[] = [];
  child.stderr.on('data', (c: Buffer) => {
    err += c.toString();
    while (marks.length < MARKS.length && MARKS[marks.length][0].test(err)) marks.push(performance.now());
  });
  return new Promise((r) =>
    child.on('close', (code) => {
      const end = performance.now();
      const bounds = [started, ...marks, end];
      const names = [...MARKS.slice(0, marks.length).map(([, name]) => name), LAST_PHASE];
      const phases = names.map((name, i) => `${name} ${((bounds[i + 1] - bounds[i]) / 1000).toFixed(1)} s`).join(', ');
      r({ ms: end - started, code, out: code === 0 ? out : err.split('\n').slice(-5).join('\n'), phases });
    }),
  );
}

try {
  console.log(`zip: ${(zipBytes / 1e6).toFixed(1)} MB of ${dir}`);
  for (const label of ['first update (empty folder, models trained)', 'same zip again (unchanged)']) {
    const r = await run();
    if (r.code !== 0) {
      console.log(`${label}: FAILED (exit ${r.code}): ${r.out}`);
      break;
    }
    const report = JSON.parse(r.out) as { status: string; counts: { after: Record<string, number> }; data_as_of: { after: string } };
    console.log(`${label}: ${(r.ms / 1000).toFixed(1)} s, status ${report.status}, players ${report.counts.after.players}, data as of ${report.data_as_of.after}`);
    if (report.status === 'updated') console.log(`  phases: ${r.phases}`);
  }
} finally {
  http.close();
  rmSync(work, { recursive: true, force: true });
}
