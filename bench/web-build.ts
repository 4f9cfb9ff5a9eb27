/**
 * Touchline Studio's build as `npm install` runs it (`npm run build:web`, through `prepare`): wall time
 * of each build, and the size of every file it writes, raw and gzipped (what a browser downloads).
 *
 * Usage: npx tsx bench/web-build.ts [--runs 3]
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { WEB_DIST } from '../src/http/web-app.js';
import { REPO_ROOT } from '../test/helpers/server-process.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const runs = Number(values.runs);
if (!(Number.isInteger(runs) && runs >= 1 && runs <= 10)) throw new Error('--runs must be an integer in [1, 10]');

const times: number[] = [];
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  execFileSync('npm', ['run', '--silent', 'build:web'], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  times.push((performance.now() - t0) / 1000);
}
times.sort((a, b) => a - b);
console.log(`build:web wall time over ${runs} runs: min ${times[0].toFixed(1)} s, median ${times[Math.floor(runs / 2)].toFixed(1)} s, max ${times[runs - 1].toFixed(1)} s`);

const walk = (dir: string): string[] => readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
let raw = 0;
let gz = 0;
for (const file of walk(WEB_DIST).sort()) {
  const body = readFileSync(file);
  const z = gzipSync(body, { level: 9 }).length;
  raw += body.length;
  gz += z;
  console.log(`${relative(WEB_DIST, file).padEnd(28)} ${(body.length / 1024).toFixed(1).padStart(7)} KiB  gzip ${(z / 1024).toFixed(1).padStart(6)} KiB`);
}
console.log(`${'total'.padEnd(28)} ${(raw / 1024).toFixed(1).padStart(7)} KiB  gzip ${(gz / 1024).toFixed(1).padStart(6)} KiB`);
