/**
 * Current ability against the ratings EA published after the as-of date. Fits the rating model on the
 * real data as of 2024-06-30 (EA FC 24 released, EA FC 25 not yet) and compares our ratings of the
 * 2023/24 season, as served, with EA FC 25:
 * - the update's cross-validated figures (pairs of FC 24 and FC 25, each player rated by the fold
 *   model that did not see him): FC 24 alone against ours;
 * - the served ratings: on the players with both editions (FC 24 alone, ours), on every FC 25
 *   player we rate, and on those without an FC 24 rating (the features alone rate them);
 * - how many served ratings equal FC 25 exactly (a copy would show here);
 * - a few known players, and with --impact their playing time at their club (the impact model
 *   fitted on these ratings, as `touchline train` does);
 * - the roles of well-known players (test/fixtures/known-roles.json, the role a football analyst
 *   gives each) against the roles we serve: how many match, and each miss.
 *
 * Run: node --import tsx bench/ratings.ts --world-cache /tmp/FILE.json [--as-of 2024-06-30] [--impact]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { buildSnapshot } from '../src/domain/snapshot.js';
import { seasonOf } from '../src/domain/season.js';
import type { RatingRow } from '../src/domain/world.js';
import { meanAbsoluteError, spearman } from '../src/valuation/ml/metrics.js';
import { fitRatingModel, rateAll } from '../src/valuation/rating/index.js';
import { sportiveImpact } from '../src/valuation/impact/impact.js';
import { fitImpactModel } from '../src/valuation/impact/model.js';
import { withModelRatings } from '../src/valuation/impact/ratings.js';
import { clubAt, featureIndex } from '../src/valuation/features/index.js';
import { dataDirFromArgs, loadRealWorld, worldCacheFromArgs } from './lib/world.js';

const { values: args } = parseArgs({
  options: { data: { type: 'string' }, 'world-cache': { type: 'string' }, 'as-of': { type: 'string', default: '2024-06-30' }, impact: { type: 'boolean', default: false } },
});
const AS_OF = args['as-of']!;
const KNOWN = [
  'Kobbie Mainoo', 'Lamine Yamal', 'Cole Palmer', 'Jude Bellingham', 'Florian Wirtz', 'Pau Cubarsí', 'Warren Zaïre-Emery', 'Alejandro Garnacho',
  'Erling Haaland', 'Kylian Mbappé', 'Harry Kane', 'Toni Kroos', 'Marco Reus', 'Granit Xhaka', 'Dani Olmo',
  'Scott McTominay', 'Christian Eriksen', 'Casemiro',
];

const f3 = (x: number) => x.toFixed(3);

async function main(): Promise<void> {
  const { world, dataVersion } = await loadRealWorld(dataDirFromArgs(), true, worldCacheFromArgs());
  const season = seasonOf(AS_OF);
  const later = new Map<string, RatingRow>();
  const before = new Map<string, RatingRow>();
  for (const r of world.ratings) {
    if (r.source !== 'ea') continue;
    if (r.season === season + 1) later.set(r.player_id, r);
    if (r.season === season) before.set(r.player_id, r);
  }
  if (later.size === 0) {
    console.log(`no EA ratings of season ${season + 1} in the data: nothing to compare with`);
    return;
  }
  const snapshot = buildSnapshot(world, AS_OF, dataVersion);
  const t0 = performance.now();
  const artifact = fitRatingModel(snapshot, { seed: 0 });
  const rows = rateAll(artifact, snapshot);
  console.log(`rating model as of ${AS_OF}: fitted and rated in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${artifact.update?.folds.length ?? 0} fold models, ` +
    `artifact ${(JSON.stringify(artifact).length / 1e6).toFixed(1)} MB`);
  const c = artifact.calibration;
  console.log(`features only (target ${c.target}): ${c.rows} rows read on their release, held-out ${c.heldOutPlayers} players: R2 ${f3(c.heldOutR2)}, MAE ${f3(c.heldOutMae)}`);
  const cv = artifact.calibration.update;
  if (cv) {
    console.log(`update, cross-validated (5 folds by player): ${cv.pairs} pairs of ${cv.players} players, evidence over ${artifact.update!.horizonDays} days`);
    console.log(`  EA ${season} alone:  Spearman ${f3(cv.anchorSpearman)}  MAE ${f3(cv.anchorMae)}`);
    console.log(`  ours (out of fold): Spearman ${f3(cv.spearman)}  MAE ${f3(cv.mae)}`);
  } else console.log('no update model (too few pairs)');

  const ours = new Map(rows.filter((r) => r.season === season).map((r) => [r.player_id, r]));
  const both = [...later.values()].filter((r) => before.has(r.player_id) && ours.has(r.player_id));
  const truth = both.map((r) => r.rating);
  console.log(`served ratings of ${season}/${season + 1} as of ${AS_OF} against EA's next edition:`);
  console.log(`  players with both editions (${both.length}): EA alone Spearman ${f3(spearman(truth, both.map((r) => before.get(r.player_id)!.rating)))} ` +
    `MAE ${f3(meanAbsoluteError(truth, both.map((r) => before.get(r.player_id)!.rating)))}; ours Spearman ${f3(spearman(truth, both.map((r) => ours.get(r.player_id)!.rating)))} ` +
    `MAE ${f3(meanAbsoluteError(truth, both.map((r) => ours.get(r.player_id)!.rating)))}`);
  const all = [...later.values()].filter((r) => ours.has(r.player_id));
  const only = all.filter((r) => !before.has(r.player_id));
  for (const [name, set] of [['every player of the next edition we rate', all], ['without an earlier edition (features only)', only]] as const) {
    console.log(`  ${name} (${set.length}): ours Spearman ${f3(spearman(set.map((r) => r.rating), set.map((r) => ours.get(r.player_id)!.rating)))} ` +
      `MAE ${f3(meanAbsoluteError(set.map((r) => r.rating), set.map((r) => ours.get(r.player_id)!.rating)))}`);
  }
  const equal = all.filter((r) => ours.get(r.player_id)!.rating === r.rating).length;
  const equalBefore = both.filter((r) => before.get(r.player_id)!.rating === r.rating).length;
  console.log(`  equal to the next edition: ours ${equal} of ${all.length} (${((100 * equal) / all.length).toFixed(1)}%); EA alone ${equalBefore} of ${both.length} (${((100 * equalBefore) / both.length).toFixed(1)}%)`);
  const basis = [...ours.values()].reduce((m, r) => m.set(r.basis ?? 'null', (m.get(r.basis ?? 'null') ?? 0) + 1), new Map<string, number>());
  console.log(`  basis of the ${ours.size} served ratings: ${[...basis].map(([k, n]) => `${k} ${n}`).join(', ')}`);

  const rated = withModelRatings(snapshot, rows);
  const impact = args.impact ? fitImpactModel(rated, {}) : null;
  const idx = featureIndex(snapshot);
  const playingTime = (playerId: string): string => {
    const club = clubAt(idx, playerId, AS_OF);
    if (!impact || !club) return '';
    try {
      return ` | playing time at ${snapshot.clubs.get(club)?.name}: ${sportiveImpact(impact, rated, { playerId, clubId: club }).playingTimePercentage.toFixed(2)}`;
    } catch (e) {
      return ` | playing time: ${(e as { code?: string }).code ?? 'error'}`;
    }
  };
  console.log(`known players (EA ${season} -> ours as of ${AS_OF} -> EA ${season + 1}):`);
  const byName = new Map([...snapshot.players.values()].map((p) => [p.name, p]));
  for (const name of KNOWN) {
    const p = byName.get(name);
    if (!p) {
      console.log(`  ${name.padEnd(22)} not in the data`);
      continue;
    }
    const o = ours.get(p.id);
    console.log(`  ${name.padEnd(22)} ${String(before.get(p.id)?.rating ?? '-').padStart(3)} -> ${o ? `${String(o.rating).padStart(3)} (${o.basis})` : '  -'} -> ${String(later.get(p.id)?.rating ?? '-').padStart(3)}${playingTime(p.id)}`);
  }
  printRoles(snapshot, rows);
}

interface KnownRole { registry_a_id: number; name: string; role: string }

/** Roles as served (the latest season rated by the as-of date) against an analyst's. */
function printRoles(snapshot: ReturnType<typeof buildSnapshot>, rows: readonly RatingRow[]): void {
  const known = (JSON.parse(readFileSync(new URL('../test/fixtures/known-roles.json', import.meta.url), 'utf8')) as { players: KnownRole[] }).players;
  const latest = new Map<string, RatingRow>();
  for (const r of rows) if (r.season <= seasonOf(AS_OF)) latest.set(r.player_id, r);
  let hits = 0;
  const misses: string[] = [];
  for (const k of known) {
    const p = snapshot.playerByRegistryA.get(k.registry_a_id);
    const r = p ? latest.get(p.id) : undefined;
    if (r?.best_role === k.role) hits++;
    else misses.push(`  ${k.name.padEnd(24)} expected ${k.role.padEnd(24)} got ${r ? `${r.best_role} (${r.position})` : 'no rating'}`);
  }
  console.log(`roles as of ${AS_OF}: ${hits} of ${known.length} known players match the analyst's role`);
  for (const m of misses) console.log(m);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
