/**
 * Start-up time as a fresh clone sees it: `npm start` on an empty embedded database (demo world,
 * first model fit), then restarts on the same data, each timed from the spawn until GET /v1/health
 * answers 200. Targets (CONVENTIONS): first start within 60 s, later starts within 10 s.
 *
 * Then what a CLI command costs before it does anything: the CPU time of the built `touchline --help`
 * (median of 5), which every command pays (and every CLI child of the tests).
 *
 * Usage: npx tsx bench/startup.ts [--restarts 2] [--cli-only]
 *   Runs in a temporary data folder (models included, so the first start really trains), removed at the end.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cleanEnv, freePort, REPO_ROOT, sleep } from '../test/helpers/server-process.js';

const { values } = parseArgs({ options: { restarts: { type: 'string', default: '2' }, 'cli-only': { type: 'boolean', default: false } } });
const restarts = Number(values.restarts);
if (!(Number.isInteger(restarts) && restarts >= 0 && restarts <= 10)) throw new Error('--restarts must be an integer in [0, 10]');

const dataDir = mkdtempSync(join(tmpdir(), 'touchline-startup-'));

async function timedStart(label: string, limitSeconds: number): Promise<boolean> {
  const port = await freePort();
  const env = cleanEnv({ PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', TOUCHLINE_DATA_DIR: dataDir, TOUCHLINE_MODELS_DIR: join(dataDir, 'models') });
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'ignore', 'inherit'], detached: true });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let seconds = NaN;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${label}: the server exited with ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}/v1/health`).then((r) => r.status === 200, () => false);
      if (ok) break;
      if (performance.now() - started > 300_000) throw new Error(`${label}: no healthy answer within 300 s`);
      await sleep(100);
    }
    seconds = (performance.now() - started) / 1000;
  } finally {
    process.kill(-child.pid!, 'SIGTERM'); // npm and the server below it
    await exited;
    await sleep(500);
  }
  const pass = seconds <= limitSeconds;
  console.log(`${label.padEnd(28)} health 200 after ${seconds.toFixed(1)} s (target <= ${limitSeconds} s): ${pass ? 'PASS' : 'FAIL'}`);
  return pass;
}

/** CPU seconds (user + system) of `node build/cli/main.js --help`, through GNU time; the median of `runs`. */
function cliStartCpu(runs: number): number {
  spawnSync(process.execPath, [join(REPO_ROOT, 'scripts/build-server.js'), '--quiet'], { cwd: REPO_ROOT, stdio: 'inherit' });
  const cpu = Array.from({ length: runs }, () => {
    const r = spawnSync('/usr/bin/time', ['-f', '@@%U %S', process.execPath, join(REPO_ROOT, 'build/cli/main.js'), '--help'], { encoding: 'utf8' });
    const m = /@@([\d.]+) ([\d.]+)/.exec(r.stderr);
    if (!m) throw new Error(`touchline --help: no time printed (${r.stderr.trim()})`);
    return Number(m[1]) + Number(m[2]);
  }).sort((a, b) => a - b);
  return cpu[Math.floor(runs / 2)];
}

if (values['cli-only']) {
  console.log(`touchline --help: ${cliStartCpu(5).toFixed(2)} s of CPU (median of 5)`);
  process.exit(0);
}
console.log(`start-up: npm start, embedded database in ${dataDir}, Node ${process.version}`);
try {
  let all = await timedStart('first start (empty database)', 60);
  for (let i = 1; i <= restarts; i++) all = (await timedStart(`restart ${i}`, 10)) && all;
  console.log(all ? 'all starts within target' : 'some start missed its target');
  console.log(`touchline --help: ${cliStartCpu(5).toFixed(2)} s of CPU (median of 5)`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
