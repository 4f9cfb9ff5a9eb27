import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { servedAsOf, type Config } from '../config.js';
import type { DatabaseHandle } from '../data/db.js';
import { barReporter, lineReporter } from '../data/import/reporter.js';
import { importTransfermarkt, RowParseError } from '../data/import/transfermarkt.js';
import { checkLayout } from '../data/update/check.js';
import { loadPrevious, savePrevious, WORLD_META_KEYS } from '../data/update/previous.js';
import { compareWorlds, type UpdateReport } from '../data/update/report.js';
import { UpdateError } from '../data/update/source.js';
import { loadWorld, readMeta, replaceWorld, setMeta } from '../data/world-store.js';
import type { WorldData } from '../domain/world.js';
import { ensureModels } from '../models/train.js';
import type { OperationContext } from '../operation.js';

/** Rows that do not parse fail an update; rows that point at what the data lacks are skipped as in an import. */
const PARSE_REASONS = ['column_count', 'malformed_csv', 'bad_number', 'bad_date'] as const;

export const reportFile = (config: Config): string => join(resolve(config.TOUCHLINE_DATA_DIR), 'update-report.json');

async function clearPending(handle: DatabaseHandle): Promise<void> {
  await handle.db.deleteFrom('meta').where('key', '=', 'update_pending').execute();
}

/**
 * Stores a new world and its model ratings while every server keeps answering from the old one
 * (`update_pending` holds their reload back), then lifts the flag: each server's next version check
 * (2 s) swaps in the new world and its models at once. A failure restores the old world.
 */
async function swapIn(ctx: OperationContext, before: WorldData, beforeMeta: Record<string, string>, store: () => Promise<unknown>): Promise<void> {
  const { handle, config, progress } = ctx;
  await setMeta(handle.db, { update_pending: new Date().toISOString() });
  try {
    await store();
    progress('training the models on the new data (the old data is served meanwhile)');
    await ensureModels(handle, config, progress);
  } catch (err) {
    progress('failed: putting the previous data back');
    await restore(handle, before, beforeMeta).catch(() => {});
    throw err;
  } finally {
    await clearPending(handle);
  }
}

async function restore(handle: DatabaseHandle, world: WorldData, meta: Record<string, string>): Promise<void> {
  await handle.db.deleteFrom('meta').where('key', 'in', [...WORLD_META_KEYS]).execute();
  await replaceWorld(handle.db, world, meta);
}

const asOfOf = (config: Config, meta: Record<string, string>) => servedAsOf(config, meta);

function finish(config: Config, report: UpdateReport, write: boolean): UpdateReport {
  if (write) writeFileSync(reportFile(config), `${JSON.stringify(report, null, 2)}\n`);
  return report;
}

export async function runUpdate(ctx: OperationContext, args: { dir: string; source: string; dryRun?: boolean }): Promise<UpdateReport> {
  const started = Date.now();
  const { handle, config, progress, terminal } = ctx;
  await checkLayout(args.dir);
  progress('every table and column needed is there');
  const beforeMeta = await readMeta(handle.db);
  const before = await loadWorld(handle.db);
  let after: WorldData | null = null;
  const reporter = terminal ? barReporter(terminal) : lineReporter({ write: (s: string) => progress(s.trimEnd()) });
  const options = {
    // The as-of date decides who is in a current squad; unset, the importer takes the data's own season.
    asOf: config.TOUCHLINE_AS_OF, failOn: PARSE_REASONS, dryRun: args.dryRun, rejectsPath: join(resolve(config.TOUCHLINE_DATA_DIR), 'update-rejects.csv'),
    onWorld: (w: WorldData) => (after = w),
  };
  const importOnce = async () => {
    try {
      return await importTransfermarkt(handle.db, args.dir, options, reporter);
    } catch (err) {
      if (err instanceof RowParseError) throw new UpdateError(err.message);
      throw err;
    }
  };
  let status: UpdateReport['status'];
  if (args.dryRun) {
    status = (await importOnce()).status === 'unchanged' ? 'unchanged' : 'checked';
  } else {
    const previous = await savePrevious(resolve(config.TOUCHLINE_DATA_DIR), before, beforeMeta);
    let summary: Awaited<ReturnType<typeof importOnce>> | null = null;
    try {
      await swapIn(ctx, before, beforeMeta, async () => (summary = await importOnce()));
    } catch (err) {
      previous.discard();
      throw err;
    }
    status = summary!.status === 'unchanged' ? 'unchanged' : 'updated';
    // The same data again keeps the previous data what it was, so a rollback still goes back one update.
    if (status === 'updated') previous.keep();
    else previous.discard();
  }
  const afterMeta = await readMeta(handle.db);
  const report: UpdateReport = {
    status, source: args.source,
    data_as_of: { before: asOfOf(config, beforeMeta), after: args.dryRun ? null : asOfOf(config, afterMeta) },
    ...compareWorlds(before, after ?? before),
    duration_ms: Date.now() - started,
  };
  return finish(config, report, !args.dryRun);
}

/** Swaps back the world served before the last update (the current one becomes the previous). */
export async function runRollback(ctx: OperationContext): Promise<UpdateReport> {
  const started = Date.now();
  const { handle, config } = ctx;
  const dataDir = resolve(config.TOUCHLINE_DATA_DIR);
  const prev = await loadPrevious(dataDir);
  if (!prev) throw new UpdateError(`nothing to roll back to: no previous data in ${dataDir} (run touchline data update first)`);
  const beforeMeta = await readMeta(handle.db);
  const before = await loadWorld(handle.db);
  const previous = await savePrevious(dataDir, before, beforeMeta);
  await swapIn(ctx, before, beforeMeta, () => restore(handle, prev.world, prev.meta)).catch((err: unknown) => {
    previous.discard();
    throw err;
  });
  previous.keep();
  const report: UpdateReport = {
    status: 'rolled_back', source: 'previous data',
    data_as_of: { before: asOfOf(config, beforeMeta), after: asOfOf(config, await readMeta(handle.db)) },
    ...compareWorlds(before, prev.world),
    duration_ms: Date.now() - started,
  };
  return finish(config, report, true);
}
