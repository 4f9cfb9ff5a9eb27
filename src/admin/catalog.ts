import { DEFAULT_AS_OF } from '../config.js';
import type { ImportOptions } from '../data/import/transfermarkt.js';
import type { RateTable } from '../money/rates.js';
import { defineOperation } from '../operation.js';

/**
 * The data and model operations (src/operations.ts lists them with access's and the leagues'). Each
 * loads what it runs when it runs: every CLI command lists them, and the demo generator, the import,
 * training and the data update are about half a second of loading a command that runs none of them
 * does not pay.
 */
export const ops = {
  demo: defineOperation('demo', async ({ handle, config, progress }, args: { seed: number }) => {
    const [{ generateDemoWorld }, { WORLD_TABLE_ORDER }, { replaceWorld }, { ensureModels }] = await Promise.all([
      import('../data/demo/index.js'), import('../domain/world.js'), import('../data/world-store.js'), import('../models/train.js'),
    ]);
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
    const [{ barReporter, lineReporter }, { importTransfermarkt }, { ensureModels }] = await Promise.all([
      import('../data/import/reporter.js'), import('../data/import/transfermarkt.js'), import('../models/train.js'),
    ]);
    const reporter = terminal ? barReporter(terminal) : lineReporter({ write: (s: string) => progress(s.trimEnd()) });
    // Who is in a current squad depends on the as-of date's season.
    const summary = await importTransfermarkt(handle.db, args.dir, { asOf: config.TOUCHLINE_AS_OF, ...args.options }, reporter);
    // New data is served with models trained on it: rated from an existing artifact, or trained now.
    const models = summary.status === 'imported' ? await ensureModels(handle, config, progress) : null;
    return { ...summary, models };
  }),
  dataUpdate: defineOperation('data.update', async (ctx, args: { dir: string; source: string; dryRun?: boolean }) => (await import('./data-update.js')).runUpdate(ctx, args)),
  dataRollback: defineOperation('data.rollback', async (ctx, _args: Record<string, never>) => (await import('./data-update.js')).runRollback(ctx)),
  train: defineOperation('train', async ({ handle, config, progress }, _args: Record<string, never>) => (await import('../models/train.js')).trainModels(handle, config, progress)),
  ratesImport: defineOperation('rates.import', async ({ handle }, args: { table: RateTable }) => {
    const [{ saveRates }, { setMeta }] = await Promise.all([import('../data/rates-store.js'), import('../data/world-store.js')]);
    await saveRates(handle.db, args.table);
    await setMeta(handle.db, { rates_version: `${args.table.date}@${Date.now()}` });
    return { date: args.table.date, source: args.table.source, currencies: Object.keys(args.table.rates).length, codes: Object.keys(args.table.rates) };
  }),
  ratesShow: defineOperation('rates.show', async ({ handle }, _args: Record<string, never>) => (await import('../data/rates-store.js')).currentRates(handle.db)),
};
