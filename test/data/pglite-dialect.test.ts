import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/data/db.js';

let h: DatabaseHandle;
before(async () => {
  h = await openDatabase({});
  await migrateToLatest(h.db);
});
after(async () => {
  await h?.close();
});

test('a query made while a transaction is open waits for it and does not join it', async () => {
  let release!: () => void;
  const hold = new Promise<void>((r) => (release = r));
  const trx = h.db.transaction().execute(async (tx) => {
    await tx.insertInto('meta').values({ key: 'in_trx', value: '1' }).execute();
    await hold;
    throw new Error('roll back');
  });
  // Issued while the transaction is open: must not be rolled back with it.
  const outside = h.db.insertInto('meta').values({ key: 'outside', value: '1' }).execute();
  await new Promise((r) => setTimeout(r, 50));
  release();
  await assert.rejects(trx, /roll back/);
  await outside;
  const keys = (await h.db.selectFrom('meta').select('key').execute()).map((r) => r.key);
  assert.ok(keys.includes('outside'));
  assert.ok(!keys.includes('in_trx'));
});

test('update reports affected rows', async () => {
  await h.db.insertInto('meta').values({ key: 'k', value: 'a' }).execute();
  const r = await h.db.updateTable('meta').set({ value: 'b' }).where('key', '=', 'k').executeTakeFirst();
  assert.equal(r.numUpdatedRows, 1n);
  const n = await sql<{ n: number }>`select count(*)::int as n from meta`.execute(h.db);
  assert.ok(n.rows[0].n >= 2);
});
