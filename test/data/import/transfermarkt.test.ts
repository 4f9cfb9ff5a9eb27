import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { openDatabase, migrateToLatest, type DatabaseHandle } from '../../../src/data/db.js';
import { importTransfermarkt, type ImportSummary } from '../../../src/data/import/transfermarkt.js';
import { silentReporter, type ImportReporter } from '../../../src/data/import/reporter.js';
import { loadWorld, readMeta } from '../../../src/data/world-store.js';
import { stableId } from '../../../src/domain/ids.js';
import { ROLES } from '../../../src/domain/roles.js';
import type { WorldData } from '../../../src/domain/world.js';

const FIXTURE = resolve(import.meta.dirname, '../../fixtures/transfermarkt');
const EA = { eaRatings: join(FIXTURE, 'ea/male_players.csv'), eaMapping: join(FIXTURE, 'ea/tm_to_eafc25.csv') };
const work = mkdtempSync(join(tmpdir(), 'touchline-import-'));

/** A copy of the fixture with some tables gzipped (`<table>.csv.gz`) and some left out. */
function fixtureCopy(name: string, opts: { gzip?: string[]; omit?: string[]; edit?: (table: string, text: string) => string } = {}): string {
  const dir = join(work, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(FIXTURE)) {
    if (!f.endsWith('.csv')) continue;
    const table = f.slice(0, -4);
    if (opts.omit?.includes(table)) continue;
    if (!opts.gzip?.includes(table) && !opts.edit) {
      copyFileSync(join(FIXTURE, f), join(dir, f));
      continue;
    }
    const text = (opts.edit ?? ((_t, s) => s))(table, readFileSync(join(FIXTURE, f), 'utf8'));
    if (opts.gzip?.includes(table)) writeFileSync(join(dir, `${f}.gz`), gzipSync(text));
    else writeFileSync(join(dir, f), text);
  }
  return dir;
}

let handle: DatabaseHandle;
let first: ImportSummary;
let world: WorldData;
const P = (tm: number) => stableId('P', `tm:player:${tm}`);
const C = (tm: number) => stableId('C', `tm:club:${tm}`);

async function fresh(): Promise<DatabaseHandle> {
  const h = await openDatabase({});
  await migrateToLatest(h.db);
  return h;
}

before(async () => {
  handle = await fresh();
  const dir = fixtureCopy('mixed', { gzip: ['players', 'player_valuations', 'games'] });
  first = await importTransfermarkt(handle.db, dir, { ...EA, rejectsPath: join(work, 'rejects.csv') });
  world = await loadWorld(handle.db);
});

after(async () => {
  await handle?.close();
  rmSync(work, { recursive: true, force: true });
});

const stepsOf = (tm: number) =>
  world.career_steps
    .filter((s) => s.player_id === P(tm))
    .sort((a, b) => a.start_date.localeCompare(b.start_date))
    .map((s) => [s.club_id, s.start_date, s.end_date, s.is_loan, s.parent_club_id]);

describe('import transfermarkt: the fixture', () => {
  test('reads .csv and .csv.gz files and reports every table', () => {
    assert.equal(first.status, 'imported');
    assert.ok(first.tables.players.file?.endsWith('players.csv.gz'));
    assert.ok(first.tables.transfers.file?.endsWith('transfers.csv'));
    assert.deepEqual(
      Object.fromEntries(Object.entries(first.tables).map(([t, s]) => [t, [s.read, s.loaded, s.rejected]])),
      {
        competitions: [11, 9, 2], clubs: [8, 5, 3], players: [15, 11, 4], transfers: [22, 16, 6], player_valuations: [27, 23, 4],
        games: [11, 7, 4], club_games: [5, 3, 2], game_lineups: [7, 4, 3], appearances: [11, 8, 3], ea_ratings: [6, 5, 1], ea_mapping: [4, 2, 2],
      },
    );
  });

  test('counts and writes bad rows by reason', () => {
    assert.deepEqual(first.tables.players.reasons, { bad_date: 1, bad_number: 1, duplicate: 1, missing_field: 1 });
    assert.deepEqual(first.tables.transfers.reasons, { bad_date: 1, bad_number: 1, duplicate: 1, missing_field: 1, unknown_club: 1, unknown_player: 1 });
    assert.deepEqual(first.tables.clubs.reasons, { bad_number: 1, column_count: 1, duplicate: 1 });
    assert.deepEqual(first.tables.games.reasons, { bad_date: 1, duplicate: 1, unknown_club: 1, unknown_competition: 1 });
    // Eli Evans, born 2001, is 30 in the mapping's FC 25 row: a namesake's rating, not his.
    assert.deepEqual(first.tables.ea_mapping.reasons, { age_mismatch: 1, unknown_player: 1 });
    assert.equal(first.rejected_total, 34);
    const lines = readFileSync(join(work, 'rejects.csv'), 'utf8').trim().split('\n');
    assert.equal(lines[0], 'table,line,reason,detail,raw');
    assert.equal(lines.length, 35);
    assert.ok(lines.includes('players,13,bad_date,"date_of_birth ""1990-13-45""","20,Bad,Birthday,Bad Birthday,2023,1001,bad-birthday,England,Ely,England,1990-13-45,Centre-Back,Defender,right,190,,,,https://example.org/p/20,GB1,Northfield Rovers,100000,100000"'));
  });

  test('competitions: ids from names, collisions get the country, types and tiers mapped', () => {
    const comp = Object.fromEntries(world.competitions.map((c) => [c.registry_a_code ?? c.id, [c.id, c.type, c.tier, c.country]]));
    assert.deepEqual(comp, {
      GB1: ['PREMIER_LEAGUE', 'DOMESTIC_LEAGUE', 1, 'England'],
      GB2: ['CHAMPIONSHIP', 'DOMESTIC_LEAGUE', 2, 'England'],
      FAC: ['FA_CUP', 'DOMESTIC_CUP', null, 'England'],
      GBCS: ['COMMUNITY_SHIELD', 'DOMESTIC_SUPERCUP', null, 'England'],
      CL: ['UEFA_CHAMPIONS_LEAGUE', 'INTERNATIONAL_CUP', null, null],
      USC: ['UEFA_SUPER_CUP', 'INTERNATIONAL_SUPERCUP', null, null],
      RU1: ['PREMIER_LIGA_RUSSIA', 'DOMESTIC_LEAGUE', 1, 'Russia'],
      UKR1: ['PREMIER_LIGA_UKRAINE', 'DOMESTIC_LEAGUE', 1, 'Ukraine'],
      XFR: ['SUMMER_FRIENDLY_CUP', 'OTHER', null, 'England'],
      // Only because a national-team appearance is in the data.
      NATIONAL_TEAM: ['NATIONAL_TEAM', 'NATIONAL_TEAM', null, null],
    });
    assert.equal(world.competitions.find((c) => c.id === 'PREMIER_LEAGUE')?.name, 'Premier League');
  });

  test('clubs: derived ids, clubs named only in transfers or games are created, pseudo-clubs are not clubs', () => {
    const clubs = Object.fromEntries(world.clubs.map((c) => [c.registry_a_id, [c.id, c.name, c.country, c.is_national_team]]));
    assert.deepEqual(clubs[1001], [C(1001), 'Northfield Rovers', 'England', false]);
    assert.deepEqual(clubs[5555], [C(5555), 'Harbour FC', null, false]);
    assert.deepEqual(clubs[6666], [C(6666), 'Lakeside SC', null, false]);
    assert.deepEqual(clubs[4444], [C(4444), 'Village Green', null, false]);
    assert.deepEqual(clubs[9001], [C(9001), 'Russia', 'Russia', true]);
    for (const pseudo of [515, 123, 3333, 7777]) assert.equal(clubs[pseudo], undefined);
    assert.equal(world.clubs.length, 10);
  });

  test('club seasons from league games; matches from games with a score (club_games fills a missing one)', () => {
    const seasons = world.club_seasons.map((s) => `${s.club_id === C(1001) ? 'N' : s.club_id}:${s.season}:${s.competition_id}`);
    assert.ok(seasons.includes(`N:2023:PREMIER_LEAGUE`));
    assert.ok(seasons.includes(`N:2022:PREMIER_LEAGUE`));
    const pl2023 = world.club_seasons.filter((s) => s.season === 2023 && s.competition_id === 'PREMIER_LEAGUE').map((s) => s.club_id).sort();
    assert.deepEqual(pl2023, [C(1001), C(1002)].sort());
    assert.equal(world.club_seasons.length, 8);
    assert.deepEqual(
      world.matches.map((m) => [m.id, m.competition_id, m.season, m.home_goals, m.away_goals]).sort(),
      [
        ['tm-game-1', 'PREMIER_LEAGUE', 2023, 2, 1], ['tm-game-11', 'PREMIER_LIGA_RUSSIA', 2023, 2, 2], ['tm-game-2', 'PREMIER_LEAGUE', 2023, 0, 0],
        ['tm-game-3', 'CHAMPIONSHIP', 2023, 1, 3], ['tm-game-4', 'PREMIER_LEAGUE', 2022, 3, 3], ['tm-game-5', 'FA_CUP', 2022, 1, 0],
        ['tm-game-6', 'FA_CUP', 2022, 4, 0],
      ],
    );
  });

  test('players: names, nationality fallbacks, positions, foot, bio-only rows, analysis rule', () => {
    const p = Object.fromEntries(world.players.map((x) => [x.registry_a_id, x]));
    assert.deepEqual(
      { ...p[10] },
      {
        id: P(10), registry_a_id: 10, registry_b_id: 500010, name: 'Adam Archer', first_name: 'Adam', last_name: 'Archer', alias: null, nationality: 'England',
        birth_date: '1995-03-10', height_cm: 185, foot: 'Right', position: 'ST', national_team_id: null, analysis_available: true,
      },
    );
    assert.deepEqual([p[15].first_name, p[15].last_name, p[15].name, p[15].nationality, p[15].position, p[15].foot], ['', 'Fabinho', 'Fabinho', 'Brazil', 'CM', 'Both']);
    assert.equal(p[15].analysis_available, false, 'one market value only');
    assert.deepEqual([p[16].nationality, p[16].birth_date, p[16].position, p[16].analysis_available], ['Unknown', null, 'CF', false]);
    assert.deepEqual([p[17].position, p[14].position, p[11].position, p[13].position], ['CDM', 'GK', 'LB', 'RW']);
    assert.equal(p[18].national_team_id, C(9001));
    assert.equal(world.players.length, 11);
  });

  test('careers: loans and loan returns, a current loan, fee text loan, pseudo-clubs end a step', () => {
    assert.deepEqual(stepsOf(11), [
      [C(1001), '2018-07-01', '2019-08-01', false, null],
      [C(1004), '2019-08-01', '2020-06-30', true, C(1001)],
      [C(1001), '2020-06-30', '2021-07-01', false, null],
      [C(1002), '2021-07-01', null, false, null],
    ]);
    assert.deepEqual(stepsOf(12), [
      [C(1001), '2022-07-01', '2023-08-15', false, null],
      [C(1003), '2023-08-15', null, true, C(1001)],
    ]);
    assert.deepEqual(stepsOf(19), [
      [C(1001), '2020-07-01', '2023-01-10', false, null],
      [C(1004), '2023-01-10', null, true, C(1001)],
    ]);
    assert.deepEqual(stepsOf(13), [
      [C(1002), '2016-07-01', '2020-01-15', false, null],
      [C(6666), '2020-01-15', '2022-06-30', false, null],
    ]);
    assert.deepEqual(stepsOf(16), [], 'retired with no earlier trace');
  });

  test('careers: the snapshot club from the start of his last season, never from a valuation (its club is the club at scrape time)', () => {
    assert.equal(first.current_season, '2023/2024', 'no as-of given: the latest last_season of players.csv');
    assert.deepEqual(stepsOf(17), [
      [C(1004), '2019-07-01', '2023-07-01', false, null],
      [C(1002), '2023-07-01', null, false, null],
    ]);
    assert.deepEqual(stepsOf(14), [[C(1004), '2023-07-01', null, false, null]], 'no transfers: the start of his last season; a 0-minute game vouches for nothing');
    assert.deepEqual(stepsOf(18), [[C(2001), '2023-07-01', null, false, null]], 'national-team games are no club evidence');
    assert.deepEqual(stepsOf(10), [[C(1001), '2015-07-01', null, false, null]], 'no step before his first move without a game there');
  });

  test('careers: a last season before the current one ends the last step; appearances vouch; a late move ends with its season', () => {
    assert.deepEqual(stepsOf(15), [[C(1001), '2022-07-01', '2023-06-30', false, null]], 'no transfers, last season 2022/23');
    assert.deepEqual(stepsOf(22), [
      [C(1003), '2019-09-01', '2020-07-01', false, null],
      [C(1002), '2020-07-01', '2022-07-14', false, null],
      [C(6666), '2022-07-14', '2023-06-30', false, null],
    ]);
    assert.deepEqual(first.careers, {
      snapshot_club_from_start_of_last_season: 4,
      ended_at_end_of_last_season: 1,
      step_started_at_an_appearance: 1,
      late_move_ended_at_end_of_its_season: 1,
    });
    const current = new Set(world.career_steps.filter((s) => s.end_date === null).map((s) => s.player_id));
    for (const tm of [13, 15, 16, 22]) assert.ok(!current.has(P(tm)), `player ${tm} of an earlier last season is in no current squad`);
  });

  test('transfers: fee 0 and unknown kept apart, loans flagged, pseudo-clubs have no club id', () => {
    const t = world.transfers.filter((x) => x.player_id === P(11)).sort((a, b) => a.date.localeCompare(b.date));
    assert.deepEqual(t.map((x) => [x.fee_eur, x.is_loan]), [[2000000, false], [0, true], [null, true], [8000000, false]]);
    const drake = world.transfers.filter((x) => x.player_id === P(13)).sort((a, b) => a.date.localeCompare(b.date));
    assert.deepEqual(drake.map((x) => [x.from_club_id, x.to_club_id, x.fee_eur, x.is_loan]), [
      [C(5555), C(1002), 0, false],
      [C(1002), C(6666), null, false],
      [C(6666), null, null, false],
    ]);
    assert.equal(world.transfers.find((x) => x.player_id === P(19) && x.date === '2023-01-10')?.fee_eur, 0);
    assert.equal(world.transfers.length, 16);
  });

  test('contracts: for active players at their current club (the parent club for a loanee)', () => {
    const c = Object.fromEntries(world.contracts.map((x) => [x.player_id, [x.club_id, x.signed_date, x.end_date, x.agency_name]]));
    assert.deepEqual(c[P(10)], [C(1001), '2015-07-01', '2026-06-30', 'Archer Sports']);
    assert.deepEqual(c[P(12)], [C(1001), '2022-07-01', '2027-06-30', 'Cole & Co']);
    assert.deepEqual(c[P(14)], [C(1004), '2023-07-01', '2024-06-30', null], 'a league code as agent name is no agency');
    assert.deepEqual(c[P(17)], [C(1002), '2023-07-01', null, null], 'his later value row has him at another club: the 2028 contract may be that club\'s');
    assert.equal(c[P(13)], undefined, 'not active in the snapshot');
    assert.equal(c[P(15)], undefined, 'not active in the snapshot');
  });

  test("market values carry his club by his career on their date, not the file's club (scrape time)", () => {
    const v = (tm: number) => world.market_values.filter((m) => m.player_id === P(tm)).sort((a, b) => a.date.localeCompare(b.date)).map((x) => [x.date, x.value_eur, x.club_id]);
    assert.deepEqual(v(17), [['2020-01-01', 600000, C(1004)], ['2023-09-01', 3500000, C(1002)], ['2024-01-01', 4000000, C(1002)]]);
    assert.deepEqual(v(10), [['2014-12-01', 1000000, null], ['2016-06-01', 8000000, C(1001)], ['2023-12-15', 30000000, C(1001)]]);
    assert.deepEqual(v(22), [['2021-12-01', 800000, C(1002)], ['2023-12-01', 500000, null]], 'after his last step ended');
    assert.deepEqual(first.tables.player_valuations.notes, { club_unknown_kept_without_club: 1, club_none_on_that_date_by_career: 9, club_set_from_career: 1 });
    assert.equal(world.market_values.length, 23);
  });

  test('appearances from appearances + game_lineups: minutes > 0 counted, starts from the starting lineup, national team', () => {
    const a = world.appearances.map((x) => [x.player_id, x.season, x.competition_id, x.club_id, x.appearances, x.starts, x.minutes]).sort();
    assert.deepEqual(a, [
      [P(10), 2023, 'PREMIER_LEAGUE', C(1001), 2, 2, 180],
      [P(11), 2023, 'PREMIER_LEAGUE', C(1002), 2, 1, 115],
      [P(12), 2023, 'CHAMPIONSHIP', C(1003), 1, 0, 60],
      [P(18), 2023, 'NATIONAL_TEAM', C(9001), 1, 0, 90],
      [P(22), 2019, 'CHAMPIONSHIP', C(1003), 1, 0, 90],
    ].sort());
  });

  test('roles catalogue and EA calibration ratings', () => {
    assert.deepEqual(world.roles.map((r) => r.id), ROLES.map((r) => r.role));
    const r = world.ratings.map((x) => [x.player_id, x.season, x.rating, x.potential, x.position, x.best_role, x.source]).sort();
    assert.deepEqual(r, [
      // Roles from the FC 24 attributes (all equal here: the first role of the position, the right foot at left back
      // an inverted full back); FC 25 keeps the FC 24 role where it fits.
      [P(10), 2023, 80, 80, 'ST', 'FALSE_NINE', 'ea'],
      [P(10), 2024, 82, 82, 'ST', 'FALSE_NINE', 'ea'],
      [P(11), 2023, 74, 74, 'LB', 'INVERTED_FULL_BACK', 'ea'],
      [P(12), 2023, 73, 73, 'CM', 'BALL_WINNING_MIDFIELDER', 'ea'],
      [P(12), 2024, 75, 75, 'CM', 'BALL_WINNING_MIDFIELDER', 'ea'],
    ].sort());
    assert.deepEqual(first.ea, { fc24_rows: 5, fc24_matched: 3, match_rate: 0.6, by_method: { mapping: 2, name_birth_year: 1 }, fc25_rows: 2, fc25_loaded: 2 });
    const byTm = Object.fromEntries(world.players.map((p) => [p.registry_a_id, p.registry_b_id]));
    assert.deepEqual([byTm[10], byTm[11], byTm[12], byTm[13]], [500010, 500011, 500012, null]);
  });

  test('EA attribute profiles of the matched players: FC 24 in full, FC 25 face stats', () => {
    const rows = world.player_attributes.map((a) => [a.player_id, a.season, a.source]).sort();
    assert.deepEqual(rows, [[P(10), 2023, 'ea'], [P(10), 2024, 'ea'], [P(11), 2023, 'ea'], [P(12), 2023, 'ea'], [P(12), 2024, 'ea']].sort());
    const fc24 = JSON.parse(world.player_attributes.find((a) => a.player_id === P(10) && a.season === 2023)!.attributes);
    assert.equal(Object.keys(fc24).length, 36, 'every FC 24 attribute, work rates, weak foot and skill moves');
    assert.equal(fc24.pace, 70);
    assert.equal(fc24.attacking_work_rate, 3);
    assert.equal(fc24.defensive_work_rate, 2);
    assert.equal(fc24.weak_foot, 3);
    const fc25 = JSON.parse(world.player_attributes.find((a) => a.player_id === P(10) && a.season === 2024)!.attributes);
    assert.deepEqual(fc25, { pace: 80, shooting: 82, passing: 70, dribbling: 78, defending: 40, physicality: 75 });
  });

  test('meta records the source and its hash', async () => {
    const meta = await readMeta(handle.db);
    assert.equal(meta.source, 'transfermarkt');
    assert.equal(meta.source_hash, first.source_hash);
    assert.equal(meta.data_version, first.data_version);
  });
});

describe('import transfermarkt: re-imports and failures', () => {
  test('the same files again: unchanged, nothing replaced', async () => {
    const dir = join(work, 'mixed');
    const again = await importTransfermarkt(handle.db, dir, { ...EA });
    assert.equal(again.status, 'unchanged');
    assert.equal((await readMeta(handle.db)).data_version, first.data_version);
  });

  test('absent tables are skipped with a line; ids stay the same on another import', async () => {
    const dir = fixtureCopy('absent', { omit: ['appearances', 'game_lineups', 'club_games'] });
    const lines: string[] = [];
    const reporter: ImportReporter = { ...silentReporter, tableSkipped: (t, why) => lines.push(`${t}: ${why}`) };
    const s = await importTransfermarkt(handle.db, dir, {}, reporter);
    assert.equal(s.status, 'imported');
    assert.deepEqual(lines.map((l) => l.split(':')[0]), ['club_games', 'game_lineups', 'appearances']);
    assert.equal(s.tables.appearances.skipped, 'file absent');
    const w = await loadWorld(handle.db);
    assert.equal(w.appearances.length, 0);
    assert.equal(w.matches.length, 6, 'game 3 has no score without club_games');
    assert.deepEqual(w.players.map((p) => p.id).sort(), world.players.map((p) => p.id).sort());
    assert.deepEqual(
      w.clubs.map((c) => c.id).sort(),
      world.clubs.filter((c) => c.registry_a_id !== 9001).map((c) => c.id).sort(),
    );
    assert.deepEqual(w.transfers.map((t) => t.id).sort(), world.transfers.map((t) => t.id).sort());
  });

  test('--strict with bad rows fails and changes nothing', async () => {
    const before = await readMeta(handle.db);
    const dir = fixtureCopy('strict', { gzip: ['transfers'] });
    const s = await importTransfermarkt(handle.db, dir, { strict: true, rejectsPath: join(work, 'strict-rejects.csv') });
    assert.equal(s.status, 'strict_failed');
    assert.equal(s.data_version, null);
    assert.ok(s.rejected_total > 0);
    assert.deepEqual(await readMeta(handle.db), before);
  });

  test('a failure in the middle of storing leaves the previous world whole', async () => {
    const h = await fresh();
    try {
      await importTransfermarkt(h.db, join(work, 'mixed'), {});
      const whole = await loadWorld(h.db);
      const metaBefore = await readMeta(h.db);
      const dir = fixtureCopy('broken', { edit: (t, s) => (t === 'players' ? s.replace('Adam,Archer,Adam Archer', 'Adam,Changed,Adam Changed') : s) });
      const failing: ImportReporter = {
        ...silentReporter,
        stored: (table) => {
          if (table === 'market_values') throw new Error('disk full (simulated)');
        },
      };
      await assert.rejects(importTransfermarkt(h.db, dir, {}, failing), /disk full/);
      assert.deepEqual(await loadWorld(h.db), whole);
      assert.deepEqual(await readMeta(h.db), metaBefore);
      // And the same import without the failure goes through.
      const ok = await importTransfermarkt(h.db, dir, {});
      assert.equal(ok.status, 'imported');
      assert.equal((await loadWorld(h.db)).players.find((p) => p.registry_a_id === 10)?.last_name, 'Changed');
    } finally {
      await h.close();
    }
  });
});
