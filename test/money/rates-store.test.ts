import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase, migrateToLatest, type DatabaseHandle } from '../../src/data/db.js';
import { currentRates, loadRates, saveRates } from '../../src/data/rates-store.js';
import { createRateTable, defaultRateTable, type RateTable } from '../../src/money/rates.js';

let handle: DatabaseHandle;

before(async () => {
  handle = await openDatabase({});
  const applied = await migrateToLatest(handle.db);
  assert.ok(applied.includes('003_rates'));
});

after(async () => {
  await handle?.close();
});

const plain = (t: RateTable) => ({ date: t.date, source: t.source, rates: { ...t.rates } });

test('an empty store loads as null and the default table is in use', async () => {
  assert.equal(await loadRates(handle.db), null);
  const current = await currentRates(handle.db);
  assert.equal(current.origin, 'default');
  assert.equal(current.importedAt, null);
  assert.deepEqual(plain(current.table), plain(defaultRateTable()));
});

test('a saved table loads back exactly, with its import time', async () => {
  await saveRates(handle.db, defaultRateTable());
  const stored = await loadRates(handle.db);
  assert.ok(stored);
  assert.deepEqual(plain(stored), plain(defaultRateTable()));
  assert.equal(stored.rates.GBP, 0.84638); // double precision keeps the published digits
  assert.equal(stored.rates.IDR, 17487.21);
  assert.match(stored.importedAt, /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}/);
  const current = await currentRates(handle.db);
  assert.equal(current.origin, 'database');
});

test('saving replaces the whole set: codes of the old set do not linger', async () => {
  const next = createRateTable({ date: '2024-07-01', source: 'ECB test import', rates: { USD: 1.0745, JPY: 173.15 } });
  await saveRates(handle.db, next);
  const stored = await loadRates(handle.db);
  assert.deepEqual(plain(stored!), { date: '2024-07-01', source: 'ECB test import', rates: { JPY: 173.15, USD: 1.0745 } });
  const count = await handle.db.withTables<{ exchange_rates: { code: string } }>().selectFrom('exchange_rates').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  assert.equal(Number(count.n), 2);
});

test('a bad table is refused and the stored set stays', async () => {
  const bad = { date: '2024-07-02', source: 'broken', rates: { USD: -1 } } as RateTable;
  await assert.rejects(saveRates(handle.db, bad), /Rate for USD must be a positive number/);
  const stored = await loadRates(handle.db);
  assert.equal(stored?.date, '2024-07-01');
  assert.equal(stored?.rates.USD, 1.0745);
});

test('the table itself refuses a non-positive rate written past saveRates', async () => {
  const db = handle.db.withTables<{ exchange_rates: { code: string; rate_date: string; per_eur: number; source: string } }>();
  await assert.rejects(db.insertInto('exchange_rates').values({ code: 'CHF', rate_date: '2024-07-01', per_eur: 0, source: 'ECB test import' }).execute(), /check constraint/);
  assert.equal(Object.hasOwn((await loadRates(handle.db))!.rates, 'CHF'), false);
});
