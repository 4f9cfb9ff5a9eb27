/**
 * The impact model's age curve as fitted, and what it does to veterans and prime-age players: the
 * fitted yearly change by age (with the drop-out rate behind it) and projected ratings for the
 * three horizon seasons of the oldest and of prime-age (25-28) well-rated players.
 *
 * Demo world (seed 42, as of 2026-06-30, ratings from our rating model as served), or with
 * `--real --world-cache FILE --models-cache FILE` the real world as of 2024-06-30 with the ratings of
 * an earlier training read from the models cache (read only; the bench stops if it does not match).
 * Run: node --import tsx bench/age-curve.ts [--real --world-cache F --models-cache F]
 */
import { generateDemoWorld } from '../src/data/demo/index.js';
import { buildSnapshot, type Snapshot } from '../src/domain/snapshot.js';
import type { RatingRow } from '../src/domain/world.js';
import { dataDirFromArgs, loadRealWorld, worldCacheFromArgs } from './lib/world.js';
import { modelsCacheFromArgs } from './lib/models.js';
import { fitRatingModel, rateAll } from '../src/valuation/rating/index.js';
import { fitImpactModel, withModelRatings } from '../src/valuation/impact/index.js';
import { ratedPlayer, ratingIn, resolveImpactSettings } from '../src/valuation/impact/model.js';
import { existsSync, readFileSync } from 'node:fs';

async function snapshotOf(): Promise<Snapshot> {
  if (!process.argv.includes('--real')) {
    const asOf = '2026-06-30';
    const world = generateDemoWorld({ seed: 42, asOf });
    const base = buildSnapshot(world, asOf, 'bench');
    return withModelRatings(base, rateAll(fitRatingModel(base, { seed: 1 }), base));
  }
  const asOf = '2024-06-30';
  const models = modelsCacheFromArgs();
  if (!models || !existsSync(models)) throw new Error('--real needs --models-cache FILE of a training as of 2024-06-30');
  const { world, dataVersion } = await loadRealWorld(dataDirFromArgs(), true, worldCacheFromArgs());
  const cached = JSON.parse(readFileSync(models, 'utf8')) as { bundle: { asOf: string; dataVersion: string }; ratings: RatingRow[] };
  if (cached.bundle.asOf !== asOf || cached.bundle.dataVersion !== dataVersion) throw new Error('the models cache is of other data or another date');
  return withModelRatings(buildSnapshot(world, asOf, dataVersion), cached.ratings);
}

const snap = await snapshotOf();
const art = fitImpactModel(snap);
const curve = art.ageCurve;
const s = resolveImpactSettings({});

console.log('age  delta   n  dropRate');
for (const b of curve.table ?? []) {
  if (b.age < 20) continue;
  console.log(`${b.age}  ${b.delta.toFixed(2).padStart(6)}  ${String(b.n).padStart(4)}  ${b.dropRate === undefined ? '-' : b.dropRate.toFixed(3)}`);
}

const rated = [...snap.squads.values()].flat()
  .map((id) => ratedPlayer(snap, id, s))
  .filter((p): p is NonNullable<typeof p> => p !== null);
const seasons = [0, 1, 2].map((k) => snap.analysisSeason + k);
const show = (label: string, list: typeof rated) => {
  console.log(`\n${label} (rating season, age then, rating -> ${seasons.join(', ')})`);
  for (const p of list) {
    const name = snap.players.get(p.playerId)?.name ?? p.playerId;
    console.log(`  ${name.padEnd(26)} ${p.ratingSeason} age ${p.age.toFixed(1)} rating ${p.rating.toFixed(1)} -> ${seasons.map((y) => ratingIn(curve, p, y).toFixed(1)).join(', ')}`);
  }
};
show('veterans (oldest 8)', [...rated].sort((a, b) => b.age - a.age || a.playerId.localeCompare(b.playerId)).slice(0, 8));
const named = ['Sergio Ramos', 'Mats Hummels', 'Luka Modrić', 'Edin Džeko', 'Toni Kroos', 'Declan Rice', 'Jude Bellingham', 'Rodri'];
const known = rated.filter((p) => named.includes(snap.players.get(p.playerId)?.name ?? ''));
if (known.length > 0) show('named', known.sort((a, b) => b.age - a.age));
show('prime age 25-28 (best rated 6)', rated.filter((p) => p.age >= 25 && p.age < 29).sort((a, b) => b.rating - a.rating || a.playerId.localeCompare(b.playerId)).slice(0, 6));
