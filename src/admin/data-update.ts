import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { servedAsOf, type Config } from '../config.js';
import { barReporter, lineReporter } from '../data/import/reporter.js';
import { EA_INPUTS, importTransfermarkt, RowParseError, type ImportOptions } from '../data/import/transfermarkt.js';
import { checkLayout } from '../data/update/check.js';
import { loadPrevious, savePrevious } from '../data/update/previous.js';
import { createStaging, dropStaging, swapInStaging } from '../data/staging.js';
import { compareWorlds, reportSummary, type UpdateReport } from '../data/update/report.js';
import { enqueueEvent } from '../data/webhook-store.js';
import { UpdateError } from '../data/update/source.js';
import { loadWorld, readMeta, replaceWorld } from '../data/world-store.js';
import type { WorldData } from '../domain/world.js';
import { ensureModels } from '../models/train.js';
import type { OperationContext } from '../operation.js';

/** Rows that do not parse fail an update; rows that point at what the data lacks are skipped as in an import. */
const PARSE_REASONS = ['column_count', 'malformed_csv', 'bad_number', 'bad_date'] as const;

export const reportFile = (config: Config): string => join(resolve(config.TOUCHLINE_DATA_DIR), 'update-report.json');

/**
 * Runs `work` on a fresh staging copy (data/staging.ts), dropped afterwards whatever happens. The
 * work fills it, trains on it and swaps it in (`trainAndSwap`); every server answers from the live
 * world until the swap commits. A failure or a killed process before that leaves the live world as
 * it was; a staging copy a kill left behind is dropped by the next update.
 */
async function staged<T>(ctx: OperationContext, work: () => Promise<T>): Promise<T> {
  await createStaging(ctx.handle.db);
  try {
    return await work();
  } finally {
    await dropStaging(ctx.handle.db).catch(() => {});
  }
}

/**
 * Trains the models on the staging copy (or rates it from an artifact already trained on it), keeps
 * the world served now for a rollback, and swaps the copy in: each server's next version check (2 s)
 * reads the new world and its models at once.
 */
async function trainAndSwap(ctx: OperationContext, before: WorldData, beforeMeta: Record<string, string>): Promise<void> {
  const { handle, config, progress } = ctx;
  progress('training the models on the new data (the old data is served meanwhile)');
  await ensureModels(handle, config, progress, undefined, 'staging');
  const previous = await savePrevious(resolve(config.TOUCHLINE_DATA_DIR), before, beforeMeta);
  progress('swapping the new data in (one transaction)');
  try {
    await swapInStaging(handle.db);
  } catch (err) {
    previous.discard();
    throw err;
  }
  previous.keep();
}

const asOfOf = (config: Config, meta: Record<string, string>) => servedAsOf(config, meta);

/**
 * Writes the report; after a swap, also the `data.updated` event for the webhooks, stored with the
 * data version it announces (each server sends it once it serves that version).
 */
async function finish(ctx: OperationContext, report: UpdateReport, write: boolean, meta: Record<string, string>): Promise<UpdateReport> {
  if (write) writeFileSync(reportFile(ctx.config), `${JSON.stringify(report, null, 2)}\n`);
  if (report.status === 'updated' || report.status === 'rolled_back') {
    const dataVersion = meta.data_version ?? 'empty';
    await enqueueEvent(ctx.handle.db, { type: 'data.updated', data: reportSummary(report, dataVersion), dataVersion });
  }
  return report;
}

/**
 * The EA calibration files the served data was imported with (`import transfermarkt --ea-ratings
 * --ea-mapping`), read again: the open dataset has no EA files, and without them an update would drop
 * every EA rating and attribute profile (ratings, similar players). A file gone is said, not fatal.
 */
function eaInputs(meta: Record<string, string>, progress: (line: string) => void): Pick<ImportOptions, 'eaRatings' | 'eaMapping'> {
  const inputs: Pick<ImportOptions, 'eaRatings' | 'eaMapping'> = {};
  for (const { option, metaKey, label } of EA_INPUTS) {
    const file = meta[metaKey];
    if (file === undefined) continue;
    if (existsSync(file)) {
      inputs[option] = file;
      progress(`${label}: read again from ${file}, as in the last import`);
    } else {
      progress(`${label}: ${file}, read by the last import, is gone; the new data has none`);
    }
  }
  return inputs;
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
    ...eaInputs(beforeMeta, progress),
    // The as-of date decides who is in a current squad; unset, the importer takes the data's own season.
    asOf: config.TOUCHLINE_AS_OF, failOn: PARSE_REASONS, dryRun: args.dryRun, into: 'staging' as const, rejectsPath: join(resolve(config.TOUCHLINE_DATA_DIR), 'update-rejects.csv'),
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
    // The same files again change nothing, and keep the previous data what it was, so a rollback still goes back one update.
    status = await staged(ctx, async () => {
      if ((await importOnce()).status === 'unchanged') return 'unchanged' as const;
      await trainAndSwap(ctx, before, beforeMeta);
      return 'updated' as const;
    });
  }
  const afterMeta = await readMeta(handle.db);
  const report: UpdateReport = {
    status, source: args.source,
    data_as_of: { before: asOfOf(config, beforeMeta), after: args.dryRun ? null : asOfOf(config, afterMeta) },
    ...compareWorlds(before, after ?? before),
    duration_ms: Date.now() - started,
  };
  return finish(ctx, report, !args.dryRun, afterMeta);
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
  await staged(ctx, async () => {
    await replaceWorld(handle.db, prev.world, prev.meta, undefined, 'staging');
    await trainAndSwap(ctx, before, beforeMeta);
  });
  const afterMeta = await readMeta(handle.db);
  const report: UpdateReport = {
    status: 'rolled_back', source: 'previous data',
    data_as_of: { before: asOfOf(config, beforeMeta), after: asOfOf(config, afterMeta) },
    ...compareWorlds(before, prev.world),
    duration_ms: Date.now() - started,
  };
  return finish(ctx, report, true, afterMeta);
}
