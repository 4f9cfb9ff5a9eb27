/**
 * Contract length in the fee, on the real data: the curve the fee model reads from the data (see
 * src/valuation/fee/contract.ts), what the registry's contracts are as of the date (known, unknown
 * because he moved after the data's end, ended), and for the most valuable players aged 23-30 the
 * fee with 6 months left against 4 years (target: 0.4-0.8) and with a contract ended (target: 0).
 *
 * Run: node --import tsx bench/contract-fees.ts --world-cache /work/cache/tm-world.json [--as-of 2024-06-30] [--top 40]
 */
import { parseArgs } from 'node:util';
import { buildSnapshot } from '../src/domain/snapshot.js';
import { addDays, ageAt, featureIndex, latestValue } from '../src/valuation/features/index.js';
import { fitFeeModel, predictFee } from '../src/valuation/fee/index.js';
import { median } from '../src/valuation/ml/metrics.js';
import { dataDirFromArgs, loadRealWorld, worldCacheFromArgs } from './lib/world.js';

const { values: args } = parseArgs({
  options: {
    data: { type: 'string' },
    'world-cache': { type: 'string' },
    'as-of': { type: 'string', default: '2024-06-30' },
    top: { type: 'string', default: '40' },
  },
});
const AS_OF = args['as-of']!;
const m = (eur: number) => `${(eur / 1e6).toFixed(1)}M`;
const monthsAfter = (iso: string, months: number) => {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString().slice(0, 10);
};

async function main(): Promise<void> {
  const { world, dataVersion } = await loadRealWorld(dataDirFromArgs(), true, worldCacheFromArgs());
  const snapshot = buildSnapshot(world, AS_OF, dataVersion);
  const idx = featureIndex(snapshot);
  const contracts = [...snapshot.contracts.values()];
  const current = contracts.filter((c) => snapshot.careers.get(c.player_id)?.at(-1)?.end_date === null);
  console.log(
    `registry contracts as of ${AS_OF} of players at a club: ${current.length}; end unknown (he moved after the data's end) ${current.filter((c) => c.end_date === null).length}; ` +
      `ended on or before ${AS_OF} ${current.filter((c) => c.end_date !== null && c.end_date <= AS_OF).length}`,
  );
  const t0 = performance.now();
  const fee = fitFeeModel(snapshot);
  console.log(`fee model fitted on ${fee.stats.transfers} paid transfers in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const curve = fee.contract;
  if (!curve) {
    console.log('no contract curve (the trees know the contract, or too few signings and sales)');
    return;
  }
  console.log(`usual length of a contract signed on a paid move in the last year, by age at signing (< 23, 23-27, 27+): ${curve.signingMonths.map((x) => `${(x / 12).toFixed(2)} y`).join(', ')}`);
  console.log('imputed months left at the sale of a bought player (ages 21-31) -> factor on the fee (isotonic, relative to 3+ years):');
  curve.months.forEach((mo, i) => console.log(`  ${mo.toFixed(1).padStart(5)} months  n ${String(curve.rows[i]).padStart(4)}  factor ${Math.exp(curve.logFactor[i]).toFixed(3)}`));

  const checks: [string, boolean][] = [];
  const picked = [...snapshot.players.values()]
    .map((p) => ({ p, v: latestValue(idx, p.id, AS_OF), age: ageAt(idx, p.id, AS_OF) }))
    .filter((x) => x.v && x.v.date >= addDays(AS_OF, -365) && x.age >= 23 && x.age <= 30)
    .sort((a, b) => b.v!.valueEur - a.v!.valueEur)
    .slice(0, Number(args.top));
  const ratios: number[] = [];
  let monotone = true;
  let free = true;
  console.log(`\nthe ${picked.length} most valuable players aged 23-30: fee with 6 months left / 4 years left, and with the contract ended yesterday`);
  for (const { p, v, age } of picked) {
    const at = (months: number) => predictFee(fee, snapshot, { playerId: p.id, contractEndDate: monthsAfter(AS_OF, months) });
    const six = at(6);
    const four = at(48);
    let prev = 0;
    for (let mo = 1; mo <= 60; mo++) {
      const f = at(mo).feeEur;
      if (f < prev - 1e-6) monotone = false;
      prev = f;
    }
    const ended = predictFee(fee, snapshot, { playerId: p.id, contractEndDate: addDays(AS_OF, -1) });
    if (ended.feeEur !== 0 || ended.lowEur !== 0 || ended.highEur !== 0) free = false;
    ratios.push(six.feeEur / four.feeEur);
    console.log(`  ${p.name.padEnd(24)} age ${age.toFixed(1)} value ${m(v!.valueEur).padStart(7)}  6 months ${m(six.feeEur).padStart(7)}  4 years ${m(four.feeEur).padStart(7)}  ratio ${(six.feeEur / four.feeEur).toFixed(3)}  ended ${m(ended.feeEur)}`);
  }
  const lo = Math.min(...ratios);
  const hi = Math.max(...ratios);
  console.log(`ratio 6 months / 4 years: min ${lo.toFixed(3)} median ${median(ratios).toFixed(3)} max ${hi.toFixed(3)}`);
  checks.push([`fee(6 months) / fee(4 years) in 0.4-0.8 for all ${ratios.length}: ${lo.toFixed(3)}-${hi.toFixed(3)}`, lo >= 0.4 && hi <= 0.8]);
  checks.push(['fewer months never raise the fee (1 to 60 months, monthly)', monotone]);
  checks.push(['an ended contract is a free transfer: fee 0, range 0-0', free]);
  for (const [what, ok] of checks) console.log(`${ok ? 'PASS' : 'FAIL'}  ${what}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
