/**
 * Out-of-time backtest of the expected-fee model on the real data.
 * As of 2023-06-30: train on what was known then; predict every paid permanent transfer from
 * 2023-07-01 to 2024-06-30 with each player's data as of the day before the transfer, beside the
 * crowd baseline (the transfer row's market value) on the same rows. Also the latency of predictFee.
 *
 * Run: node --import tsx bench/backtest-fees.ts --data ../shared/data/transfermarkt [--world-cache /tmp/tm-world.json]
 */
import { buildSnapshot } from '../src/domain/snapshot.js';
import { featureIndex } from '../src/valuation/features/index.js';
import { feeFromFeatures, fitFeeModel, paidTransfers, predictFee, transferFeatures } from '../src/valuation/fee/index.js';
import { fitRatingModel } from '../src/valuation/rating/index.js';
import { medianAbsolutePercentageError, r2, shareWithin, spearman } from '../src/valuation/ml/metrics.js';
import { createRng } from '../src/valuation/ml/rng.js';
import { dataDirFromArgs, loadRealWorld, worldCacheFromArgs } from './lib/world.js';

const TRAIN_AS_OF = '2023-06-30';
const TEST_FROM = '2023-07-01';
const TEST_TO = '2024-06-30';

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const f3 = (x: number) => x.toFixed(3);

interface Row { fee: number; pred: number; low: number; high: number; crowd: number }

function report(label: string, rows: Row[]): void {
  const fee = rows.map((r) => r.fee);
  const model = rows.map((r) => r.pred);
  const crowd = rows.map((r) => r.crowd);
  const line = (name: string, pred: number[]) =>
    `  ${name.padEnd(6)} R2(log) ${f3(r2(fee.map(Math.log), pred.map(Math.log))).padStart(7)}  Spearman ${f3(spearman(fee, pred))}  ` +
    `median APE ${pct(medianAbsolutePercentageError(fee, pred)).padStart(6)}  within 25% ${pct(shareWithin(fee, pred, 0.25)).padStart(6)}  within 50% ${pct(shareWithin(fee, pred, 0.5)).padStart(6)}`;
  const covered = rows.filter((r) => r.low <= r.fee && r.fee <= r.high).length / rows.length;
  console.log(`${label}: n = ${rows.length}, 80% range coverage ${f3(covered)}`);
  console.log(line('model', model));
  console.log(line('crowd', crowd));
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const { world, dataVersion } = await loadRealWorld(dataDirFromArgs(), true, worldCacheFromArgs());
  console.log(`data ${dataVersion}: loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const train = buildSnapshot(world, TRAIN_AS_OF, dataVersion);
  const t1 = performance.now();
  featureIndex(train);
  const t2 = performance.now();
  const artifact = fitFeeModel(train, { seed: 7 });
  const t3 = performance.now();
  console.log(`training as of ${TRAIN_AS_OF}: ${artifact.stats.transfers} paid transfers; feature index ${((t2 - t1) / 1000).toFixed(1)} s, fit ${((t3 - t2) / 1000).toFixed(1)} s`);
  console.log(
    `  calibration year from ${artifact.stats.calibrationStart}: ${artifact.stats.calibrationTransfers} transfers, raw quantile coverage ${f3(artifact.stats.rawCalibrationCoverage)}, ` +
      `offset ${f3(artifact.rangeOffset)} (log), calibrated ${f3(artifact.stats.calibratedCoverage)}; training R2(log) ${f3(artifact.stats.trainingR2Log)}`,
  );
  console.log(`  average buyer: strength ${f3(artifact.averageBuyer.strength)}, league ${f3(artifact.averageBuyer.leagueStrength)}, tier ${artifact.averageBuyer.tier}`);

  // The later snapshot holds the test year; every feature is read as of the day before the transfer.
  const later = buildSnapshot(world, TEST_TO, dataVersion);
  const idx = featureIndex(later);
  const test = paidTransfers(later).filter((t) => t.date >= TEST_FROM && t.date <= TEST_TO);
  const rows: Row[] = [];
  let noCrowd = 0;
  for (const t of test) {
    const out = feeFromFeatures(artifact, transferFeatures(idx, t, artifact.averageBuyer));
    if (t.market_value_eur === null || !(t.market_value_eur > 0)) {
      noCrowd++;
      continue;
    }
    rows.push({ fee: t.fee_eur!, pred: out.feeEur, low: out.lowEur, high: out.highEur, crowd: t.market_value_eur });
  }
  console.log(`\ntest ${TEST_FROM}..${TEST_TO}: ${test.length} paid transfers, ${noCrowd} without a crowd value left out so both are scored on the same rows`);
  report('all', rows);
  report('fee < 5M', rows.filter((r) => r.fee < 5e6));
  report('fee 5-20M', rows.filter((r) => r.fee >= 5e6 && r.fee <= 20e6));
  report('fee > 20M', rows.filter((r) => r.fee > 20e6));

  // Latency of the public call at the training as-of date, over 500 random players with analysis data.
  const ids = [...train.players.values()].filter((p) => p.analysis_available && train.values.has(p.id)).map((p) => p.id);
  const rng = createRng(11);
  const clubs = [...train.leagueOfClub.keys()];
  const times: number[] = [];
  for (let i = 0; i < 500; i++) {
    const playerId = ids[rng.int(0, ids.length - 1)];
    const targetClubId = i % 2 === 0 ? clubs[rng.int(0, clubs.length - 1)] : null;
    const s = performance.now();
    predictFee(artifact, train, { playerId, targetClubId });
    times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);
  console.log(`\nlatency predictFee over 500 random players: p50 ${times[250].toFixed(2)} ms, p95 ${times[475].toFixed(2)} ms, max ${times[499].toFixed(2)} ms`);

  // The rating model's calibration needs the EA FC 24 ratings (season 2023/24), visible as of 2024-06-30.
  const t4 = performance.now();
  const rating = fitRatingModel(later, { seed: 7 });
  const c = rating.calibration;
  console.log(
    `\nrating model as of ${TEST_TO}: target ${c.target}, ${c.rows} calibration rows (${c.players} players); held-out ${c.heldOutPlayers} players: ` +
      `R2 ${f3(c.heldOutR2)}, MAE ${c.heldOutMae.toFixed(2)} rating points; fit ${((performance.now() - t4) / 1000).toFixed(1)} s`,
  );
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
