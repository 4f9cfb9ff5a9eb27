/**
 * Full import of the shared Transfermarkt copy (with the EA files when present) into a fresh embedded
 * database in a temp folder; prints wall time, CPU time (user+sys: the stable figure on a shared machine) and peak resident memory. Target: <= 2 min, <= 3 GiB.
 *   node --import tsx bench/import.ts [DIR]
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openDatabase, migrateToLatest } from '../src/data/db.js';
import { importTransfermarkt } from '../src/data/import/transfermarkt.js';
import { lineReporter } from '../src/data/import/reporter.js';

const shared = resolve(import.meta.dirname, '../../shared/data');
const dir = resolve(process.argv[2] ?? join(shared, 'transfermarkt'));
if (!existsSync(dir)) {
  console.error(`no data at ${dir}`);
  process.exit(1);
}
const eaRatings = join(shared, 'eafc24_ratings/male_players.csv.gz');
const eaMapping = join(shared, 'ea_tm_mapping/tm_to_eafc25.csv.gz');
const dataDir = mkdtempSync(join(tmpdir(), 'touchline-bench-import-'));

let peak = process.memoryUsage().rss;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
const t0 = performance.now();
const c0 = process.cpuUsage();
const h = await openDatabase({ dataDir: join(dataDir, 'pg') });
try {
  await migrateToLatest(h.db);
  const t1 = performance.now();
  const s = await importTransfermarkt(
    h.db,
    dir,
    { eaRatings: existsSync(eaRatings) ? eaRatings : undefined, eaMapping: existsSync(eaMapping) ? eaMapping : undefined, rejectsPath: join(dataDir, 'rejects.csv') },
    lineReporter(),
  );
  const t2 = performance.now();
  const cpu = process.cpuUsage(c0);
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(`import: ${s.status}, ${s.rejected_total} rows rejected, EA match rate ${s.ea ? (s.ea.match_rate * 100).toFixed(1) + '%' : 'n/a'}`);
  console.log(`rows: ${Object.entries(s.world).map(([t, n]) => `${t} ${n}`).join(', ')}`);
  console.log(`careers (${s.current_season} current): ${Object.entries(s.careers).map(([r, n]) => `${r} ${n}`).join(', ')}`);
  console.log(`market values: ${Object.entries(s.tables.player_valuations?.notes ?? {}).map(([r, n]) => `${r} ${n}`).join(', ')}`);
  console.log(`wall time: ${((t2 - t0) / 1000).toFixed(1)} s (database start ${((t1 - t0) / 1000).toFixed(1)} s, import ${((t2 - t1) / 1000).toFixed(1)} s)`);
  console.log(`CPU time (user+sys, whole run): ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s (user ${(cpu.user / 1e6).toFixed(1)} s, sys ${(cpu.system / 1e6).toFixed(1)} s)`);
  console.log(`peak RSS: ${(peak / 2 ** 30).toFixed(2)} GiB`);
} finally {
  clearInterval(sampler);
  await h.close();
  rmSync(dataDir, { recursive: true, force: true });
}
