/**
 * Worker threads' modules: beside the module that starts them, `.ts` when running from src/ (through
 * tsx) and `.js` from the compiled build/, with the loader a `.ts` worker needs. And a full
 * collection of a thread's heap on demand (a worker once warm, the benches before a reading).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface WorkerModule {
  url: URL;
  /** for the Worker's execArgv; undefined: the process's own */
  execArgv: string[] | undefined;
}

/**
 * The worker module `name` beside `importMetaUrl`. Run from src/, a worker needs tsx's loader for its
 * .ts: it inherits `--import tsx` from the command line (tests), but not a loader registered in the
 * main thread alone, as bin/touchline.js (`npx touchline serve`) does; there a worker could not load.
 */
export function workerModule(importMetaUrl: string, name: string): WorkerModule {
  const fromSource = importMetaUrl.endsWith('.ts');
  const url = new URL(`./${name}${fromSource ? '.ts' : '.js'}`, importMetaUrl);
  if (!fromSource) return { url, execArgv: withoutRequireOfModules(process.execArgv) };
  const execArgv = process.execArgv.some((arg) => arg.includes('tsx')) ? undefined : [...process.execArgv, '--import', import.meta.resolve('tsx')];
  return { url, execArgv };
}

const NO_REQUIRE_MODULE = '--no-experimental-require-module';

/**
 * piscina loads a worker's module with require() first, then import(). Where node can require an ES
 * module (20.19 and later), a worker terminated while that require() was still loading (a pool closed
 * right after it started one) ended the whole process with a fatal V8 error ("IsGraphAsync must be used on
 * an instantiated module"); with require of ES modules off in the worker, require() fails at once
 * and the module loads through import(), which a termination interrupts cleanly. The worker then
 * gets the command line's options given explicitly, and a worker refuses V8 options there: give
 * those in NODE_OPTIONS (docs/engine.md).
 */
export function withoutRequireOfModules(execArgv: readonly string[]): string[] | undefined {
  if (!process.allowedNodeEnvironmentFlags.has('--experimental-require-module')) return undefined;
  return [...execArgv, NO_REQUIRE_MODULE];
}


let gcOfThread: (() => void) | null = null;

/**
 * A full collection of this thread's heap, now. V8 offers it only through its `gc` extension, turned
 * on here (for this thread's new contexts) on first use.
 */
export function collectFully(): void {
  if (!gcOfThread) {
    setFlagsFromString('--expose-gc');
    gcOfThread = runInNewContext('gc') as () => void;
  }
  gcOfThread();
}
