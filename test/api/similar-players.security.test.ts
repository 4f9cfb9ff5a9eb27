import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createAccount } from '../../src/access/accounts.js';
import { createKey } from '../../src/access/keys.js';
import { createPlan } from '../../src/access/plans.js';
import { playerFacts } from '../../src/domain/player-facts.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const json = (res: { body: string }) => JSON.parse(res.body);
let t: TestApp;
let limited: string;
let covered: string;
let other: string;
/** A player of each league, at a club there (and not on loan from elsewhere). */
let inside: string;
let outside: string;

before(async () => {
  t = await startTestApp();
  const s = t.runtime.world.current();
  [covered, other] = [...s.clubsOfLeague.keys()].sort();
  const of = (league: string) => [...s.players.values()].find((p) => {
    const f = playerFacts(s, p);
    return f.inWorldNow && s.leagueOfClub.get(f.currentTeamId!) === league && f.owningClubId === f.currentTeamId;
  })!.id;
  inside = of(covered);
  outside = of(other);
  await createPlan(t.handle.db, { name: 'similar-one-league', competitions: [covered] });
  await createAccount(t.handle.db, { email: 'similar@club.example', plan: 'similar-one-league' });
  limited = (await createKey(t.handle.db, { email: 'similar@club.example' })).api_key;
  await (t.runtime.deps.authenticator as unknown as { tick(): Promise<void> }).tick();
});
after(async () => {
  await t?.close();
});

describe('GET /v1/similar_players, access and coverage', () => {
  test('a key is needed', async () => {
    const res = await t.get(`/v1/similar_players?player_id=${inside}`, null);
    assert.equal(res.statusCode, 401);
    assert.deepEqual(json(res), { error: 'Missing API key' });
  });

  test('a one-league plan lists only covered players, and never another league\'s', async () => {
    const s = t.runtime.world.current();
    const res = await t.get(`/v1/similar_players?player_id=${inside}&limit=50`, limited);
    assert.equal(res.statusCode, 200, res.body);
    const players = json(res).players as { service_id: string }[];
    assert.ok(players.length > 0);
    for (const p of players) {
      const f = playerFacts(s, s.players.get(p.service_id)!);
      const leagues = [f.currentTeamId, f.owningClubId].map((c) => (c === null ? undefined : s.leagueOfClub.get(c)));
      assert.ok(leagues.includes(covered), p.service_id);
    }
  });

  test('the player asked must be covered; a competition outside the plan is 403; 404 before 403', async () => {
    const cases: Array<[string, number, string]> = [
      [`player_id=${outside}`, 403, 'Player is not in the allowed leagues'],
      [`player_id=${inside}&competition_id=${other}`, 403, 'Requested competition is not allowed'],
      [`player_id=${outside}&competition_id=NO_SUCH_LEAGUE`, 404, 'Competition not found'],
      [`player_id=${outside}&competition_id=${other}`, 403, 'Player is not in the allowed leagues'],
    ];
    for (const [query, status, error] of cases) {
      const res = await t.get(`/v1/similar_players?${query}`, limited);
      assert.equal(res.statusCode, status, query);
      assert.deepEqual(json(res), { error }, query);
    }
  });
});
