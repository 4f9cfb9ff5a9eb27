import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../../src/data/db.js';
import { importTransfermarkt } from '../../../src/data/import/transfermarkt.js';
import { buildSnapshot } from '../../../src/domain/snapshot.js';
import type { WorldData } from '../../../src/domain/world.js';
import { featureIndex, minutesShareAt, playingSharesIn } from '../../../src/valuation/features/index.js';
import { feeFeatures, FEE_FEATURES } from '../../../src/valuation/fee/index.js';
import { ratingFeatures, RATING_FEATURES } from '../../../src/valuation/rating/index.js';
import { updateFeatures, UPDATE_FEATURES } from '../../../src/valuation/rating/update.js';
import { FIXTURE } from '../../helpers/update-fixture.js';

// Minutes and starts as the models read them, from the dataset's own appearances.csv and
// game_lineups.csv (the importer's fixture): real shares where the data has them, missing (NaN)
// where it has not, never a zero standing in for "unknown".

/** The import's as-of date (the fixture's season 2023/24 current). */
const AS_OF = '2024-06-30';
/** A date after the 2023/24 season, where the features are read: the fee reads the season before it, the rating update the anchor's season once over. */
const AFTER_SEASON = '2024-07-15';

let handle: DatabaseHandle;
const work = mkdtempSync(join(tmpdir(), 'touchline-shares-'));
before(async () => {
  handle = await openDatabase({});
  await migrateToLatest(handle.db);
});
after(async () => {
  await handle.close();
  rmSync(work, { recursive: true, force: true });
});

/** The fixture's world as the importer reads it, without the tables named (a dry run: nothing stored). */
async function worldWithout(...tables: string[]): Promise<WorldData> {
  const dir = join(work, tables.join('-') || 'all');
  cpSync(FIXTURE, dir, { recursive: true, filter: (src) => !tables.some((t) => src.endsWith(`/${t}.csv`)) });
  let world: WorldData | null = null;
  await importTransfermarkt(handle.db, dir, { asOf: AS_OF, dryRun: true, onWorld: (w) => (world = w) });
  assert.ok(world);
  return world;
}

function sharesOf(world: WorldData, name: string) {
  const snapshot = buildSnapshot(world, AFTER_SEASON, 'test');
  const idx = featureIndex(snapshot);
  const id = world.players.find((p) => p.name === name)!.id;
  const anchor = { rating: 70, season: 2023, released: '2023-09-29', position: 'LB' };
  const update = updateFeatures(idx, id, anchor, AFTER_SEASON, () => 60);
  return {
    season: playingSharesIn(idx, id, 2023),
    games: idx.leagueGames.get(`${world.appearances.find((a) => a.player_id === id)?.club_id}|2023`),
    fee: feeFeatures(idx, { playerId: id, at: AFTER_SEASON, sellerClubId: null, buyerClubId: null }, null)[FEE_FEATURES.indexOf('minutes_share')],
    rating: ratingFeatures(idx, id, AFTER_SEASON)[RATING_FEATURES.indexOf('minutes_share')],
    update: [update[UPDATE_FEATURES.indexOf('minutes_share')], update[UPDATE_FEATURES.indexOf('starts_share')]],
    minutesShare: minutesShareAt(idx, id, AFTER_SEASON),
  };
}

test('appearances and lineups: the rating, its update and the fee read his real minutes and starts share', async () => {
  const world = await worldWithout();
  // Ben Baxter: 25 and 90 minutes in his club's 2 league games of 2023/24, started the second.
  const s = sharesOf(world, 'Ben Baxter');
  assert.equal(s.games, 2);
  assert.deepEqual(s.season, [115 / 180, 1 / 2]);
  assert.equal(s.minutesShare, 115 / 180);
  assert.equal(s.fee, 115 / 180);
  assert.equal(s.rating, 115 / 180);
  assert.deepEqual(s.update, [115 / 180, 1 / 2]);
});

test('appearances without lineups: minutes are read, the starts share is missing rather than zero', async () => {
  const s = sharesOf(await worldWithout('game_lineups'), 'Ben Baxter');
  assert.equal(s.season[0], 115 / 180);
  assert.ok(Number.isNaN(s.season[1]));
  assert.equal(s.update[0], 115 / 180);
  assert.ok(Number.isNaN(s.update[1]));
});

test('no appearances (as in the shared copy): every playing-time feature is missing', async () => {
  const world = await worldWithout('appearances', 'game_lineups');
  assert.equal(world.appearances.length, 0);
  const s = sharesOf(world, 'Ben Baxter');
  for (const v of [...s.season, s.fee, s.rating, ...s.update, s.minutesShare]) assert.ok(Number.isNaN(v), `${v} is missing`);
});
