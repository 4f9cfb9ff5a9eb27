import { DEFAULT_AS_OF } from '../config.js';
import { generateDemoWorld } from '../data/demo/index.js';
import { barReporter, lineReporter } from '../data/import/reporter.js';
import { importTransfermarkt, type ImportOptions } from '../data/import/transfermarkt.js';
import { currentRates, saveRates } from '../data/rates-store.js';
import { WORLD_TABLE_ORDER } from '../domain/world.js';
import { replaceWorld, setMeta } from '../data/world-store.js';
import type { RateTable } from '../money/rates.js';
import { defineOperation } from '../operation.js';
import { runRollback, runUpdate } from './data-update.js';
import { ensureModels, trainModels } from '../models/train.js';

/** The data and model operations (src/operations.ts lists them with access's and the leagues'). */
export const ops = {
  demo: defineOperation('demo', async ({ handle, config, progress }, args: { seed: number }) => {
    const started = Date.now();
    progress(`generating the demo world (seed ${args.seed})`);
    const asOf = config.TOUCHLINE_AS_OF ?? DEFAULT_AS_OF;
    const world = generateDemoWorld({ seed: args.seed, asOf });
    progress('storing it');
    const version = await replaceWorld(handle.db, world, { source: 'demo', seed: String(args.seed), as_of: asOf });
    const models = await ensureModels(handle, config, progress);
    const rows = Object.fromEntries(WORLD_TABLE_ORDER.map((t) => [t, world[t].length]));
    return { seed: args.seed, as_of: asOf, data_version: version, models, rows, ms: Date.now() - started };
  }),
  importTransfermarkt: defineOperation('import.transfermarkt', async ({ handle, config, progress, terminal }, args: { dir: string; options: ImportOptions }) => {
    const reporter = terminal ? barReporter(terminal) : lineReporter({ write: (s: string) => progress(s.trimEnd()) });
    // Who is in a current squad depends on the as-of date's season.
    const summary = await importTransfermarkt(handle.db, args.dir, { asOf: config.TOUCHLINE_AS_OF, ...args.options }, reporter);
    // New data is served with models trained on it: rated from an existing artifact, or trained now.
    const models = summary.status === 'imported' ? await ensureModels(handle, config, progress) : null;
    return { ...summary, models };
  }),
  dataUpdate: defineOperation('data.update', (ctx, args: { dir: string; source: string; dryRun?: boolean }) => runUpdate(ctx, args)),
  dataRollback: defineOperation('data.rollback', (ctx, _args: Record<string, never>) => runRollback(ctx)),
  train: defineOperation('train', async ({ handle, config, progress }, _args: Record<string, never>) => trainModels(handle, config, progress)),
  ratesImport: defineOperation('rates.import', async ({ handle }, args: { table: RateTable }) => {
    await saveRates(handle.db, args.table);
    await setMeta(handle.db, { rates_version: `${args.table.date}@${Date.now()}` });
    return { date: args.table.date, source: args.table.source, currencies: Object.keys(args.table.rates).length, codes: Object.keys(args.table.rates) };
  }),
  ratesShow: defineOperation('rates.show', async ({ handle }, _args: Record<string, never>) => currentRates(handle.db)),
};
