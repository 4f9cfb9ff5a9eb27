/**
 * The demo world's market as a football person reads it, beside the real data's: the ages of the 100
 * most valuable players, old players worth a lot, players at a club whose contract has ended, value by
 * age relative to the peak, squad value by table place and for promoted clubs, and what a value
 * became three years on by age (what the future-value model learns). Every figure is
 * computed as the scouting list (/v1/players) shows it (test/helpers/market-figures.ts), the same
 * module test/data/demo-market.test.ts holds the demo world to.
 *
 * Run: node --import tsx bench/demo-world.ts [--world-cache FILE] [--data DIR] [--seed 42] [--as-of 2026-06-30] [--real-as-of 2024-06-30] [--list 30]
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateDemoWorld } from '../src/data/demo/index.js';
import { buildSnapshot, type Snapshot } from '../src/domain/snapshot.js';
import { listedPlayers, marketFigures, type MarketFigures, shapeDistance, valueThreeYearsOn } from '../test/helpers/market-figures.js';
import { dataDirFromArgs, loadRealWorld, worldCacheFromArgs } from './lib/world.js';

const { values: args } = parseArgs({
  options: {
    data: { type: 'string' },
    'world-cache': { type: 'string' },
    seed: { type: 'string', default: '42' },
    'as-of': { type: 'string', default: '2026-06-30' },
    'real-as-of': { type: 'string', default: '2024-06-30' },
    list: { type: 'string', default: '30' },
  },
});

const m = (eur: number): string => (eur >= 1e6 ? `€${(eur / 1e6).toFixed(eur >= 10e6 ? 0 : 1)}M` : `€${Math.round(eur / 1e3)}k`);
const pct = (x: number): string => `${Math.round(x * 100)}%`;
const count = (n: number): string => n.toLocaleString('en-US');

/** The rows of the issue's table and the top of the market, one figure per line. */
function summary(f: MarketFigures): Map<string, string> {
  const at = (age: number) => f.byAge.find((r) => r.age === age);
  const old = f.old30m[0];
  const ended = f.contractEnded[0];
  const promotedRanks = f.promoted.map((p) => `${p.valueRank}/${p.of}`).join(', ') || '-';
  const rows: [string, string][] = [
    ['players at a club (valued)', `${count(f.listed)} (${count(f.valued)})`],
    ['top 100 by value: age p10 / median / p90', `${f.top100.p10} / ${f.top100.median} / ${f.top100.p90}`],
    ['top 100 by value: aged 21-29', `${f.top100.ages.filter((a) => a >= 21 && a <= 29).length}`],
    ['top 100 by value: aged 33+', `${f.top100.aged33Plus}`],
    ['aged 33+ worth €30M+', `${f.old30m.length}${old ? ` (top: ${old.age}, ${m(old.valueEur as number)})` : ''}`],
    ['at a club, contract ended before as-of', `${f.contractEnded.length} of ${count(f.listed)}${ended ? ` (top: ${ended.age}, ${m(ended.valueEur ?? 0)}, ended ${ended.contractEnd})` : ''}`],
    ['peak age (highest median over three ages in a row)', `${f.peakAge}`],
    ['value at 36: p90', at(36) ? m(at(36)!.p90) : '-'],
    ['squad value / league median, places 1-4', f.rankBands[0] ? f.rankBands[0].rel.toFixed(2) : '-'],
    ['squad value / league median, last band', f.rankBands.length ? f.rankBands[f.rankBands.length - 1].rel.toFixed(2) : '-'],
    ['table place vs squad value: Spearman (median of leagues)', median(f.leagues.map((l) => l.spearman)).toFixed(2)],
    ['promoted clubs: squad value rank in league', promotedRanks.length > 60 ? `${promotedRanks.slice(0, 57)}...` : promotedRanks],
    ['promoted clubs: squad value / league median (median)', f.promoted.length ? median(f.promoted.map((p) => p.rel)).toFixed(2) : '-'],
  ];
  return new Map(rows);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
}

function printTable(demo: MarketFigures, real: MarketFigures | null): void {
  const d = summary(demo);
  const r = real ? summary(real) : null;
  const w0 = Math.max(...[...d.keys()].map((k) => k.length));
  const w1 = Math.max(12, ...[...d.values()].map((v) => v.length));
  console.log(`\n${'figure'.padEnd(w0)} | ${`demo ${demo.asOf}`.padEnd(w1)} | ${real ? `real ${real.asOf}` : 'real data'}`);
  console.log(`${'-'.repeat(w0)}-|-${'-'.repeat(w1)}-|-${'-'.repeat(20)}`);
  for (const [k, v] of d) console.log(`${k.padEnd(w0)} | ${v.padEnd(w1)} | ${r?.get(k) ?? '-'}`);
}

function printAges(demo: MarketFigures, real: MarketFigures | null): void {
  console.log('\nvalue by age, median and p90 relative to the peak (n = valued players at a club):');
  console.log(`age | demo: n, median, p90 ${' '.repeat(12)}| ${real ? 'real: n, median, p90' : ''}`);
  const cell = (f: MarketFigures | null, age: number) => {
    const row = f?.byAge.find((x) => x.age === age);
    return row ? `${String(row.n).padStart(4)} ${pct(row.medianRel).padStart(5)} ${pct(row.p90Rel).padStart(5)} (${m(row.p90)})` : '';
  };
  for (let age = 17; age <= 38; age++) console.log(`${String(age).padStart(3)} | ${cell(demo, age).padEnd(33)}| ${cell(real, age)}`);
  if (real) {
    const d = shapeDistance(demo.byAge, real.byAge);
    console.log(`shape distance from the real data, ages 18-36 (mean |log2 ratio|): median ${d.median.toFixed(2)}, p90 ${d.p90.toFixed(2)}`);
  }
}

function printSquads(f: MarketFigures, label: string): void {
  console.log(`\n${label}: squad value / league median by table place: ${f.rankBands.map((b) => `${b.band} ${b.rel.toFixed(2)}`).join(', ')}`);
  for (const l of f.leagues) {
    console.log(`  ${l.competitionId.padEnd(18)} Spearman ${l.spearman.toFixed(2)}; by place: ${l.clubs.map((c) => `${Math.round(c.squadValueEur / 1e6)}${c.promoted ? '*' : ''}`).join(' ')}`);
  }
  console.log('  (€M per club, table order; * promoted)');
}

function printThreeYearsOn(demo: Snapshot, real: Snapshot | null): void {
  console.log('\nvalue three years on / value then, by age then: median (share halved or worse):');
  const d = valueThreeYearsOn(demo);
  const r = real ? valueThreeYearsOn(real) : null;
  for (const [i, row] of d.entries()) {
    const cell = (x: (typeof d)[number] | undefined) => (x ? `${x.median.toFixed(2)} (${pct(x.halved)})`.padEnd(14) : '-');
    console.log(`  ${row.band.padEnd(5)} demo ${cell(row)} real ${cell(r?.[i])}`);
  }
}

function printList(snapshot: Snapshot, n: number): void {
  if (n <= 0) return;
  const players = listedPlayers(snapshot).filter((p) => p.valueEur !== null).sort((a, b) => (b.valueEur as number) - (a.valueEur as number) || a.id.localeCompare(b.id));
  console.log(`\ndemo world, the ${n} most valuable players:`);
  for (const p of players.slice(0, n)) {
    const league = snapshot.leagueOfClub.get(p.clubId) ?? 'abroad';
    console.log(`  ${m(p.valueEur as number).padStart(6)} ${String(p.age).padStart(2)} ${p.name.padEnd(26)} ${(snapshot.clubs.get(p.clubId)?.name ?? '').padEnd(24)} ${league.padEnd(16)} contract ${p.contractEnd ?? '-'}`);
  }
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const world = generateDemoWorld({ seed: Number(args.seed), asOf: args['as-of']! });
  const demoSnapshot = buildSnapshot(world, args['as-of']!, 'demo');
  const demo = marketFigures(demoSnapshot);
  console.log(`demo world: seed ${args.seed}, as of ${args['as-of']}, generated and measured in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  let real: MarketFigures | null = null;
  let realSnapshot: Snapshot | null = null;
  const dir = dataDirFromArgs();
  const cache = worldCacheFromArgs();
  if ((cache && existsSync(cache)) || existsSync(join(dir, 'players.csv.gz'))) {
    const { world: realWorld, dataVersion } = await loadRealWorld(dir, true, cache);
    realSnapshot = buildSnapshot(realWorld, args['real-as-of']!, dataVersion);
    real = marketFigures(realSnapshot);
    console.log(`real data: as of ${args['real-as-of']}, version ${dataVersion}`);
  } else {
    console.log(`real data absent (no players.csv.gz in ${dir}, no --world-cache): demo figures only`);
  }
  printTable(demo, real);
  printAges(demo, real);
  printSquads(demo, 'demo');
  if (real) printSquads(real, 'real');
  printThreeYearsOn(demoSnapshot, realSnapshot);
  printList(demoSnapshot, Number(args.list));
}

await main();
