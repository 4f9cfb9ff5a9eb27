import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { SimilarItem } from '../../src/discovery/similar-index.js';
import { playerFacts } from '../../src/domain/player-facts.js';
import { POSITION_GROUP, type PositionCode } from '../../src/domain/positions.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const json = (res: { body: string }) => JSON.parse(res.body);
let t: TestApp;

type Similar = SimilarItem;

/** The best-valued players at a club in the demo world (who have a crowd value and a rating). */
function wellKnown(n: number): string[] {
  const s = t.runtime.world.current();
  return [...s.players.values()]
    .filter((p) => playerFacts(s, p).inWorldNow && playerFacts(s, p).latestRating !== null)
    .map((p) => ({ id: p.id, v: s.values.get(p.id)?.at(-1)?.value_eur ?? 0 }))
    .sort((a, b) => b.v - a.v || (a.id < b.id ? -1 : 1))
    .slice(0, n)
    .map((p) => p.id);
}

before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t?.close();
});

describe('GET /v1/similar_players, happy paths', () => {
  test('the shape, most similar first, never himself nor a player twice', async () => {
    for (const id of wellKnown(5)) {
      const res = await t.get(`/v1/similar_players?player_id=${id}`);
      assert.equal(res.statusCode, 200, res.body);
      const body = json(res);
      assert.equal(body.player_id, id);
      assert.equal(body.currency, 'EUR');
      const players: Similar[] = body.players;
      assert.equal(players.length, 10, 'default limit');
      assert.ok(players.every((p) => p.service_id !== id), 'never himself');
      assert.equal(new Set(players.map((p) => p.service_id)).size, players.length, 'no duplicates');
      for (let k = 1; k < players.length; k++) assert.ok(players[k - 1].similarity >= players[k].similarity, 'most similar first');
      for (const p of players) {
        assert.ok(p.similarity > 0 && p.similarity <= 1);
        assert.equal(Math.round(p.similarity * 1000) / 1000, p.similarity, 'three decimals');
        assert.ok(Array.isArray(p.shared_traits) && p.shared_traits.length <= 3);
        assert.ok(p.shared_traits.every((x) => typeof x === 'string' && x.length > 0 && x.length <= 40));
        assert.deepEqual(Object.keys(p).sort(), [
          'age', 'club_id', 'club_name', 'expected_transfer_value', 'expected_transfer_value_in_eur', 'market_value_in_eur', 'name',
          'player_role', 'position', 'service_id', 'shared_traits', 'similarity',
        ]);
      }
    }
  });

  test('a like-for-like replacement: the top five share his position group and his level', async () => {
    const s = t.runtime.world.current();
    let same = 0;
    let sameLevel = 0;
    let total = 0;
    for (const id of wellKnown(10)) {
      const me = playerFacts(s, s.players.get(id)!);
      const players: Similar[] = json(await t.get(`/v1/similar_players?player_id=${id}&limit=5`)).players;
      for (const p of players) {
        const f = playerFacts(s, s.players.get(p.service_id)!);
        total++;
        if (POSITION_GROUP[p.position as PositionCode] === POSITION_GROUP[me.position as PositionCode]) same++;
        if (Math.abs((f.latestRating?.rating ?? 0) - (me.latestRating?.rating ?? 0)) <= 6) sameLevel++;
      }
    }
    assert.equal(same, total, 'every one plays in his position group');
    assert.ok(sameLevel >= 0.8 * total, `${sameLevel} of ${total} at his level`);
  });

  test('filters hold: position, max_age, max_expected_transfer_value, competition_id, limit; currency converts', async () => {
    const s = t.runtime.world.current();
    const [id] = wellKnown(1);
    const league = [...s.clubsOfLeague.keys()].sort()[0];
    const members = new Set(s.clubsOfLeague.get(league));
    const res = await t.get(`/v1/similar_players?player_id=${id}&position=CB,LB&max_age=24&max_expected_transfer_value=30000000&competition_id=${league}&limit=7`);
    assert.equal(res.statusCode, 200, res.body);
    const players: Similar[] = json(res).players;
    assert.ok(players.length > 0 && players.length <= 7);
    for (const p of players) {
      assert.ok(['CB', 'LB'].includes(p.position));
      assert.ok(p.age !== null && p.age <= 24);
      assert.ok(p.expected_transfer_value_in_eur !== null && p.expected_transfer_value_in_eur <= 30_000_000);
      assert.ok(members.has(p.club_id!));
    }
    const gbp = json(await t.get(`/v1/similar_players?player_id=${id}&currency=gbp&limit=3`));
    assert.equal(gbp.currency, 'GBP');
    const eur = json(await t.get(`/v1/similar_players?player_id=${id}&limit=3`));
    assert.deepEqual(gbp.players.map((p: Similar) => p.service_id), eur.players.map((p: Similar) => p.service_id));
    for (const p of gbp.players as Similar[]) if (p.expected_transfer_value_in_eur) assert.notEqual(p.expected_transfer_value, p.expected_transfer_value_in_eur);
  });

  test('the same request gives the same answer', async () => {
    const [id] = wellKnown(1);
    const a = await t.get(`/v1/similar_players?player_id=${id}&limit=20`);
    const b = await t.get(`/v1/similar_players?player_id=${id}&limit=20`);
    assert.equal(a.body, b.body);
  });
});
