import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { authorsOf, filterEntries, listCsv, type Entry } from './data';

const entry = (id: string, status: Entry['status'], by: string, notes: [string, string][] = []): Entry => ({
  player_id: id,
  name: `Player ${id}`,
  status,
  added_by: by,
  added_at: '2026-11-28T08:00:00.000Z',
  notes: notes.map(([author, text]) => ({ author, text, at: '2026-11-28T08:01:00.000Z' })),
});

describe('the Lists page\'s pure parts', () => {
  const entries = [entry('A', 'watching', 'ann@x.example'), entry('B', 'offer', 'bob@x.example', [['ann@x.example', 'fast, "left" foot']])];

  test('filters by status and by author (who added him or wrote a note on him)', () => {
    assert.deepEqual(filterEntries(entries, { status: 'offer', author: '' }).map((e) => e.player_id), ['B']);
    assert.deepEqual(filterEntries(entries, { status: '', author: 'ann@x.example' }).map((e) => e.player_id), ['A', 'B']);
    assert.deepEqual(filterEntries(entries, { status: 'watching', author: 'bob@x.example' }), []);
    assert.deepEqual(authorsOf(entries), ['ann@x.example', 'bob@x.example']);
  });

  test('CSV: one row per player, notes with their authors in one quoted cell', () => {
    const lines = listCsv(entries).split('\r\n');
    assert.equal(lines[0], 'name,status,added_by,added_at,notes,player_id');
    assert.equal(lines[2], 'Player B,offer,bob@x.example,2026-11-28T08:00:00.000Z,"ann@x.example: fast, ""left"" foot",B');
    assert.equal(lines.length, 4);
  });
});
