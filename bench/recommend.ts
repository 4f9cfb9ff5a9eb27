/**
 * recommend_signings on the real data: latency of a whole-coverage scan of one position, cold (a
 * club and position not asked before: the club's screen, every fee and future value of the
 * position, then the exact runs) and repeated (the same request again, as the route answers it:
 * from its answer cache, serialised); and the recall of the screen: over seeded requests (clubs x
 * positions, some with filters), how many of the true top 10 of an exhaustive scan (the exact ROI
 * of every eligible player, run here) the answer holds, for the shortlist in force and for others.
 * The requests are the default ones: sorted by net value created, players expected to start 25% at
 * least, no wage. Prints PASS/FAIL against the targets (cold p95 <= 1 s, recall >= 9 of 10). Then
 * the cases a sporting director would ask (bench/lib/recommend-cases.ts), each top five with its checks.
 *
 * Times are wall-clock and, beside them, CPU time of this process, which a busy shared machine
 * disturbs less; the load average is printed with them.
 *
 * Run: node --import tsx bench/recommend.ts --world-cache FILE --models-cache FILE   (files outside the repository)
 *      [--as-of 2024-06-30] [--cold 20] [--requests 20] [--seed 17] [--skip-cases]
 *      (without --models-cache the models are trained first, which takes minutes)
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { AnswerCache, ANSWERS_KEPT } from '../src/http/answer-cache.js';
import { POSITION_CODES, type PositionCode } from '../src/domain/positions.js';
import type { Snapshot } from '../src/domain/snapshot.js';
import { defaultRateTable } from '../src/money/rates.js';
import { moneyPair } from '../src/money/convert.js';
import { roi as roiOf, type RoiResult } from '../src/valuation/analysis.js';
import { candidateOf, compareCandidates, presentRecommendation, type RecommendedCandidate } from '../src/http/present/recommend.js';
import { presentRoi } from '../src/http/present/analysis.js';
import type { ModelBundle } from '../src/valuation/bundle.js';
import { featureIndex } from '../src/valuation/features/index.js';
import { createRng } from '../src/domain/random.js';
import {
  eligibleByScreen, MAX_EXACT_EXTRA, positionPools, recommendSignings, screenedPosition, SHORTLIST, type RecommendQuery,
} from '../src/valuation/recommend/index.js';
import { modelsCacheFromArgs, trainedModels } from './lib/models.js';
import { dataDirFromArgs, loadRealWorld, worldCacheFromArgs } from './lib/world.js';
import { quantile, timed, type Timing } from './lib/timing.js';
import { printRecommendCases } from './lib/recommend-cases.js';

const { values } = parseArgs({
  options: {
    'as-of': { type: 'string', default: '2024-06-30' },
    cold: { type: 'string', default: '20' },
    requests: { type: 'string', default: '20' },
    seed: { type: 'string', default: '17' },
    'world-cache': { type: 'string' },
    'models-cache': { type: 'string' },
    data: { type: 'string' },
    'skip-cases': { type: 'boolean', default: false },
  },
});
const AS_OF = values['as-of']!;
const TARGET = { coldP95: 1000, repeatedP95: 50, recall: 9 };
/** A position with more eligible players than this is searched in a few leagues in the recall requests, so the exhaustive scan stays affordable. */
const WHOLE_SCAN_MAX = 600;
const LIMIT = 10;
const MIN_PLAYING = 25;
const SORT = 'net_value_created' as const;
const order = compareCandidates(SORT);
const shown = (limit: number) => ({ limit, sort: SORT, annualWage: null });
const money = { code: 'EUR', rates: defaultRateTable() };
const everyone = () => true;

const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');

function summary(name: string, t: Timing, target: number): boolean {
  const w = [...t.wall].sort((a, b) => a - b);
  const c = [...t.cpu].sort((a, b) => a - b);
  const p95 = quantile(w, 0.95);
  const ok = p95 <= target;
  console.log(
    `${ok ? 'PASS' : 'FAIL'} ${name.padEnd(9)} n=${w.length}  wall p50 ${quantile(w, 0.5).toFixed(1)} ms  p95 ${p95.toFixed(1)} ms  max ${w[w.length - 1].toFixed(1)} ms` +
      `  | cpu p50 ${quantile(c, 0.5).toFixed(1)} ms  p95 ${quantile(c, 0.95).toFixed(1)} ms  (target p95 <= ${target} ms; load average ${load()})`,
  );
  return ok;
}

/** The analysis season's clubs of the domestic leagues, in id order. */
function leagueClubs(snapshot: Snapshot): { leagues: string[]; clubs: string[] } {
  const leagues = [...snapshot.analysisClubsOfLeague.keys()].filter((l) => (snapshot.analysisClubsOfLeague.get(l)?.length ?? 0) >= 2).sort();
  return { leagues, clubs: leagues.flatMap((l) => [...snapshot.analysisClubsOfLeague.get(l)!].sort()) };
}

/** A query with its fee limit as the request gives it (EUR here). */
type BenchQuery = RecommendQuery & { maxFee: number | null };

function query(clubId: string, position: PositionCode, extra: Partial<BenchQuery> = {}): BenchQuery {
  const maxFee = extra.maxFee ?? null;
  const feeAllowed = maxFee === null ? null : (feeEur: number) => moneyPair(feeEur, money.code, money.rates).amount <= maxFee;
  return {
    clubId, position, maxFee, feeAllowed, maxAge: null, competitions: null, limit: LIMIT, covered: everyone,
    annualWageEur: null, minPlayingTime: MIN_PLAYING / 100, playsEnough: (share) => Math.round(share * 100) >= MIN_PLAYING, sort: SORT, ...extra,
  };
}

const noFee = { expectedTransferValue: null, annualWage: null };
const exactRoi = (bundle: ModelBundle, snapshot: Snapshot, playerId: string, clubId: string) =>
  roiOf(bundle, snapshot, { playerId, clubId, feeEur: null, annualWageEur: null });

function describe(snapshot: Snapshot, q: BenchQuery): string {
  const parts = [`${snapshot.clubs.get(q.clubId)?.name} ${q.position}`];
  if (q.competitions) parts.push(`in ${q.competitions.join('+')}`);
  if (q.maxAge !== null) parts.push(`age <= ${q.maxAge}`);
  if (q.maxFee !== null) parts.push(`fee <= ${(q.maxFee / 1e6).toFixed(1)}M`);
  return parts.join(', ');
}

function coldLatency(bundle: ModelBundle, snapshot: Snapshot, n: number, seed: number): boolean {
  const rng = createRng(seed);
  const { clubs } = leagueClubs(snapshot);
  const cold: Timing = { wall: [], cpu: [] };
  const repeated: Timing = { wall: [], cpu: [] };
  const otherLimit: Timing = { wall: [], cpu: [] };
  // the route's cache: whole answers, and exact ROI results shared by requests for one club
  const cache = new AnswerCache(ANSWERS_KEPT);
  const seen = new Set<string>();
  const asked: RecommendQuery[] = [];
  const answer = (q: RecommendQuery) => cache.get(`rec|${q.clubId}|${q.position}|${q.limit}`, () =>
    presentRecommendation(recommendSignings(bundle, snapshot, q, {
      roi: (playerId) => cache.get<RoiResult>(`roi-result|${playerId}|${q.clubId}`, () => exactRoi(bundle, snapshot, playerId, q.clubId)),
    }), snapshot, money, shown(q.limit)));
  let considered = 0;
  const screenCpu: number[] = [];
  while (asked.length < n) {
    const q = query(clubs[rng.int(0, clubs.length - 1)], POSITION_CODES[rng.int(0, POSITION_CODES.length - 1)]);
    if (seen.has(`${q.clubId}|${q.position}`)) continue;
    seen.add(`${q.clubId}|${q.position}`);
    asked.push(q);
    const a = timed(cold, () => {
      // the screen first (the request would build it), to tell its share of the work
      const c0 = process.cpuUsage();
      // with the fees and future values of the players it keeps (priced on first read, then kept)
      eligibleByScreen(snapshot, screenedPosition(bundle, snapshot, q.clubId, q.position).players, q);
      const c = process.cpuUsage(c0);
      screenCpu.push((c.user + c.system) / 1000);
      return JSON.stringify(answer(q));
    });
    considered += (JSON.parse(a) as { candidates_considered: number }).candidates_considered;
  }
  console.log(`cold: ${n} whole-coverage requests (a club and a position not asked before, limit ${LIMIT}), ${Math.round(considered / n)} eligible players each on average`);
  const coldOk = summary('cold', cold, TARGET.coldP95);
  const share = screenCpu.reduce((a, b) => a + b, 0) / cold.cpu.reduce((a, b) => a + b, 0);
  const sc = [...screenCpu].sort((a, b) => a - b);
  console.log(`     of which the club's screen with the fees and future values of the players it keeps: cpu p50 ${quantile(sc, 0.5).toFixed(1)} ms  p95 ${quantile(sc, 0.95).toFixed(1)} ms` +
    ` (${(100 * share).toFixed(0)}% of the cpu); the rest is the exact runs (until ${SHORTLIST} play enough, at most ${MAX_EXACT_EXTRA} runs more)`);
  for (const q of asked) timed(repeated, () => JSON.stringify(answer(q)));
  const repeatedOk = summary('repeated', repeated, TARGET.repeatedP95);
  // another limit for a club and position asked before: the screen and the exact runs are kept
  for (const q of asked) timed(otherLimit, () => JSON.stringify(answer({ ...q, limit: 25 })));
  const w = [...otherLimit.wall].sort((a, b) => a - b);
  console.log(`     the same club and position with limit 25: wall p50 ${quantile(w, 0.5).toFixed(1)} ms  p95 ${quantile(w, 0.95).toFixed(1)} ms (no target)`);
  return coldOk && repeatedOk;
}

interface Exhaustive {
  q: BenchQuery;
  /** eligible players in the screen's order, with their exact candidate */
  screened: { playerId: string; roi: RoiResult; exact: RecommendedCandidate; plays: boolean; onFieldEstimateEur: number; moneyOnly: number }[];
}

function exhaustive(bundle: ModelBundle, snapshot: Snapshot, q: BenchQuery): Exhaustive {
  const { players } = screenedPosition(bundle, snapshot, q.clubId, q.position);
  // every eligible player whatever the screen's playing time; the truth keeps those whose exact one reaches the minimum
  const eligible = eligibleByScreen(snapshot, players, { ...q, minPlayingTime: Number.NEGATIVE_INFINITY });
  return {
    q,
    screened: eligible.map((p) => {
      const roi = exactRoi(bundle, snapshot, p.playerId, q.clubId);
      // the screen without its on-field estimate: future value / fee alone
      const moneyOnly = p.feeEur > 0 ? p.futureEur / p.feeEur : Number.NEGATIVE_INFINITY;
      return { playerId: p.playerId, roi, exact: candidateOf(snapshot, p, presentRoi(roi, noFee, money), money), plays: q.playsEnough(roi.impact.playingTimePercentage), onFieldEstimateEur: p.onFieldEur, moneyOnly };
    }),
  };
}

/**
 * Of the true top 10 (every eligible player's exact answer), how many the top 10 of the screen's
 * best k hold; `moneyOnly` orders by future value / fee alone instead of the screen.
 */
function recallAt(e: Exhaustive, k: number, moneyOnly = false): { hit: number; of: number } {
  const all = e.screened.filter((x) => x.plays).map((x) => x.exact);
  const truth = [...all].sort(order).slice(0, LIMIT).map((c) => c.player_id);
  const screenOrder = moneyOnly ? [...e.screened].sort((a, b) => b.moneyOnly - a.moneyOnly) : e.screened;
  const answer = new Set(screenOrder.filter((x) => x.plays).map((x) => x.exact).slice(0, Math.max(LIMIT, k)).sort(order).slice(0, LIMIT).map((c) => c.player_id));
  return { hit: truth.filter((id) => answer.has(id)).length, of: truth.length };
}

function recall(bundle: ModelBundle, snapshot: Snapshot, n: number, seed: number): boolean {
  const rng = createRng(seed + 1);
  const { leagues, clubs } = leagueClubs(snapshot);
  const pools = positionPools(bundle.impact!, snapshot);
  const runs: Exhaustive[] = [];
  const served_: { hit: number; of: number }[] = [];
  let exactRuns = 0;
  const t0 = performance.now();
  while (runs.length < n) {
    const clubId = clubs[rng.int(0, clubs.length - 1)];
    const position = POSITION_CODES[rng.int(0, POSITION_CODES.length - 1)];
    const extra: { competitions?: string[]; maxAge?: number; maxFee?: number } = {};
    if ((pools.get(position)?.length ?? 0) > WHOLE_SCAN_MAX) {
      const picked = new Set<string>();
      while (picked.size < 3) picked.add(leagues[rng.int(0, leagues.length - 1)]);
      extra.competitions = [...picked].sort();
    }
    if (rng.int(0, 1) === 1) extra.maxAge = rng.int(21, 30);
    if (rng.int(0, 2) === 0) extra.maxFee = [2e6, 5e6, 10e6, 20e6][rng.int(0, 3)];
    const q = query(clubId, position, extra);
    const e = exhaustive(bundle, snapshot, q);
    if (e.screened.filter((x) => x.plays).length < LIMIT) continue; // fewer than 10 who would play: every answer is the truth
    exactRuns += e.screened.length;
    runs.push(e);
    // the endpoint's answer is the top 10 of the shortlist it runs exactly (its runs taken from the scan)
    const served = presentRecommendation(recommendSignings(bundle, snapshot, q, { roi: (playerId) => e.screened.find((x) => x.playerId === playerId)!.roi }), snapshot, money, shown(q.limit));
    const truth = new Set(e.screened.filter((x) => x.plays).map((x) => x.exact).sort(order).slice(0, LIMIT).map((c) => c.player_id));
    const hit = served.candidates.filter((c) => truth.has(c.player_id)).length;
    served_.push({ hit, of: truth.size });
    console.log(`  ${String(runs.length).padStart(2)}. ${describe(snapshot, q)}: ${e.screened.length} eligible, ${e.screened.filter((x) => x.plays).length} play ${MIN_PLAYING}%+, served ${hit}/${truth.size} of the true top 10`);
  }
  console.log(`recall: ${n} seeded requests, exhaustive scans of ${exactRuns} exact ROI runs in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  for (const k of [...new Set([10, 15, 20, SHORTLIST, 40, 60])].sort((a, b) => a - b)) {
    const per = runs.map((e) => recallAt(e, k));
    const mean = per.reduce((a, r) => a + r.hit, 0) / per.length;
    const worst = Math.min(...per.map((r) => r.hit));
    const plain = runs.map((e) => recallAt(e, k, true));
    const line = `recall of the true top 10 with a shortlist of ${String(k).padStart(3)}: mean ${mean.toFixed(2)}, worst ${worst}` +
      ` | future value / fee alone: mean ${(plain.reduce((a, r) => a + r.hit, 0) / plain.length).toFixed(2)}, worst ${Math.min(...plain.map((r) => r.hit))}`;
    console.log(`     ${line}${k === SHORTLIST ? ' (the shortlist in force)' : ''}`);
  }
  // the screen's estimate of on_field_value against the exact one
  const pairs = runs.flatMap((e) => e.screened.map((x) => [x.onFieldEstimateEur, x.exact.on_field_value_in_eur] as const));
  const mae = pairs.reduce((a, [est, exact]) => a + Math.abs(est - exact), 0) / pairs.length;
  const meanExact = pairs.reduce((a, [, exact]) => a + exact, 0) / pairs.length;
  console.log(`     screen estimate of on_field_value: mean absolute error EUR ${Math.round(mae)} against a mean of EUR ${Math.round(meanExact)} over ${pairs.length} players`);
  const servedMean = served_.reduce((a, r) => a + r.hit, 0) / served_.length;
  const ok = servedMean >= TARGET.recall;
  console.log(`${ok ? 'PASS' : 'FAIL'} the served answers (screen order, playing-time screen, at most ${MAX_EXACT_EXTRA} exact runs beyond the kept): mean ${servedMean.toFixed(2)} of the true top 10, worst ${Math.min(...served_.map((r) => r.hit))} (target mean >= ${TARGET.recall})`);
  return ok;
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const { world, dataVersion } = await loadRealWorld(values.data ?? dataDirFromArgs(), true, worldCacheFromArgs());
  const { bundle, snapshot, trainMs } = trainedModels(world, dataVersion, AS_OF, modelsCacheFromArgs());
  if (!bundle.impact) throw new Error('the models hold no impact model');
  console.log(`data ${dataVersion} as of ${AS_OF}: ${snapshot.players.size} players; loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s` +
    `${trainMs === null ? ' (models from the cache)' : ` (models trained in ${(trainMs / 1000).toFixed(0)} s)`}; load average ${load()}`);
  // The server builds the feature index when it loads the models (models/state.ts); not ours to count.
  featureIndex(snapshot);
  let t = performance.now();
  const pools = positionPools(bundle.impact, snapshot);
  console.log(`players by position (built once per snapshot and models, by the first request): ${(performance.now() - t).toFixed(0)} ms; ` +
    [...pools].sort((a, b) => b[1].length - a[1].length).map(([p, l]) => `${p} ${l.length}`).join(', '));
  t = performance.now();
  const latencyOk = coldLatency(bundle, snapshot, Number(values.cold), Number(values.seed));
  // --requests 0: latency alone (the recall's exhaustive scans take minutes)
  const recallOk = Number(values.requests) > 0 ? recall(bundle, snapshot, Number(values.requests), Number(values.seed)) : true;
  const casesOk = values['skip-cases'] || printRecommendCases(bundle, snapshot) === 0;
  console.log(`${latencyOk && recallOk && casesOk ? 'PASS' : 'FAIL'} all targets (${((performance.now() - t) / 1000).toFixed(0)} s)`);
}

await main();
