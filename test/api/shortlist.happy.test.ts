import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PATH, del, freshKey, json, players, s, startShortlistApp, t } from './shortlist.fixture.js';

before(startShortlistApp);
after(async () => {
  await t?.close();
});

describe('/v1/shortlist', () => {
  test('empty at first', async () => {
    const key = await freshKey();
    const res = await t.get(PATH, key);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(json(res), { players: [] });
  });

  test('added players come back newest first, with name, note and time', async () => {
    const key = await freshKey();
    const [a, b, c] = players;
    for (const [id, note] of [[a, 'quick'], [b, undefined], [c, 'left foot']] as const) {
      const res = await t.post(PATH, note === undefined ? { player_id: id } : { player_id: id, note }, key);
      assert.equal(res.statusCode, 200, res.body);
      const e = json(res);
      assert.deepEqual(Object.keys(e).sort(), ['added_at', 'name', 'note', 'player_id']);
      assert.equal(e.player_id, id);
      assert.equal(e.name, s.players.get(id)!.name);
      assert.equal(e.note, note ?? null);
      assert.ok(!Number.isNaN(Date.parse(e.added_at)) && e.added_at.endsWith('Z'), e.added_at);
    }
    const list = json(await t.get(PATH, key)).players;
    assert.deepEqual(list.map((e: { player_id: string }) => e.player_id), [c, b, a]);
    assert.deepEqual(list.map((e: { note: string | null }) => e.note), ['left foot', null, 'quick']);
  });

  test('adding again updates the note and keeps the place and the time', async () => {
    const key = await freshKey();
    const [a, b] = players;
    const first = json(await t.post(PATH, { player_id: a, note: 'one' }, key));
    await t.post(PATH, { player_id: b }, key);
    const again = await t.post(PATH, { player_id: a, note: 'two' }, key);
    assert.equal(again.statusCode, 200);
    assert.equal(json(again).note, 'two');
    assert.equal(json(again).added_at, first.added_at);
    const list = json(await t.get(PATH, key)).players;
    assert.deepEqual(list.map((e: { player_id: string }) => e.player_id), [b, a]);
    assert.equal(list[1].note, 'two');
    // No note sent: the old one stays.
    assert.equal(json(await t.post(PATH, { player_id: a }, key)).note, 'two');
    assert.equal(json(await t.post(PATH, { player_id: a, note: '' }, key)).note, '');
  });

  test('DELETE removes him: 204, then he is gone', async () => {
    const key = await freshKey();
    const [a, b] = players;
    await t.post(PATH, { player_id: a }, key);
    await t.post(PATH, { player_id: b }, key);
    const res = await del(a, key);
    assert.equal(res.statusCode, 204);
    assert.equal(res.body, '');
    assert.deepEqual(json(await t.get(PATH, key)).players.map((e: { player_id: string }) => e.player_id), [b]);
  });

  test('the list is the account\'s: every key of it sees it, no other account does', async () => {
    const key = await freshKey();
    await t.post(PATH, { player_id: players[5] }, key);
    assert.equal(json(await t.get(PATH, key)).players.length, 1);
    const other = await freshKey();
    assert.deepEqual(json(await t.get(PATH, other)).players, []);
  });

  test('in the OpenAPI document', async () => {
    const doc = json(await t.get('/v1/openapi.json', null));
    assert.deepEqual(Object.keys(doc.paths[PATH]).sort(), ['delete', 'get', 'post']);
  });
});
