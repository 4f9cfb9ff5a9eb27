/**
 * Worker threads' modules: beside the module that starts them, `.ts` when running from src/ (through
 * tsx) and `.js` from the compiled build/, with the loader a `.ts` worker needs.
 */
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
  const execArgv = !fromSource || process.execArgv.some((arg) => arg.includes('tsx')) ? undefined : [...process.execArgv, '--import', import.meta.resolve('tsx')];
  return { url, execArgv };
}

