/**
 * The real 2024/25 promoted clubs of the big five leagues, as of 2024-06-30 (issue 29).
 *
 * On the real data with the models as `touchline train` fits them (the impact model refitted on
 * the current code), before and after the 2024/25 clubs are named through the code of
 * `touchline leagues set-clubs --registry-a-ids` (an in-memory database, read back and applied as
 * the server applies it): the forecasts' `season_clubs_assumed` warnings; then for each promoted club
 * squad analysis, sportive impact and ROI (a signing: the best-rated midfielder of another league)
 * answer or fail, with their warnings; and each promoted club's expected place in the forecast against
 * its real 2024/25 final place, beside the learned prior (the mean finish of the league's promoted
 * clubs in the data's seasons).
 *
 * The 2024/25 clubs: the 2023/24 clubs without the relegated ones (the bottom of the 2023/24 table
 * computed from the games: 3 in England, Spain, Italy and France, 2 in Germany, where 16th-placed
 * Bochum won the play-off) plus the promoted clubs below, by their Transfermarkt ids.
 *
 * Reference data, written here with its source: the final places of the promoted clubs in the 2024/25
 * tables, from the league tables of Wikipedia's "2024–25 Premier League", "2024–25 La Liga",
 * "2024–25 Serie A", "2024–25 Bundesliga" and "2024–25 Ligue 1" pages (final standings, May 2025).
 *
 * Run: node --import tsx bench/promoted-2024.ts [--data ../shared/data/transfermarkt] [--world-cache FILE] [--models-cache FILE]
 */
import { openDatabase, migrateToLatest } from '../src/data/db.js';
import { loadSeasonClubs } from '../src/data/season-clubs-store.js';
import { replaceWorld, readMeta } from '../src/data/world-store.js';
import { setSeasonClubs } from '../src/admin/leagues.js';
import { withSeasonClubs, type Snapshot } from '../src/domain/snapshot.js';
import { WORLD_TABLE_ORDER, type WorldData } from '../src/domain/world.js';
import { playerFacts } from '../src/domain/player-facts.js';
import type { ModelBundle } from '../src/valuation/bundle.js';
import { leagueForecastOf, roi, sportiveImpactOf, squadValue } from '../src/valuation/analysis.js';
import { fitImpactModel, ImpactError, squadEvidence } from '../src/valuation/impact/index.js';
import { seasonTable, SQUAD_ONLY_BLEND } from '../src/valuation/league/promoted.js';
import { modelsCacheFromArgs, trainedModels } from './lib/models.js';
import { dataDirFromArgs, loadRealWorld, worldCacheFromArgs } from './lib/world.js';

const AS_OF = '2024-06-30';

/** Promoted for 2024/25: Transfermarkt id, and the real 2024/25 final place (source in the header). */
const PROMOTED: Record<string, { relegated: number; clubs: { id: number; name: string; place: number }[] }> = {
  PREMIER_LEAGUE: { relegated: 3, clubs: [{ id: 1003, name: 'Leicester', place: 18 }, { id: 677, name: 'Ipswich', place: 19 }, { id: 180, name: 'Southampton', place: 20 }] },
  LALIGA: { relegated: 3, clubs: [{ id: 1244, name: 'Leganés', place: 18 }, { id: 366, name: 'Valladolid', place: 20 }, { id: 714, name: 'Espanyol', place: 14 }] },
  SERIE_A: { relegated: 3, clubs: [{ id: 130, name: 'Parma', place: 16 }, { id: 1047, name: 'Como', place: 10 }, { id: 607, name: 'Venezia', place: 19 }] },
  BUNDESLIGA: { relegated: 2, clubs: [{ id: 35, name: 'St. Pauli', place: 14 }, { id: 269, name: 'Holstein Kiel', place: 17 }] },
  LIGUE_1: { relegated: 3, clubs: [{ id: 290, name: 'Auxerre', place: 11 }, { id: 1420, name: 'Angers', place: 14 }, { id: 618, name: 'Saint-Étienne', place: 17 }] },
};

type Outcome = { ok: true; warnings: string[] } | { ok: false; error: string };

function attempt(fn: () => { warnings: { code: string }[] }): Outcome {
  try {
    return { ok: true, warnings: fn().warnings.map((w) => w.code) };
  } catch (err) {
    return { ok: false, error: err instanceof ImpactError ? err.code : String(err) };
  }
}
const show = (o: Outcome) => (o.ok ? `ok [${o.warnings.join(',')}]` : `FAIL ${o.error}`);

async function main(): Promise<void> {
  const t0 = performance.now();
  const { world, dataVersion } = await loadRealWorld(dataDirFromArgs(), true, worldCacheFromArgs());
  const served = trainedModels(world, dataVersion, AS_OF, modelsCacheFromArgs());
  const base = served.snapshot;
  // --promoted-blend squad: the squad alone (the model before the promoted blend), for comparison
  const squadOnly = process.argv.includes('--promoted-blend') && process.argv[process.argv.indexOf('--promoted-blend') + 1] === 'squad';
  const bundle: ModelBundle = { ...served.bundle, impact: fitImpactModel(base, squadOnly ? { promotedBlend: SQUAD_ONLY_BLEND } : {}) };
  console.log(`promoted blend: ${JSON.stringify(bundle.impact!.settings.promotedBlend)}`);
  console.log(`data ${dataVersion}, as of ${AS_OF}: loaded and fitted in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const leagues = Object.keys(PROMOTED);

  console.log('\nbefore the 2024/25 clubs are named:');
  for (const league of leagues) {
    const fc = leagueForecastOf(bundle, base, league);
    console.log(`  ${league.padEnd(15)} ${fc.clubs.length} clubs; warnings: ${fc.warnings.filter((w) => w.code === 'season_clubs_assumed').map((w) => w.message).join(' ') || 'none'}`);
  }

  const handle = await openDatabase({});
  await migrateToLatest(handle.db);
  const empty = Object.fromEntries(WORLD_TABLE_ORDER.map((k) => [k, []])) as unknown as WorldData;
  await replaceWorld(handle.db, { ...empty, competitions: world.competitions, clubs: world.clubs }, { source: 'bench' });
  for (const league of leagues) {
    const games = world.matches.filter((m) => m.competition_id === league && m.season === base.currentSeason);
    const table = seasonTable(games).map((l) => l.club);
    const stay = table.slice(0, table.length - PROMOTED[league].relegated);
    const ids = [...stay.map((c) => base.clubs.get(c)!.registry_a_id!), ...PROMOTED[league].clubs.map((c) => c.id)];
    await setSeasonClubs(handle.db, { competition: league, season: '2024/2025', registryAIds: ids.map(String) });
  }
  const snap: Snapshot = withSeasonClubs(base, await loadSeasonClubs(handle.db), (await readMeta(handle.db)).membership_version ?? 'none');
  await handle.close();

  console.log('\nafter `leagues set-clubs` (season_clubs_assumed warnings left in the five forecasts: ' +
    `${leagues.reduce((a, l) => a + leagueForecastOf(bundle, snap, l).warnings.filter((w) => w.code === 'season_clubs_assumed').length, 0)})`);
  console.log('club                 players stand-ins rating | squad_analysis          sportive_impact         roi                     | expected place  rank  prior  real 2024/25');
  const errors = { model: [] as number[], rank: [] as number[], prior: [] as number[] };
  let failures = 0;
  for (const league of leagues) {
    const fc = leagueForecastOf(bundle, snap, league);
    const n = fc.clubs.length;
    const prior = 1 + bundle.impact!.promoted.leagues[league].finish * (n - 1);
    // a signing: the best-rated midfielder of a league not among these five
    const signing = [...snap.players.values()]
      .filter((p) => p.analysis_available && p.position === 'CM' && !leagues.includes(snap.leagueOfClub.get(playerFacts(snap, p).currentTeamId ?? '') ?? ''))
      .map((p) => ({ p, r: snap.ratings.get(p.id)?.at(-1)?.rating ?? 0 }))
      .sort((a, b) => b.r - a.r || (a.p.id < b.p.id ? -1 : 1))[0].p;
    for (const c of PROMOTED[league].clubs) {
      const club = snap.clubByRegistryA.get(c.id)!;
      const ev = squadEvidence(bundle.impact!, snap, club.id);
      const squad = attempt(() => squadValue(bundle, snap, { clubId: club.id, squad: null }));
      const impact = attempt(() => sportiveImpactOf(bundle, snap, { playerId: signing.id, clubId: club.id }));
      const r = attempt(() => roi(bundle, snap, { playerId: signing.id, clubId: club.id, feeEur: null, annualWageEur: null }));
      failures += [squad, impact, r].filter((o) => !o.ok).length;
      const expected = fc.clubs.find((x) => x.clubId === club.id)!.expectedPosition;
      // the forecast's order (by expected position), as the league backtest scores it
      const rank = fc.clubs.findIndex((x) => x.clubId === club.id) + 1;
      errors.model.push(Math.abs(expected - c.place));
      errors.rank.push(Math.abs(rank - c.place));
      errors.prior.push(Math.abs(prior - c.place));
      console.log(`${c.name.padEnd(20)} ${String(ev.players).padStart(7)} ${String(ev.standIns).padStart(9)} ${ev.standInRating.toFixed(1).padStart(6)} | ` +
        `${show(squad).padEnd(23)} ${show(impact).padEnd(23)} ${show(r).padEnd(23)} | ${expected.toFixed(2).padStart(14)} ${String(rank).padStart(5)} ${prior.toFixed(2).padStart(6)} ${String(c.place).padStart(13)}`);
    }
  }
  const mean = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length;
  console.log(`\nfailures: ${failures}`);
  console.log(`mean |expected place - real place| of the ${errors.model.length} promoted clubs: model ${mean(errors.model).toFixed(2)}, prior (learned mean finish) ${mean(errors.prior).toFixed(2)}`);
  console.log(`mean |forecast rank - real place| of the ${errors.rank.length} promoted clubs: model ${mean(errors.rank).toFixed(2)}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
