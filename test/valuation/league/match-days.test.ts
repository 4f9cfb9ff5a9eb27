import { test } from 'node:test';
import assert from 'node:assert/strict';
import { squadStrength, type SquadPlayer } from '../../../src/valuation/league/squad.js';
import { squadStrengthWith } from '../../../src/valuation/league/match-days.js';
import { POSITION_CODES } from '../../../src/domain/positions.js';
import { createRng } from '../../../src/domain/random.js';

test('a squad plus one player on the kept match days: squadStrength of the whole squad (to the last bits)', () => {
  const rng = createRng(4);
  let solvedAgain = 0;
  for (let t = 0; t < 12; t++) {
    const size = 14 + rng.int(0, 14);
    const squad: SquadPlayer[] = Array.from({ length: size }, (_, i) => ({
      playerId: `p${t}-${i}`,
      position: i < 2 ? 'GK' : POSITION_CODES[rng.int(1, POSITION_CODES.length - 1)],
      rating: Math.round(55 + 25 * rng.uniform()),
    }));
    // from a reserve who never starts to a star who always does, at every position
    for (const rating of [45, 65, 75, 88]) {
      const position = POSITION_CODES[rng.int(0, POSITION_CODES.length - 1)];
      const player: SquadPlayer = { playerId: `new-${t}-${rating}`, position, rating };
      const settings = { shareDraws: 120, seed: 1 + t };
      const full = squadStrength([...squad, player], settings);
      const kept = squadStrengthWith(squad, player, settings);
      // the day's total is summed slot by slot: where two assignments are equally good (two players
      // of one value swapping like slots), the solver's path picks one, and the sum's order can move
      // its last bits; everything else is exact
      assert.ok(Math.abs(kept.matchDayXiRating - full.matchDayXiRating) < 1e-12);
      assert.deepEqual({ ...kept, matchDayXiRating: 0 }, { ...full, matchDayXiRating: 0 });
      if ((full.startShares[player.playerId] ?? 0) > 0) solvedAgain++;
    }
  }
  assert.ok(solvedAgain > 5, 'some candidates start, so their days were solved again');
});
