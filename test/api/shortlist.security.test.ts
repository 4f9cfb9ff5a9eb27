import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PATH, del, freshKey, json, limited, otherKey, outside, players, startShortlistApp, t } from './shortlist.fixture.js';

before(startShortlistApp);
after(async () => {
  await t?.close();
});

describe('/v1/shortlist security', () => {
  test('no key, a wrong key: 401 on every method', async () => {
    for (const key of [null, 'tl_wrong']) {
      assert.equal((await t.get(PATH, key)).statusCode, 401);
      assert.equal((await t.post(PATH, { player_id: players[0] }, key)).statusCode, 401);
      const res = await t.app.inject({ method: 'DELETE', url: `${PATH}?player_id=${players[0]}`, headers: key ? { 'x-api-key': key } : {} });
      assert.equal(res.statusCode, 401);
    }
  });

  test('one account cannot see or remove another\'s players', async () => {
    const key = await freshKey();
    await t.post(PATH, { player_id: players[1], note: 'secret' }, key);
    assert.deepEqual(json(await t.get(PATH, otherKey)).players, []);
    const res = await del(players[1], otherKey);
    assert.equal(res.statusCode, 404);
    assert.equal(json(await t.get(PATH, key)).players[0].note, 'secret');
  });

  test('a player outside the plan cannot be added: 403', async () => {
    assert.ok(outside, 'a player outside the one-league plan');
    const res = await t.post(PATH, { player_id: outside }, limited);
    assert.equal(res.statusCode, 403);
    assert.equal(json(res).error, 'Player is not in the allowed leagues');
  });

  test('a note is stored as given and returned as JSON text, never interpreted', async () => {
    const key = await freshKey();
    const note = '<script>alert(1)</script>\'; drop table shortlist_entries; --';
    await t.post(PATH, { player_id: players[2], note }, key);
    const res = await t.get(PATH, key);
    assert.match(String(res.headers['content-type']), /application\/json/);
    assert.equal(json(res).players[0].note, note);
  });
});
