import type { ColumnType } from 'kysely';
import type { Db } from './db.js';
import { createRateTable, defaultRateTable, type RateTable } from '../money/rates.js';

/** Row of `exchange_rates` (migration 003); kept here so schema.ts need not know money. */
interface ExchangeRatesTable {
  code: string;
  rate_date: string;
  per_eur: number;
  source: string;
  imported_at: ColumnType<string, string | undefined, never>;
}

/** A rate table read back from the database, with the time it was imported. */
export interface StoredRateTable extends RateTable {
  readonly importedAt: string;
}

function ratesDb(db: Db) {
  return db.withTables<{ exchange_rates: ExchangeRatesTable }>();
}

/** Replaces the stored rate set with `table` in one transaction. */
export async function saveRates(db: Db, table: RateTable): Promise<void> {
  // Validate before deleting anything: a bad table must leave the stored one in place.
  const checked = createRateTable({ date: table.date, source: table.source, rates: { ...table.rates } });
  const rows = Object.entries(checked.rates).map(([code, per_eur]) => ({ code, per_eur, rate_date: checked.date, source: checked.source }));
  await ratesDb(db)
    .transaction()
    .execute(async (trx) => {
      await trx.deleteFrom('exchange_rates').execute();
      await trx.insertInto('exchange_rates').values(rows).execute();
    });
}

/** The stored rate set, or null when none was imported. */
export async function loadRates(db: Db): Promise<StoredRateTable | null> {
  const rows = await ratesDb(db).selectFrom('exchange_rates').selectAll().orderBy('code').execute();
  if (rows.length === 0) return null;
  const first = rows[0];
  const mixed = rows.find((r) => r.rate_date !== first.rate_date || r.source !== first.source);
  // saveRates writes one set atomically, so two dates mean someone wrote the table by hand.
  if (mixed) throw new Error(`exchange_rates mixes ${first.rate_date} (${first.source}) with ${mixed.rate_date} (${mixed.source})`);
  const table = createRateTable({ date: first.rate_date, source: first.source, rates: Object.fromEntries(rows.map((r) => [r.code, Number(r.per_eur)])) });
  return Object.freeze({ ...table, importedAt: first.imported_at });
}

/** The table the service converts with: the stored one when present, else the shipped default. */
export async function currentRates(db: Db): Promise<{ table: RateTable; origin: 'database' | 'default'; importedAt: string | null }> {
  const stored = await loadRates(db);
  if (stored) return { table: stored, origin: 'database', importedAt: stored.importedAt };
  return { table: defaultRateTable(), origin: 'default', importedAt: null };
}
