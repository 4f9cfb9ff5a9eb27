import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Command } from 'commander';
import { CliError } from '../../src/cli/context.js';
import { readRatesFile, registerRatesCommands } from '../../src/cli/rates-command.js';

const fixtures = new URL('../fixtures/rates/', import.meta.url).pathname;
let dir: string;
const saved = { dataDir: process.env.TOUCHLINE_DATA_DIR, url: process.env.DATABASE_URL };

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'touchline-rates-'));
  // The commands read the configuration like the real CLI: an embedded database in a scratch folder.
  process.env.TOUCHLINE_DATA_DIR = dir;
  delete process.env.DATABASE_URL;
});

after(() => {
  if (saved.dataDir === undefined) delete process.env.TOUCHLINE_DATA_DIR;
  else process.env.TOUCHLINE_DATA_DIR = saved.dataDir;
  if (saved.url !== undefined) process.env.DATABASE_URL = saved.url;
  // PGlite still touches its folder shortly after close(); remove it once the process is idle.
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
});

/** Runs `touchline <args>` in process and returns what it printed. */
async function run(...args: string[]): Promise<string> {
  const program = new Command().exitOverride();
  registerRatesCommands(program);
  let out = '';
  const write = process.stdout.write;
  // Only our text is kept: the test runner reports through the same stream in binary chunks.
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    if (typeof chunk !== 'string') return write.call(process.stdout, chunk, ...rest);
    out += chunk;
    return true;
  }) as typeof process.stdout.write;
  try {
    await program.parseAsync(['node', 'touchline', ...args]);
  } finally {
    process.stdout.write = write;
  }
  return out;
}

test('readRatesFile reads plain and gzipped CSV', () => {
  assert.equal(readRatesFile(join(fixtures, 'eurofxref-daily.csv')).date, '2024-07-01');
  const gz = join(dir, 'hist.csv.gz');
  writeFileSync(gz, gzipSync(readFileSync(join(fixtures, 'eurofxref-hist.csv'))));
  assert.equal(readRatesFile(gz).date, '2024-07-03');
});

test('readRatesFile turns every bad file into a CliError naming it', () => {
  const zip = join(dir, 'eurofxref.zip');
  writeFileSync(zip, Buffer.from('PK\u0003\u0004rest-of-archive'));
  const cases: Array<[string, RegExp]> = [
    [join(fixtures, 'not-rates.csv'), /^Cannot import rates from .*not-rates\.csv: Not an ECB reference-rate CSV/],
    [join(dir, 'missing.csv'), /^Cannot read .*missing\.csv: ENOENT/],
    [zip, /eurofxref\.zip is a zip archive: unzip it first/],
  ];
  for (const [file, reason] of cases) {
    assert.throws(() => readRatesFile(file), (err: unknown) => err instanceof CliError && reason.test(err.message), file);
  }
});

test('rates import of a bad file fails before touching the database', async () => {
  await assert.rejects(run('rates', 'import', join(fixtures, 'not-rates.csv')), CliError);
});

test('rates import then show: the imported table is the one in use', async () => {
  const human = await run('rates', 'import', join(fixtures, 'eurofxref-daily.csv'));
  assert.equal(human, 'Imported 30 exchange rates of 2024-07-01 (European Central Bank euro foreign exchange reference rates); EUR is 1.\n');

  const imported = JSON.parse(await run('rates', 'import', join(fixtures, 'eurofxref-hist.csv'), '--json'));
  assert.deepEqual(imported, {
    date: '2024-07-03',
    source: 'European Central Bank euro foreign exchange reference rates',
    currencies: 6,
    codes: ['BGN', 'CZK', 'GBP', 'JPY', 'TRY', 'USD'],
  });

  const shown = JSON.parse(await run('rates', 'show', '--json'));
  assert.equal(shown.origin, 'database');
  assert.equal(shown.date, '2024-07-03');
  assert.equal(typeof shown.imported_at, 'string');
  assert.deepEqual(shown.rates, { BGN: 1.9558, CZK: 25.194, GBP: 0.8468, JPY: 174.18, TRY: 35.0501, USD: 1.0758 });
});
