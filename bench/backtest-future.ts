/**
 * Out-of-time backtest of the 3-year future value model on the real data.
 * As of 2021-06-30: fit the rating and future models on what was known then; for every player
 * active then (a market value in the year before), predict his value at 2024-06-30 (the latest
 * value on or before it); score the six category probabilities (RPS, log loss, calibration) and
 * the value (Spearman, median |log error|) beside an age-curve baseline and the base rate. Also
 * the latency of the future-value prediction.
 *
 * Run: node --import tsx bench/backtest-future.ts --data ../shared/data/transfermarkt [--world-cache /tmp/tm-world.json]
 */
import { buildSnapshot } from '../src/domain/snapshot.js';
import { playerFacts } from '../src/domain/player-facts.js';
import { featureIndex, latestValue, logValueAt, ageAt } from '../src/valuation/features/index.js';
import { CATEGORY_NAMES, categoryOf, fitFutureModel, predictFuture, predictFutureAt, type FutureArtifact } from '../src/valuation/future/index.js';
import { fitRatingModel } from '../src/valuation/rating/index.js';
import { logLoss, median, rankedProbabilityScore, spearman } from '../src/valuation/ml/metrics.js';
import { createRng } from '../src/valuation/ml/rng.js';
import { dataDirFromArgs, loadRealWorld, worldCacheFromArgs } from './lib/world.js';

const AS_OF = '2021-06-30';
const OUTCOME = '2024-06-30';
const f3 = (x: number) => x.toFixed(3);

interface Method { name: string; probs: number[][]; values: number[] }

/** Category frequencies and median ratio of the comparables by whole age (the age-curve baseline). */
function ageCurve(future: FutureArtifact): Map<number, { probs: number[]; ratio: number }> {
  const byAge = new Map<number, { counts: number[]; logs: number[] }>();
  for (const row of future.index.rows) {
    const a = row.payload.a;
    let e = byAge.get(a);
    if (!e) byAge.set(a, (e = { counts: new Array<number>(6).fill(0), logs: [] }));
    e.counts[row.payload.c]++;
    e.logs.push(Math.log(row.payload.v3 / row.payload.v0));
  }
  const out = new Map<number, { probs: number[]; ratio: number }>();
  for (const [a, e] of byAge) {
    const n = e.counts.reduce((x, y) => x + y, 0);
    out.set(a, { probs: e.counts.map((c) => (c + 1) / (n + 6)), ratio: Math.exp(median(e.logs)) });
  }
  return out;
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const { world, dataVersion } = await loadRealWorld(dataDirFromArgs(), true, worldCacheFromArgs());
  console.log(`data ${dataVersion}: loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const snap = buildSnapshot(world, AS_OF, dataVersion);
  const t1 = performance.now();
  const rating = fitRatingModel(snap, { seed: 3 });
  const t2 = performance.now();
  const future = fitFutureModel(snap, rating);
  const t3 = performance.now();
  console.log(
    `as of ${AS_OF}: rating model (target ${rating.target}) ${((t2 - t1) / 1000).toFixed(1)} s; future model ${future.stats.comparables} comparables ` +
      `(seasons ${future.stats.seasons[0]}/..${future.stats.seasons[future.stats.seasons.length - 1]}) ${((t3 - t2) / 1000).toFixed(1)} s`,
  );

  const later = buildSnapshot(world, OUTCOME, dataVersion);
  const idx = featureIndex(snap);
  const laterIdx = featureIndex(later);
  const curve = ageCurve(future);
  const allLogs = future.index.rows.map((r) => Math.log(r.payload.v3 / r.payload.v0));
  const baseRatio = Math.exp(median(allLogs));
  const base = future.baseRates['*'];

  const outcomes: number[] = [];
  const actual: number[] = [];
  const model: Method = { name: 'model', probs: [], values: [] };
  const ageM: Method = { name: 'age curve', probs: [], values: [] };
  const baseM: Method = { name: 'base rate', probs: [], values: [] };
  const ids = [...snap.players.values()].filter((p) => p.birth_date && Number.isFinite(logValueAt(idx, p.id, AS_OF, 365))).map((p) => p.id).sort();
  const t4 = performance.now();
  for (const id of ids) {
    const v0 = latestValue(idx, id, AS_OF)!.valueEur;
    const v3 = latestValue(laterIdx, id, OUTCOME)!.valueEur;
    if (!(v0 > 0) || !(v3 > 0)) continue;
    const club = playerFacts(snap, snap.players.get(id)!).owningClubId;
    const out = predictFutureAt(future, rating, snap, { playerId: id, clubId: club, at: AS_OF });
    outcomes.push(categoryOf(v3 / v0));
    actual.push(v3);
    model.probs.push(CATEGORY_NAMES.map((c) => out.probabilities[c]));
    model.values.push(out.futureValueEur);
    const age = Math.floor(ageAt(idx, id, AS_OF));
    const ac = curve.get(age) ?? { probs: base, ratio: baseRatio };
    ageM.probs.push(ac.probs);
    ageM.values.push(v0 * ac.ratio);
    baseM.probs.push(base);
    baseM.values.push(v0 * baseRatio);
  }
  const t5 = performance.now();
  console.log(`\nplayers active at ${AS_OF} with a value at ${OUTCOME}: n = ${outcomes.length} (predicted in ${((t5 - t4) / 1000).toFixed(1)} s)`);
  console.log('observed categories: ' + CATEGORY_NAMES.map((c, i) => `${c} ${f3(outcomes.filter((o) => o === i).length / outcomes.length)}`).join(', '));
  for (const m of [model, ageM, baseM]) {
    const medLog = median(m.values.map((v, i) => Math.abs(Math.log(v / actual[i]))));
    console.log(
      `  ${m.name.padEnd(9)} RPS ${f3(rankedProbabilityScore(m.probs, outcomes))}  log loss ${f3(logLoss(m.probs, outcomes))}  ` +
        `Spearman(value) ${f3(spearman(m.values, actual))}  median |log error| ${f3(medLog)}`,
    );
  }
  console.log('\ncalibration: mean predicted probability vs observed frequency, per category');
  console.log(`  ${'category'.padEnd(22)} ${'observed'.padStart(8)} ${'model'.padStart(8)} ${'age'.padStart(8)} ${'base'.padStart(8)}`);
  CATEGORY_NAMES.forEach((c, k) => {
    const mean = (m: Method) => m.probs.reduce((s, p) => s + p[k], 0) / m.probs.length;
    console.log(`  ${c.padEnd(22)} ${f3(outcomes.filter((o) => o === k).length / outcomes.length).padStart(8)} ${f3(mean(model)).padStart(8)} ${f3(mean(ageM)).padStart(8)} ${f3(mean(baseM)).padStart(8)}`);
  });
  console.log('\nreliability of the model: predicted probability bins (all categories pooled)');
  const bins = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.7, 1.0001];
  for (let b = 0; b < bins.length - 1; b++) {
    let n = 0;
    let p = 0;
    let hit = 0;
    model.probs.forEach((row, i) =>
      row.forEach((q, k) => {
        if (q >= bins[b] && q < bins[b + 1]) {
          n++;
          p += q;
          if (outcomes[i] === k) hit++;
        }
      }),
    );
    if (n > 0) console.log(`  [${bins[b].toFixed(1)}, ${Math.min(1, bins[b + 1]).toFixed(1)}) n ${String(n).padStart(6)}  predicted ${f3(p / n)}  observed ${f3(hit / n)}`);
  }

  const rng = createRng(5);
  const clubs = [...snap.leagueOfClub.keys()];
  const times: number[] = [];
  for (let i = 0; i < 500; i++) {
    const playerId = ids[rng.int(0, ids.length - 1)];
    const clubId = clubs[rng.int(0, clubs.length - 1)];
    const s = performance.now();
    predictFuture(future, rating, snap, { playerId, clubId });
    times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);
  console.log(`\nlatency predictFuture over 500 random players: p50 ${times[250].toFixed(2)} ms, p95 ${times[475].toFixed(2)} ms, max ${times[499].toFixed(2)} ms`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
