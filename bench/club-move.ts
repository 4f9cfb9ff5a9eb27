/**
 * What a move to a stronger or weaker club did to a player's value, as the future model learns it
 * (src/valuation/future/club-move.ts): moves per age group and the slopes up and down.
 *
 * Run: node --import tsx bench/club-move.ts --world-cache /work/cache/tm-world.json [--as-of 2024-06-30]
 */
import { parseArgs } from 'node:util';
import { buildSnapshot } from '../src/domain/snapshot.js';
import { featureIndex } from '../src/valuation/features/index.js';
import { HORIZON_YEARS } from '../src/valuation/future/index.js';
import { MOVE_AGE_UPPER, fitClubMoveEffect } from '../src/valuation/future/club-move.js';
import { dataDirFromArgs, loadRealWorld, worldCacheFromArgs } from './lib/world.js';

const { values: args } = parseArgs({ options: { data: { type: 'string' }, 'world-cache': { type: 'string' }, 'as-of': { type: 'string', default: '2024-06-30' } } });

async function main(): Promise<void> {
  const { world, dataVersion } = await loadRealWorld(dataDirFromArgs(), true, worldCacheFromArgs());
  const snapshot = buildSnapshot(world, args['as-of']!, dataVersion);
  const idx = featureIndex(snapshot);
  const t0 = performance.now();
  const effect = fitClubMoveEffect(snapshot, idx, HORIZON_YEARS);
  console.log(`club-move effect as of ${snapshot.asOf}, horizon ${HORIZON_YEARS} years, fitted in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  if (!effect) return console.log('too few moves');
  const groups = MOVE_AGE_UPPER.map((u, i) => `${i === 0 ? '<' : `${MOVE_AGE_UPPER[i - 1]}-`}${u === Infinity ? '' : u}`.replace('-', i === MOVE_AGE_UPPER.length - 1 ? '+' : '-'));
  console.log(`  age group                 ${groups.map((g) => g.padStart(7)).join('')}`);
  console.log(`  moves                     ${effect.rows.map((n) => String(n).padStart(7)).join('')}`);
  console.log(`  slope down (per unit)     ${effect.down.map((x) => x.toFixed(3).padStart(7)).join('')}`);
  console.log(`  slope up (per unit)       ${effect.up.map((x) => x.toFixed(3).padStart(7)).join('')}`);
  console.log(`  x value, 2 units weaker   ${effect.down.map((x) => Math.exp(-2 * x).toFixed(3).padStart(7)).join('')}`);
  console.log(`  x value, 2 units stronger ${effect.up.map((x) => Math.exp(2 * x).toFixed(3).padStart(7)).join('')}`);
  console.log(`${effect.down.every((x) => x >= 0) ? 'PASS' : 'FAIL'} a weaker club never raises the value (every slope down >= 0)`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
