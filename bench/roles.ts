/**
 * Roles of well-known players (test/fixtures/known-roles.json, the role a football analyst gives
 * each) against the roles we serve on the real data as of 2024-06-30: how many match, and each miss.
 *
 * Run: node --import tsx bench/roles.ts --world-cache /tmp/FILE.json [--as-of 2024-06-30]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { buildSnapshot } from '../src/domain/snapshot.js';
import { seasonOf } from '../src/domain/season.js';
import { fitRatingModel, rateAll } from '../src/valuation/rating/index.js';
import { dataDirFromArgs, loadRealWorld, worldCacheFromArgs } from './lib/world.js';

const { values: args } = parseArgs({
  options: { data: { type: 'string' }, 'world-cache': { type: 'string' }, 'as-of': { type: 'string', default: '2024-06-30' } },
});
const AS_OF = args['as-of']!;

interface Known { registry_a_id: number; name: string; role: string }

async function main(): Promise<void> {
  const known = (JSON.parse(readFileSync(new URL('../test/fixtures/known-roles.json', import.meta.url), 'utf8')) as { players: Known[] }).players;
  const { world, dataVersion } = await loadRealWorld(dataDirFromArgs(), true, worldCacheFromArgs());
  const snapshot = buildSnapshot(world, AS_OF, dataVersion);
  const rows = rateAll(fitRatingModel(snapshot, { seed: 0 }), snapshot);
  const latest = new Map<string, (typeof rows)[number]>();
  for (const r of rows) if (r.season <= seasonOf(AS_OF)) latest.set(r.player_id, r);
  let hits = 0;
  const misses: string[] = [];
  for (const k of known) {
    const p = snapshot.playerByRegistryA.get(k.registry_a_id);
    const r = p ? latest.get(p.id) : undefined;
    if (r?.best_role === k.role) hits++;
    else misses.push(`  ${k.name.padEnd(24)} expected ${k.role.padEnd(24)} got ${r ? `${r.best_role} (${r.position})` : 'no rating'}`);
  }
  console.log(`roles as of ${AS_OF}: ${hits} of ${known.length} known players match the analyst's role`);
  for (const m of misses) console.log(m);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
