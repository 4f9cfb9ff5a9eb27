/**
 * Fingerprint of everything seeded: the demo world, the models trained on it, and league
 * simulations and forecasts over it. A pure restructuring (moving code, one random module, one memo
 * per snapshot) must leave every hash printed here unchanged: run it before and after and compare.
 *
 * Run: node --import tsx bench/structure-fingerprint.ts [--seed 42] [--as-of 2026-06-30]
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateDemoWorld } from '../src/data/demo/index.js';
import { buildSnapshot } from '../src/domain/snapshot.js';
import type { WorldData } from '../src/domain/world.js';
import { saveBundle } from '../src/models/artifacts.js';
import { trainBundleWithRatings } from '../src/valuation/bundle.js';
import { predictFee } from '../src/valuation/fee/index.js';
import { predictFuture } from '../src/valuation/future/index.js';
import { sportiveImpact } from '../src/valuation/impact/index.js';
import { leagueForecast } from '../src/valuation/league/forecast.js';
import { leagueInputFromStrength, simulateLeague } from './lib/simulate-league.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const sha = (s: string | Buffer) => createHash('sha256').update(s).digest('hex').slice(0, 16);
const line = (name: string, value: unknown) => console.log(`${name.padEnd(34)} ${sha(typeof value === 'string' ? value : JSON.stringify(value))}`);

const seed = Number(arg('--seed', '42'));
const asOf = arg('--as-of', '2026-06-30');

const world = generateDemoWorld({ seed, asOf });
line('demo world', world);
for (const [table, rows] of Object.entries(world)) line(`  world.${table}`, rows);

const dataVersion = 'fingerprint';
const { bundle, ratings } = trainBundleWithRatings(buildSnapshot(world, asOf, dataVersion), {});
// Fit times are the clock's, not the model's.
const stable = { ...bundle, stats: { ...bundle.stats, fitMs: { rating: 0, fee: 0, future: 0, impact: 0 } } };
const dir = mkdtempSync(join(tmpdir(), 'touchline-fingerprint-'));
try {
  saveBundle(dir, stable);
  for (const f of readdirSync(dir).sort()) line(`artifact ${f.length > 24 ? `${f.slice(0, 21)}...` : f}`, readFileSync(join(dir, f)));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
for (const part of ['rating', 'fee', 'future', 'impact', 'stats'] as const) line(`  bundle.${part}`, stable[part]);
line('model ratings', ratings);

const rated: WorldData = { ...world, ratings: [...world.ratings.filter((r) => r.source !== 'model'), ...ratings] };
const snapshot = buildSnapshot(rated, asOf, dataVersion, bundle.version);
const impact = bundle.impact;
if (!impact) throw new Error('the demo world fitted no impact model');

const leagues = [...snapshot.analysisClubsOfLeague.keys()].sort();
for (const league of leagues) line(`forecast ${league}`, leagueForecast(impact, snapshot, league));
for (const league of leagues.slice(0, 2)) {
  const clubs = [...(snapshot.analysisClubsOfLeague.get(league) ?? [])].sort();
  line(`simulation ${league}`, simulateLeague(leagueInputFromStrength(impact.strength, clubs), { seed: 7, runs: 2000 }));
}

const players = [...snapshot.players.keys()].sort().filter((_, i) => i % 97 === 0).slice(0, 12);
const clubs = [...snapshot.squads.keys()].sort();
const fees = players.map((playerId, i) => predictFee(bundle.fee, snapshot, { playerId, targetClubId: clubs[i % clubs.length] }));
line('fees (12 players)', fees);
const futures = players.map((playerId, i) => predictFuture(bundle.future, bundle.rating, snapshot, { playerId, clubId: clubs[i % clubs.length], baselineValueEur: fees[i].feeEur }));
line('future values (12 players)', futures);
const impacts = players.slice(0, 4).map((playerId, i) => {
  try {
    return sportiveImpact(impact, snapshot, { playerId, clubId: clubs[(i * 7) % clubs.length] });
  } catch (e) {
    return { error: String(e) };
  }
});
line('sportive impacts (4 players)', impacts);
