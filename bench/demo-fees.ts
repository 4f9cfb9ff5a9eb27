/**
 * A sanity look at the expected fee on the generated demo world (what npm start serves): the fee
 * model fitted as `touchline train` fits it, and the highest-rated players' value and expected fee
 * with no buyer given.
 * Run: node --import tsx bench/demo-fees.ts [--seed 42] [--as-of 2026-06-30]
 */
import { parseArgs } from 'node:util';
import { generateDemoWorld } from '../src/data/demo/index.js';
import { buildSnapshot } from '../src/domain/snapshot.js';
import { fitFeeModel, predictFee } from '../src/valuation/fee/index.js';
import { featureIndex, latestValue } from '../src/valuation/features/index.js';

const { values } = parseArgs({ options: { seed: { type: 'string', default: '42' }, 'as-of': { type: 'string', default: '2026-06-30' } } });
const asOf = values['as-of']!;
const world = generateDemoWorld({ seed: Number(values.seed), asOf });
const snapshot = buildSnapshot(world, asOf, 'demo');
const t0 = performance.now();
const fee = fitFeeModel(snapshot, { seed: 0 });
console.log(`demo world seed ${values.seed} as of ${asOf}: fee model on ${fee.stats.transfers} transfers in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
const idx = featureIndex(snapshot);
const season = Math.max(...world.ratings.map((r) => r.season).filter((s) => s <= Number(asOf.slice(0, 4)) - 1));
const m = (x: number) => `${(x / 1e6).toFixed(1)}M`;
for (const r of world.ratings.filter((x) => x.season === season).sort((a, b) => b.rating - a.rating).slice(0, 10)) {
  const v = latestValue(idx, r.player_id, asOf);
  const out = predictFee(fee, snapshot, { playerId: r.player_id });
  const p = snapshot.players.get(r.player_id)!;
  console.log(`  ${p.name.padEnd(24)} rated ${r.rating} in ${season}  value ${v ? m(v.valueEur) : 'none'}  expected fee ${m(out.feeEur)} (${m(out.lowEur)}-${m(out.highEur)})`);
}
