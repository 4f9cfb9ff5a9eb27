/**
 * recommend_signings read as a sporting director would (bench/recommend.ts): club, position and
 * budget cases, each printed with the top five (name, age, club, market value, fee, playing time,
 * places added, value created, net value created) for a person to judge. It asks the valuation and
 * presentation the route uses, with the route's defaults (sort net_value_created,
 * min_playing_time_percentage 25, no wage), and checks each answer: nobody of the club or its sides,
 * everybody at the minimum playing time, within the budget and age, in the sort's order, every number
 * equal to a fresh /get_roi_analysis with the same wage, reasons (1-3) and warnings present, no
 * veteran (33 or older) and no unknown (crowd value under max(0.5M, 2% of the budget)) in the top five.
 */
import type { PositionCode } from '../../src/domain/positions.js';
import type { Snapshot } from '../../src/domain/snapshot.js';
import { defaultRateTable } from '../../src/money/rates.js';
import { moneyPair } from '../../src/money/convert.js';
import { roi as roiOf, type RoiResult } from '../../src/valuation/analysis.js';
import type { ModelBundle } from '../../src/valuation/bundle.js';
import { compareCandidates, presentRecommendation, type RecommendedCandidate } from '../../src/http/present/recommend.js';
import { presentRoi } from '../../src/http/present/analysis.js';
import { isSideOf, recommendSignings, type RecommendSort } from '../../src/valuation/recommend/index.js';

const money = { code: 'EUR', rates: defaultRateTable() };

interface Case {
  club: string;
  position: PositionCode;
  maxFee?: number;
  maxAge?: number;
  sort?: RecommendSort;
  minPlaying?: number;
  wage?: number;
}

const CASES: Case[] = [
  { club: 'Arsenal FC', position: 'ST', maxFee: 80e6 },
  { club: 'Real Madrid', position: 'CB', maxFee: 100e6 },
  { club: 'Bayern Munich', position: 'RB', maxFee: 60e6 },
  { club: 'Manchester City', position: 'CDM', maxFee: 100e6 },
  { club: 'Brentford FC', position: 'CB', maxFee: 10e6 },
  { club: 'Getafe CF', position: 'ST', maxFee: 10e6 },
  { club: 'SC Freiburg', position: 'CM', maxFee: 10e6 },
  { club: 'Borussia Dortmund', position: 'LW', maxAge: 21 },
  { club: 'Inter Milan', position: 'GK', maxFee: 30e6 },
  { club: 'Paris Saint-Germain', position: 'CAM', maxFee: 80e6 },
  { club: 'Juventus FC', position: 'LB', maxFee: 40e6, wage: 3e6 },
  { club: 'Arsenal FC', position: 'ST', maxFee: 80e6, sort: 'return_on_investment' },
  { club: 'Liverpool FC', position: 'CB', maxFee: 70e6 },
  { club: 'Atalanta BC', position: 'ST', maxFee: 30e6 },
  { club: 'Chelsea FC', position: 'RW', maxAge: 23 },
  { club: 'Nottingham Forest', position: 'GK', maxFee: 15e6 },
  { club: 'Bayer 04 Leverkusen', position: 'CM', maxFee: 40e6, sort: 'future_transfer_value' },
];
/** The top five's judged: no veteran past his market, no unknown for the club and budget. */
const VETERAN_AGE = 33;
const minValueOf = (c: Case) => Math.max(0.5e6, 0.02 * (c.maxFee ?? 0));

/** The candidate's numbers against a fresh /get_roi_analysis for him and the club, with the case's wage. */
function roiMismatch(bundle: Parameters<typeof roiOf>[0], snapshot: Snapshot, clubId: string, x: RecommendedCandidate, wage: number | null): string | null {
  const r = presentRoi(roiOf(bundle, snapshot, { playerId: x.player_id, clubId, feeEur: null, annualWageEur: wage }), { expectedTransferValue: null, annualWage: wage }, money);
  const pairs: [string, number | null, number | null][] = [
    ['expected_transfer_value', x.expected_transfer_value, r.expected_transfer_value],
    ['future_transfer_value', x.future_transfer_value, r.future_transfer_value.future_transfer_value],
    ['on_field_value', x.on_field_value, r.sportive_impact.on_field_value],
    ['playing_time_percentage', x.playing_time_percentage, r.sportive_impact.playing_time_percentage],
    ['total_value_created', x.total_value_created, r.total_value_created],
    ['return_on_investment', x.return_on_investment, r.return_on_investment],
  ];
  const off = pairs.filter(([, a, b]) => a !== b).map(([k, a, b]) => `${k} ${a} vs ${b}`);
  return off.length ? off.join(', ') : null;
}

const m = (eur: number) => `${(eur / 1e6).toFixed(1)}M`;

function clubId(snapshot: Snapshot, name: string): string {
  const found = [...snapshot.clubs.values()].find((c) => c.name === name);
  if (!found) throw new Error(`no club named ${name}`);
  return found.id;
}

/** Runs every case, printing its top five and its checks; answers how many cases fail a check. */
export function printRecommendCases(bundle: ModelBundle, snapshot: Snapshot): number {
  const roiCache = new Map<string, RoiResult>();
  let failures = 0;
  // every candidate shown: what his fee and his value in three years are against his crowd value, by age
  const shownRatios: { age: number; fee: number; future: number }[] = [];
  for (const c of CASES) {
    const id = clubId(snapshot, c.club);
    const sort = c.sort ?? 'net_value_created';
    const minPlaying = c.minPlaying ?? 25;
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const rec = recommendSignings(bundle, snapshot, {
      clubId: id, position: c.position, maxAge: c.maxAge ?? null, competitions: null, limit: 10, covered: () => true,
      feeAllowed: c.maxFee === undefined ? null : (feeEur) => moneyPair(feeEur, 'EUR', money.rates).amount <= c.maxFee!,
      annualWageEur: c.wage ?? null, minPlayingTime: minPlaying / 100, playsEnough: (share) => Math.round(share * 100) >= minPlaying, sort,
    }, {
      roi: (playerId) => {
        const key = `${playerId}|${id}`;
        let r = roiCache.get(key);
        if (!r) roiCache.set(key, (r = roiOf(bundle, snapshot, { playerId, clubId: id, feeEur: null, annualWageEur: null })));
        return r;
      },
    });
    const answer = presentRecommendation(rec, snapshot, money, { limit: 10, sort, annualWage: c.wage ?? null });
    const cpu = process.cpuUsage(cpu0);
    const wall = performance.now() - t0;
    const limits = [c.maxFee !== undefined ? `fee <= ${m(c.maxFee)}` : '', c.maxAge !== undefined ? `age <= ${c.maxAge}` : '',
      c.wage !== undefined ? `wage ${m(c.wage)}/year` : '', sort !== 'net_value_created' ? `sort ${sort}` : ''].filter(Boolean).join(', ');
    console.log(`\n== ${c.club} ${c.position}${limits ? ` (${limits})` : ''}: ${answer.candidates_considered} considered, ` +
      `${rec.shortlist.length} run exactly and playing ${minPlaying}%+; cold ${wall.toFixed(0)} ms wall, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms cpu`);
    for (const [i, x] of answer.candidates.slice(0, 5).entries()) {
      console.log(`  ${i + 1}. ${x.name} (${x.age ?? '?'}, ${x.club_name ?? '-'}) value ${x.market_value_in_eur === null ? '-' : m(x.market_value_in_eur)}, fee ${m(x.expected_transfer_value)}, ` +
        `plays ${Math.round(x.playing_time_percentage * 100)}%, +${x.increase_in_expected_position.toFixed(2)} places, on-field ${m(x.on_field_value)}, ` +
        `future ${m(x.future_transfer_value)}, created ${m(x.total_value_created)}, net ${m(x.net_value_created)}` +
        `${x.warnings.length ? ` [${x.warnings.map((w) => w.code).join(', ')}]` : ''}`);
    }
    if (answer.candidates[0]) console.log(`     why #1: ${answer.candidates[0].reasons.join(' ')}`);
    for (const x of answer.candidates) {
      if (x.age !== null && x.market_value_in_eur) shownRatios.push({ age: x.age, fee: x.expected_transfer_value_in_eur / x.market_value_in_eur, future: x.future_transfer_value_in_eur / x.market_value_in_eur });
    }
    const problems: string[] = [];
    for (const [i, x] of answer.candidates.entries()) {
      if (Math.round(x.playing_time_percentage * 100) < minPlaying) problems.push(`${x.name} plays under ${minPlaying}%`);
      if (isSideOf(snapshot, id, x.club_id)) problems.push(`${x.name} is at the club or one of its sides`);
      if (c.maxFee !== undefined && x.expected_transfer_value > c.maxFee) problems.push(`${x.name} costs more than the budget`);
      if (c.maxAge !== undefined && (x.age === null || x.age > c.maxAge)) problems.push(`${x.name} is older than ${c.maxAge}`);
      if (x.reasons.length < 1 || x.reasons.length > 3 || !Array.isArray(x.warnings)) problems.push(`${x.name} has no reasons or warnings`);
      const mismatch = roiMismatch(bundle, snapshot, id, x, c.wage ?? null);
      if (mismatch) problems.push(`${x.name} differs from /get_roi_analysis: ${mismatch}`);
      if (i < 5 && x.age !== null && x.age >= VETERAN_AGE) problems.push(`${x.name} (${x.age}) is a veteran in the top five`);
      if (i < 5 && (x.market_value_in_eur ?? 0) < minValueOf(c)) problems.push(`${x.name} (value ${m(x.market_value_in_eur ?? 0)}) is an unknown in the top five`);
    }
    const sorted = [...answer.candidates].sort(compareCandidates(sort));
    if (sorted.some((x, i) => x !== answer.candidates[i])) problems.push('out of order');
    if (problems.length) failures++;
    console.log(`     checks: ${problems.length ? `FAIL ${problems.join('; ')}` : 'PASS'}`);
  }
  console.log('\nevery candidate shown, by age: median fee / crowd value and future value / crowd value (the fee is the cost, the future value what is left in three years)');
  for (const [lo, hi] of [[0, 21], [22, 23], [24, 27], [28, 30], [31, 99]]) {
    const rows = shownRatios.filter((r) => r.age >= lo && r.age <= hi);
    if (rows.length === 0) continue;
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1].toFixed(2);
    console.log(`  age ${`${lo}-${hi === 99 ? '' : hi}`.padEnd(6)} n ${String(rows.length).padStart(3)}  fee/value ${med(rows.map((r) => r.fee))}  future/value ${med(rows.map((r) => r.future))}`);
  }
  console.log(`\n${failures === 0 ? 'PASS' : 'FAIL'} ${CASES.length - failures} of ${CASES.length} cases pass the checks`);
  return failures;
}
