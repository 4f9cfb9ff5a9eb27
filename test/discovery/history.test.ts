import assert from 'node:assert/strict';
import { test } from 'node:test';
import { valueHistory } from '../../src/discovery/history.js';
import { buildSnapshot } from '../../src/domain/snapshot.js';
import { AS_OF, playerId, tinyWorld } from './tiny-world.js';

test('value history: values and ratings oldest first, nothing after the as-of date', () => {
  const world = tinyWorld([{ name: 'Erling Haaland', club: 'B1', value: 180e6 }]);
  const id = playerId('Erling Haaland');
  world.ratings.push(
    ...[2023, 2025, 2024, 2026].map((season) => ({ player_id: id, season, rating: 80 + season - 2023, potential: 90, best_role: 'POACHER', position: 'ST', source: 'model' })),
  );
  assert.ok(world.market_values.some((v) => v.player_id === id && v.date > AS_OF), 'the world holds a later value');
  const h = valueHistory(buildSnapshot(world, AS_OF, 'tiny', 'v1'), id);
  assert.deepEqual(h.marketValues.map((v) => [v.date, v.value_eur]), [['2025-01-01', 1_000_000], ['2026-01-01', 180e6]]);
  // 2026 is the 2026/2027 season, after the as-of date's 2025/2026.
  assert.deepEqual(h.ratings.map((r) => r.season), [2023, 2024, 2025]);
});
