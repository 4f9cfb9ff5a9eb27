/**
 * The bench server of bench/engine.ts in a process of its own, started as
 * `npm start` runs the app (compiled, plain node) or through tsx; and what /proc says of it.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { transform } from 'esbuild';

export interface Ready {
  url: string;
  bareUrl: string;
  pid: number;
  key: string;
  players: string[];
  analysable: string[];
  clubs: string[];
  /** the bare route's bodies by player id, for a bare server in a process of its own (bench/lib/bare-server.ts) */
  bodiesFile: string;
  /** the server's main thread at ready: V8 heap used and external memory, MB (bench/lib/engine-server.ts) */
  mainThread?: { heapUsedMb: number; externalMb: number };
}

/**
 * The bench server compiled as `npm start` runs the app: build/ brought up to date, then the bench's
 * two server files (bench/lib/engine-server.ts, serve.ts) transpiled the same way into .cache/, their
 * imports of src/ pointed at build/. Returns the script to run with plain node.
 */
export async function compiledServer(): Promise<string> {
  execFileSync(process.execPath, ['scripts/build-server.js', '--quiet'], { stdio: 'inherit' });
  const out = resolve('.cache/bench-engine-server');
  mkdirSync(out, { recursive: true });
  const built = pathToFileURL(resolve('build')).href;
  for (const name of ['engine-server', 'serve', 'bare-server']) {
    const { code } = await transform(readFileSync(`bench/lib/${name}.ts`, 'utf8'), { loader: 'ts', format: 'esm', target: 'esnext' });
    const linked = code.replaceAll('"../../src/', `"${built}/`);
    if (/["']\.\.\//.test(linked)) throw new Error(`bench/lib/${name}.ts imports a path outside src/ the compiled bench does not map`);
    writeFileSync(join(out, `${name}.js`), linked);
  }
  return join(out, 'engine-server.js');
}

/**
 * Starts `node ...args` and resolves on its `READY {...}` line; `onLine` sees every other line of
 * its standard output.
 */
export function startServer(args: string[], opts: { env?: Record<string, string>; onLine?: (line: string) => void } = {}): Promise<{ ready: Ready; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...opts.env } });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code} before it was ready`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.startsWith('READY ')) return opts.onLine?.(line);
      const ready = JSON.parse(line.slice(6)) as Ready;
      resolve({ ready, stop: async () => { child.kill('SIGTERM'); await exited; } });
    });
  });
}

/** CPU seconds the server process (all its threads) has used: utime + stime from /proc. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // clock ticks of 1/100 s on Linux
}

export function memoryMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

