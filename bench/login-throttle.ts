/**
 * Access under attack, measured:
 *   1. N parallel wrong guesses for one email from one address, on each throttle store (the embedded
 *      database; PostgreSQL and Redis when given): how many were checked (counted), how many refused,
 *      and how long the burst took. The contract: at most 10 checked. `served` is the embedded store as
 *      the server wraps it (refusals remembered per instance), twice: the second burst finds the lock.
 *   2. The common-password list: its size and what building the 10,000 set costs.
 *   3. A second start on a busy data folder and on a busy port: exit status, time and the one line printed.
 *
 * Usage: npx tsx bench/login-throttle.ts [--attempts 1000] [--pg postgres://…/NAME] [--redis redis://…]
 */
import { createServer } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { dictionary } from '@zxcvbn-ts/language-common';
import { passwordProblem } from '../src/access/password-policy.js';
import { createLoginThrottle, RedisLoginThrottle, SqlLoginThrottle, type LoginThrottle } from '../src/access/throttle/index.js';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../src/data/db.js';
import { createScratchDatabase, freePort, spawnCli } from '../test/helpers/server-process.js';

const { values } = parseArgs({ options: { attempts: { type: 'string', default: '1000' }, pg: { type: 'string', default: '' }, redis: { type: 'string', default: '' } } });
const attempts = Number(values.attempts);
if (!Number.isInteger(attempts) || attempts < 1 || attempts > 100_000) throw new Error('--attempts must be a whole number from 1 to 100000');

async function burst(name: string, stores: LoginThrottle[], email = `victim-${process.pid}-${name}@bench.test`): Promise<void> {
  const started = performance.now();
  const d = await Promise.all(Array.from({ length: attempts }, (_, i) => stores[i % stores.length].attempt(email, `198.18.${process.pid % 250}.1`, Date.now())));
  const ms = performance.now() - started;
  const counted = d.filter((x) => x.allowed).length;
  console.log(`${name.padEnd(10)} ${attempts} parallel attempts on ${stores.length} instances: ${counted} checked, ${attempts - counted} refused (429), ${ms.toFixed(0)} ms`);
}

console.log('# 1. parallel wrong guesses for one email from one address');
const embedded = await openDatabase({});
await migrateToLatest(embedded.db);
await burst('embedded', [new SqlLoginThrottle(embedded.db), new SqlLoginThrottle(embedded.db)]);
// As the server builds it: refusals remembered, so a second burst on a locked pair skips the database.
const served = [await createLoginThrottle(embedded.db), await createLoginThrottle(embedded.db)];
await burst('served', served, 'served@bench.test');
await burst('served', served, 'served@bench.test');
await embedded.close();
if (values.pg) {
  const scratch = await createScratchDatabase(values.pg, `throttle_${process.pid}`);
  const handles: DatabaseHandle[] = [await openDatabase({ url: scratch.url }), await openDatabase({ url: scratch.url })];
  try {
    await migrateToLatest(handles[0].db);
    await burst('postgres', handles.map((h) => new SqlLoginThrottle(h.db)));
  } finally {
    for (const h of handles) await h.close();
    await scratch.drop();
  }
} else console.log('postgres   skipped: give --pg');
if (values.redis) {
  const stores = [new RedisLoginThrottle(values.redis, undefined, { keyPrefix: `bench:${process.pid}:` }), new RedisLoginThrottle(values.redis, undefined, { keyPrefix: `bench:${process.pid}:` })];
  for (const s of stores) await s.connect();
  await burst('redis', stores);
  for (const s of stores) await s.close();
} else console.log('redis      skipped: give --redis');

console.log('# 2. the common-password list (@zxcvbn-ts/language-common, passwords-common)');
const t0 = performance.now();
passwordProblem('a long enough password', 'x@y.z');
console.log(`${dictionary['passwords-common'].length} entries, most frequent first; the first 10,000 as a set: ${(performance.now() - t0).toFixed(1)} ms`);

console.log('# 3. a second start that cannot work');
const busyDir = mkdtempSync(join(tmpdir(), 'touchline-bench-busy-'));
// A live process holds the folder: this one.
writeFileSync(join(busyDir, 'touchline.lock'), JSON.stringify({ pid: process.pid, socket: null }));
const folder = await spawnCli(['serve', '--port', String(await freePort()), '--host', '127.0.0.1'], { TOUCHLINE_DATA_DIR: busyDir }).done;
console.log(`busy data folder: exit ${folder.code} after ${(folder.ms / 1000).toFixed(1)} s, ${folder.stderr.trim().split('\n').length} line: ${folder.stderr.trim()}`);
const holder = createServer();
const port = await freePort();
await new Promise<void>((r) => holder.listen(port, '127.0.0.1', () => r()));
const freshDir = mkdtempSync(join(tmpdir(), 'touchline-bench-port-'));
const busyPort = await spawnCli(['serve', '--port', String(port), '--host', '127.0.0.1'], { TOUCHLINE_DATA_DIR: freshDir }).done;
console.log(`busy port: exit ${busyPort.code} after ${(busyPort.ms / 1000).toFixed(1)} s, ${busyPort.stderr.trim().split('\n').length} line: ${busyPort.stderr.trim()}`);
holder.close();
for (const d of [busyDir, freshDir]) rmSync(d, { recursive: true, force: true });
