import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Command } from 'commander';
import { CliError, output, runOperation } from './context.js';
import { ops } from '../admin/catalog.js';
import type { currentRates } from '../data/rates-store.js';
import { EcbCsvError, parseEcbCsv } from '../money/ecb-csv.js';
import type { RateTable } from '../money/rates.js';

/** Reads an ECB CSV (plain or .gz) into a rate table; any problem is a CliError naming the file. */
export function readRatesFile(file: string): RateTable {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    throw new CliError(`Cannot read ${file}: ${(err as Error).message}`);
  }
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) {
    // The ECB serves eurofxref.zip; unpacking zip would need another package.
    throw new CliError(`${file} is a zip archive: unzip it first and import the eurofxref.csv (or eurofxref-hist.csv) inside`);
  }
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes);
    } catch (err) {
      throw new CliError(`Cannot decompress ${file}: ${(err as Error).message}`);
    }
  }
  try {
    return parseEcbCsv(bytes.toString('utf8'));
  } catch (err) {
    if (err instanceof EcbCsvError) throw new CliError(`Cannot import rates from ${file}: ${err.message}`);
    throw err;
  }
}

export function registerRatesCommands(program: Command): void {
  const rates = program.command('rates').description('exchange rates (ECB euro foreign exchange reference rates) used for the currency of money outputs');

  rates
    .command('import')
    .description('replace the stored rates with the newest day of an ECB reference-rate CSV (eurofxref.csv or eurofxref-hist.csv, also .gz)')
    .argument('<file>', 'path of the CSV file')
    .option('--json', 'print JSON')
    .action(async (file: string, opts: { json?: boolean }) => {
      const table = readRatesFile(file); // before opening the database, so a bad file costs nothing
      await runOperation(ops.ratesImport({ table }));
      const codes = Object.keys(table.rates);
      output(
        Boolean(opts.json),
        { date: table.date, source: table.source, currencies: codes.length, codes },
        `Imported ${codes.length} exchange rates of ${table.date} (${table.source}); EUR is 1.`,
      );
    });

  rates
    .command('show')
    .description('print the rate table in use: the imported one, or the default shipped with the service')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const current = (await runOperation(ops.ratesShow({}))) as Awaited<ReturnType<typeof currentRates>>;
      const { table, origin, importedAt } = current;
      const lines = [
        `${table.date} ${table.source} (${origin === 'database' ? `imported ${importedAt}` : 'default shipped with the service'})`,
        'EUR 1 (per 1 EUR)',
        ...Object.entries(table.rates).map(([code, rate]) => `${code} ${rate}`),
      ];
      output(
        Boolean(opts.json),
        { date: table.date, source: table.source, origin, imported_at: importedAt, currencies: Object.keys(table.rates).length, rates: table.rates },
        lines.join('\n'),
      );
    });
}
