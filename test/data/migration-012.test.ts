import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { migrateTo, migrateToLatest, openDatabase } from '../../src/data/db.js';
import { createShortlistStore } from '../../src/data/shortlist-store.js';

describe('migration 012', () => {
  test('moves round 3\'s shortlists into each account\'s list named Shortlist, in order, notes kept', async () => {
    const h = await openDatabase({});
    try {
      await migrateTo(h.db, '011_staging_copy');
      await sql`insert into accounts (email, status) values ('a@x.example', 'active'), ('b@x.example', 'active')`.execute(h.db);
      const ids = (await sql<{ id: number; email: string }>`select id, email from accounts order by email`.execute(h.db)).rows;
      const [a, b] = ids.map((r) => r.id);
      await sql`insert into shortlist_entries (account_id, player_id, note, added_at) values
        (${a}, 'P1', 'first', '2026-01-01T00:00:00Z'), (${a}, 'P2', null, '2026-01-01T00:00:00Z'), (${b}, 'P3', 'theirs', '2026-02-01T00:00:00Z')`.execute(h.db);
      await migrateToLatest(h.db);
      const lists = (await sql<{ account_id: number; name: string; kind: string }>`select account_id, name, kind from lists order by account_id`.execute(h.db)).rows;
      assert.deepEqual(lists, [{ account_id: a, name: 'Shortlist', kind: 'shortlist' }, { account_id: b, name: 'Shortlist', kind: 'shortlist' }]);
      const store = createShortlistStore(h.db);
      // Newest first, ties of one instant in the order they were added, as before.
      assert.deepEqual((await store.list(a)).map((e) => [e.playerId, e.note, e.addedAt]), [
        ['P2', null, '2026-01-01T00:00:00.000Z'],
        ['P1', 'first', '2026-01-01T00:00:00.000Z'],
      ]);
      assert.deepEqual((await store.list(b)).map((e) => [e.playerId, e.note]), [['P3', 'theirs']]);
      const notes = (await sql<{ author: string; text: string }>`select author, text from entry_notes order by id`.execute(h.db)).rows;
      assert.deepEqual(notes, [{ author: 'a@x.example', text: 'first' }, { author: 'b@x.example', text: 'theirs' }]);
      // The old table is a read-only view now, its answers those of the lists.
      assert.deepEqual((await sql<{ table_type: string }>`select table_type from information_schema.tables where table_name = 'shortlist_entries'`.execute(h.db)).rows, [{ table_type: 'VIEW' }]);
      await store.add(b, 'P4', 'new note');
      const viewed = (await sql<{ player_id: string; note: string | null }>`select player_id, note from shortlist_entries where account_id = ${b} order by seq`.execute(h.db)).rows;
      assert.deepEqual(viewed, [{ player_id: 'P3', note: 'theirs' }, { player_id: 'P4', note: 'new note' }]);
    } finally {
      await h.close();
    }
  });
});
