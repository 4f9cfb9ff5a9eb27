// Where the test suite's time goes: runs each test file alone in its own process, as `npm test`
// (test/helpers/run-tests.ts) runs it, start-up included, and prints its wall and CPU time, most CPU first, then the totals.
// Usage: npx tsx bench/test-timing.ts [--jobs N] [files...]   (default: every test file, one at a time)
import { spawn } from 'node:child_process';
import { allTestFiles } from '../test/helpers/test-files.js';
import { buildTests, testCommand } from '../test/helpers/test-command.js';

const ROOT = new URL('../', import.meta.url).pathname;

const args = process.argv.slice(2);
let jobs = 1;
const at = args.indexOf('--jobs');
if (at >= 0) jobs = Number(args.splice(at, 2)[1]);
const files = args.length ? args : allTestFiles();

interface Row {
  file: string;
  s: number;
  cpu: number;
  code: number;
}

/** Wall time, and the CPU time of the file's processes (children included, through GNU time), which a busy machine changes less. */
function timeFile(file: string): Promise<Row> {
  const started = performance.now();
  const child = spawn('/usr/bin/time', ['-f', '@@cpu %U %S', process.execPath, ...testCommand(file)], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], env: process.env });
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((resolve) =>
    child.on('close', (code) => {
      const m = /@@cpu ([\d.]+) ([\d.]+)/.exec(err);
      resolve({ file, s: (performance.now() - started) / 1000, cpu: m ? Number(m[1]) + Number(m[2]) : NaN, code: code ?? 1 });
    }),
  );
}
const line = (r: Row) => `${r.s.toFixed(1).padStart(7)} s wall ${r.cpu.toFixed(1).padStart(6)} s CPU  ${r.code ? 'FAIL ' : ''}${r.file}`;

buildTests();
const started = performance.now();
const queue = [...files];
const rows: Row[] = [];
await Promise.all(
  Array.from({ length: jobs }, async () => {
    for (let f = queue.shift(); f; f = queue.shift()) {
      const r = await timeFile(f);
      rows.push(r);
      console.error(line(r));
    }
  }),
);
const wall = (performance.now() - started) / 1000;
rows.sort((a, b) => b.cpu - a.cpu);
console.log('most CPU first:');
for (const r of rows) console.log(line(r));
const sum = rows.reduce((t, r) => t + r.s, 0);
const cpu = rows.reduce((t, r) => t + r.cpu, 0);
console.log(`${rows.length} files, sum of wall ${sum.toFixed(1)} s, sum of CPU ${cpu.toFixed(1)} s, run wall ${wall.toFixed(1)} s with ${jobs} job(s), ${rows.filter((r) => r.code).length} failed`);
