/**
 * The impact model's age curve as fitted, and what it does to veterans and prime-age players: the
 * fitted yearly change by age (with the drop-out rate behind it) and projected ratings for the
 * three horizon seasons of the oldest and of prime-age (25-28) well-rated players.
 *
 * Demo world (seed 42, as of 2026-06-30, ratings from our rating model as served).
 * Run: node --import tsx bench/age-curve.ts
 */
import { generateDemoWorld } from '../src/data/demo/index.js';
import { buildSnapshot } from '../src/domain/snapshot.js';
import { fitRatingModel, rateAll } from '../src/valuation/rating/index.js';
import { fitImpactModel, withModelRatings } from '../src/valuation/impact/index.js';
import { ratedPlayer, ratingIn, resolveImpactSettings } from '../src/valuation/impact/model.js';

const AS_OF = '2026-06-30';
const world = generateDemoWorld({ seed: 42, asOf: AS_OF });
const base = buildSnapshot(world, AS_OF, 'bench');
const snap = withModelRatings(base, rateAll(fitRatingModel(base, { seed: 1 }), base));
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
show('prime age 25-28 (best rated 6)', rated.filter((p) => p.age >= 25 && p.age < 29).sort((a, b) => b.rating - a.rating || a.playerId.localeCompare(b.playerId)).slice(0, 6));
