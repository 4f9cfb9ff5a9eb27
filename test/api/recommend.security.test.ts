import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { playerFacts } from '../../src/domain/player-facts.js';
import { POSITION, eligible, first, league, limited, recommend, s, startRecommendApp, t } from './recommend.fixture.js';

// A plan's coverage bounds the candidates.
before(startRecommendApp);
after(async () => {
  await t?.close();
});

describe('POST /v1/recommend_signings', () => {
  test('coverage: a one-league plan never gets players from elsewhere', async () => {
    const b = await recommend({ limit: 25 }, limited);
    const leagueOf = (id: string | null) => (id === null ? undefined : s.leagueOfClub.get(id));
    const expected = eligible(POSITION, (f) => leagueOf(f.currentTeamId) === league || leagueOf(f.owningClubId) === league);
    assert.equal(b.candidates_considered, expected.length);
    assert.ok(b.candidates.length > 0);
    for (const c of b.candidates) {
      const f = playerFacts(s, s.players.get(c.player_id)!);
      assert.ok(leagueOf(f.currentTeamId) === league || leagueOf(f.owningClubId) === league, c.player_id);
    }
    assert.ok(b.candidates_considered < first.candidates_considered);
  });
});
