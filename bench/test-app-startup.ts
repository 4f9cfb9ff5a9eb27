// What one API test file pays before its first request: the steps of test/helpers/app.ts's
// startTestApp on the embedded database, timed one by one (the dump and models must exist: run
// `node --import tsx test/helpers/prepare-demo.ts` first). Usage: npx tsx bench/test-app-startup.ts [--disk]
// Without --disk: the dump loaded into memory, as the tests did before; with it: a copy of the data folder.
// With --empty: the access tests' empty migrated database, made by initdb or copied.
import { readFileSync } from 'node:fs';
import pino from 'pino';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { migrateToLatest, openDatabase } from '../src/data/db.js';
import { ensureBootstrapKey } from '../src/access/bootstrap.js';
import { createRuntime, loadServedWorld } from '../src/runtime.js';
import { demoWorldDir, demoWorldDump, MODELS_DIR, TEST_KEY } from '../test/helpers/app.js';
import { copyDataDir, openEmptyDatabase } from '../test/helpers/embedded.js';

let last = performance.now();
let lastCpu = process.cpuUsage();
const step = (what: string) => {
  const now = performance.now();
  const cpu = process.cpuUsage(lastCpu);
  console.log(`${((now - last) / 1000).toFixed(2).padStart(6)} s wall ${((cpu.user + cpu.system) / 1e6).toFixed(2).padStart(6)} s CPU  ${what}`);
  last = now;
  lastCpu = process.cpuUsage();
};
if (process.argv.includes('--empty')) {
  // The access tests' empty database: initdb and the migrations, against a copy of the folder made once.
  step('start');
  const fresh = await openDatabase({});
  await migrateToLatest(fresh.db);
  step('empty database: initdb in memory and migrations (as the access tests did)');
  await fresh.close();
  const copy = await openEmptyDatabase();
  step('empty database: on a copy of the migrated folder (as they do now; made once before)');
  await copy.close();
  process.exit(0);
}
const t0 = performance.now();
const config = loadConfig({ LOG_LEVEL: 'silent', TOUCHLINE_MODELS_DIR: MODELS_DIR, RATE_LIMIT: '1000000' });
const file = await demoWorldDump(config);
let handle;
if (process.argv.includes('--disk')) {
  // As the tests do now: PGlite on a private copy of the demo world's data folder, made once from the dump.
  const pristine = await demoWorldDir(config);
  step('data folder ready (made once from the dump)');
  const copy = copyDataDir(pristine, 'tl-startup-');
  step('data folder copied');
  handle = await openDatabase({ dataDir: copy.dir });
  process.on('exit', copy.remove);
  step('PGlite started on the copy');
} else {
  const bytes = readFileSync(file);
  step(`read the dump (${(bytes.length / 2 ** 20).toFixed(0)} MiB)`);
  handle = await openDatabase({ loadDataDir: new Blob([bytes]) });
  step('PGlite started from the dump');
}
await migrateToLatest(handle.db);
await ensureBootstrapKey(handle.db, TEST_KEY);
step('migrations checked, bootstrap key');
const logger = pino({ level: 'silent' });
const world = await loadServedWorld(config, handle, logger);
step('world read from the database (and the models checked)');
const runtime = await createRuntime(config, handle, logger, { dataPollMs: 0, world });
const app = await buildApp(runtime.deps, { logger });
await app.ready();
step('runtime and app built');
await app.inject({ method: 'GET', url: '/v1/competitions', headers: { 'x-api-key': TEST_KEY } });
step('first request');
await app.close();
await runtime.close();
await handle.close();
step('closed');
console.log(`total ${((performance.now() - t0) / 1000).toFixed(2)} s (process start-up and imports not included)`);
