import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateDemoWorld } from '../../src/data/demo/index.js';
import { DemoWorld } from '../../src/data/demo/world.js';
import { buildSnapshot } from '../../src/domain/snapshot.js';
import { playerFacts } from '../../src/domain/player-facts.js';
import { openDatabase, migrateToLatest, type DatabaseHandle } from '../../src/data/db.js';
import { sql } from 'kysely';
import { WORLD_TABLE_ORDER, type WorldData } from '../../src/domain/world.js';
import { readMeta, replaceWorld } from '../../src/data/world-store.js';
import { POSITION_CODES } from '../../src/domain/positions.js';
import { findRole, ROLES } from '../../src/domain/roles.js';
import { ageOn, seasonOf } from '../../src/domain/season.js';
import { CLUB_ID_PATTERN, PLAYER_ID_PATTERN } from '../../src/domain/ids.js';

const AS_OF = '2026-06-30';
const generator = new DemoWorld({ seed: 42, asOf: AS_OF });
const world: WorldData = generator.generate();
const CURRENT = seasonOf(AS_OF);
const EARLIER = '2024-06-30';
let earlierWorld: WorldData | null = null;

function countBy<T>(rows: readonly T[], key: (r: T) => string): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of rows) out.set(key(r), (out.get(key(r)) ?? 0) + 1);
  return out;
}

/** Players whose ongoing career step is at the club: its squad as of the as-of date. */
function currentSquads(w: WorldData): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const s of w.career_steps) {
    if (s.end_date !== null) continue;
    const list = out.get(s.club_id) ?? [];
    list.push(s.player_id);
    out.set(s.club_id, list);
  }
  return out;
}

function assertNothingAfter(w: WorldData, asOf: string): void {
  const late = (what: string, d: string | null) => assert.ok(d === null || d <= asOf, `${what} dated ${d} is after ${asOf}`);
  for (const m of w.matches) late('match', m.date);
  for (const v of w.market_values) late('market value', v.date);
  for (const t of w.transfers) late('transfer', t.date);
  for (const c of w.contracts) late('contract signature', c.signed_date);
  for (const s of w.career_steps) {
    late('career step start', s.start_date);
    late('career step end', s.end_date);
  }
  const current = seasonOf(asOf);
  for (const r of w.ratings) assert.ok(r.season <= current);
  for (const a of w.appearances) assert.ok(a.season <= current);
  for (const c of w.club_seasons) assert.ok(c.season <= current);
}

function assertKeysUnique(w: WorldData): void {
  const unique = <T>(table: string, rows: readonly T[], key: (r: T) => string) => {
    const seen = new Set<string>();
    for (const r of rows) {
      const k = key(r);
      assert.ok(!seen.has(k), `duplicate key in ${table}: ${k}`);
      seen.add(k);
    }
  };
  unique('roles', w.roles, (r) => r.id);
  unique('competitions', w.competitions, (r) => r.id);
  unique('clubs', w.clubs, (r) => r.id);
  unique('clubs.registry_a_id', w.clubs, (r) => String(r.registry_a_id));
  unique('club_seasons', w.club_seasons, (r) => `${r.club_id}|${r.season}|${r.competition_id}`);
  unique('players', w.players, (r) => r.id);
  unique('players.registry_a_id', w.players, (r) => String(r.registry_a_id));
  unique('contracts', w.contracts, (r) => `${r.player_id}|${r.signed_date}|${r.club_id}`);
  unique('career_steps', w.career_steps, (r) => `${r.player_id}|${r.start_date}|${r.club_id}`);
  unique('appearances', w.appearances, (r) => `${r.player_id}|${r.season}|${r.competition_id}|${r.club_id}`);
  unique('market_values', w.market_values, (r) => `${r.player_id}|${r.date}`);
  unique('transfers', w.transfers, (r) => r.id);
  unique('ratings', w.ratings, (r) => `${r.player_id}|${r.season}|${r.source}`);
  unique('matches', w.matches, (r) => r.id);
}

function assertReferences(w: WorldData): void {
  const clubs = new Set(w.clubs.map((c) => c.id));
  const players = new Set(w.players.map((p) => p.id));
  const comps = new Set(w.competitions.map((c) => c.id));
  const club = (id: string | null, where: string) => assert.ok(id === null || clubs.has(id), `${where}: unknown club ${id}`);
  const player = (id: string, where: string) => assert.ok(players.has(id), `${where}: unknown player ${id}`);
  const comp = (id: string, where: string) => assert.ok(comps.has(id), `${where}: unknown competition ${id}`);
  for (const r of w.club_seasons) { club(r.club_id, 'club_seasons'); comp(r.competition_id, 'club_seasons'); }
  for (const r of w.players) club(r.national_team_id, 'players.national_team_id');
  for (const r of w.contracts) { player(r.player_id, 'contracts'); club(r.club_id, 'contracts'); }
  for (const r of w.career_steps) { player(r.player_id, 'career_steps'); club(r.club_id, 'career_steps'); club(r.parent_club_id, 'career_steps.parent'); }
  for (const r of w.appearances) { player(r.player_id, 'appearances'); club(r.club_id, 'appearances'); comp(r.competition_id, 'appearances'); }
  for (const r of w.market_values) { player(r.player_id, 'market_values'); club(r.club_id, 'market_values'); }
  for (const r of w.transfers) { player(r.player_id, 'transfers'); club(r.from_club_id, 'transfers.from'); club(r.to_club_id, 'transfers.to'); }
  for (const r of w.ratings) player(r.player_id, 'ratings');
  for (const r of w.matches) { comp(r.competition_id, 'matches'); club(r.home_club_id, 'matches'); club(r.away_club_id, 'matches'); }
}

describe('demo world generator', () => {
  test('is deterministic: same seed deep-equal, another seed differs', () => {
    const again = generateDemoWorld({ seed: 42, asOf: AS_OF });
    assert.deepStrictEqual(again, world);
    // Same seed with another as-of date draws the same names in the same order, so a differing
    // name list below comes from the seed; the earlier world is checked further down.
    const other = generateDemoWorld({ seed: 7, asOf: EARLIER });
    const names = (w: WorldData) => w.players.slice(0, 200).map((p) => p.name);
    assert.notDeepStrictEqual(names(other), names(world));
    assert.notDeepStrictEqual(other.clubs.map((c) => c.name), world.clubs.map((c) => c.name));
    assert.ok(!other.players.some((p) => p.id === world.players[0].id), 'ids depend on the seed');
    earlierWorld = other;
  });

  test('has at least 6 leagues in 4 countries, a second tier, 16-20 clubs each season', () => {
    const leagues = world.competitions.filter((c) => c.type === 'DOMESTIC_LEAGUE');
    assert.ok(leagues.length >= 6);
    assert.ok(new Set(leagues.map((l) => l.country)).size >= 4);
    assert.ok(leagues.some((l) => l.tier === 2));
    for (const l of leagues) assert.ok(l.tier === 1 || l.tier === 2);
    for (const c of world.competitions) {
      assert.match(c.id, /^[A-Z0-9]+(_[A-Z0-9]+)*$/);
      assert.ok(c.type.length > 0);
    }
    const types = new Set(world.competitions.map((c) => c.type));
    for (const t of ['DOMESTIC_LEAGUE', 'DOMESTIC_CUP', 'INTERNATIONAL_CUP', 'INTERNATIONAL_SUPERCUP', 'NATIONAL_TEAM', 'DOMESTIC_SUPERCUP']) assert.ok(types.has(t as never), t);
    const seasons = [...new Set(world.club_seasons.map((c) => c.season))].sort();
    assert.deepEqual(seasons, Array.from({ length: 10 }, (_, i) => CURRENT - 9 + i));
    for (const [key, n] of countBy(world.club_seasons, (c) => `${c.competition_id}|${c.season}`)) assert.ok(n >= 16 && n <= 20, `${key}: ${n} clubs`);
    const perClubSeason = countBy(world.club_seasons, (c) => `${c.club_id}|${c.season}`);
    for (const n of perClubSeason.values()) assert.equal(n, 1, 'one league per club and season');
  });

  test('clubs have 25-35 players in the current season', () => {
    const squads = currentSquads(world);
    const current = world.club_seasons.filter((c) => c.season === CURRENT);
    assert.ok(current.length >= 100);
    const owned = countBy(world.career_steps.filter((s) => s.end_date === null && s.is_loan), (s) => s.parent_club_id ?? '');
    for (const cs of current) {
      const n = squads.get(cs.club_id)?.length ?? 0;
      assert.ok(n >= 25 && n <= 35, `club ${cs.club_id} has ${n} players`);
      assert.ok(n + (owned.get(cs.club_id) ?? 0) <= 35, 'squad plus players out on loan stays within 35');
    }
  });

  test('promotion and relegation swap three clubs between the two English tiers each season', () => {
    const tiers = world.competitions.filter((c) => c.type === 'DOMESTIC_LEAGUE' && c.country === 'England');
    const top = tiers.find((t) => t.tier === 1)?.id;
    const clubsIn = (season: number) => new Set(world.club_seasons.filter((c) => c.season === season && c.competition_id === top).map((c) => c.club_id));
    for (let s = CURRENT - 8; s <= CURRENT; s++) {
      const before = clubsIn(s - 1);
      const now = clubsIn(s);
      assert.equal([...now].filter((c) => !before.has(c)).length, 3, `season ${s}`);
    }
  });

  test('every league season is a full double round robin dated August to May, with plausible scores', () => {
    const bySeason = new Map<string, typeof world.matches>();
    for (const m of world.matches) {
      const k = `${m.competition_id}|${m.season}`;
      bySeason.set(k, [...(bySeason.get(k) ?? []), m]);
    }
    const members = countBy(world.club_seasons, (c) => `${c.competition_id}|${c.season}`);
    assert.equal(bySeason.size, members.size);
    for (const [k, ms] of bySeason) {
      const n = members.get(k) ?? 0;
      assert.equal(ms.length, n * (n - 1), k);
      const pairs = new Set(ms.map((m) => `${m.home_club_id}>${m.away_club_id}`));
      assert.equal(pairs.size, ms.length, `${k}: each ordered pair once`);
      const inLeague = new Set(world.club_seasons.filter((c) => `${c.competition_id}|${c.season}` === k).map((c) => c.club_id));
      for (const m of ms) {
        assert.notEqual(m.home_club_id, m.away_club_id);
        assert.ok(inLeague.has(m.home_club_id) && inLeague.has(m.away_club_id));
        const month = Number(m.date.slice(5, 7));
        assert.ok(month >= 8 || month <= 5, `${m.date} outside August-May`);
        assert.equal(seasonOf(m.date), m.season);
        assert.ok(m.home_goals >= 0 && m.away_goals >= 0 && m.home_goals <= 12 && m.away_goals <= 12);
      }
    }
    const goals = world.matches.reduce((a, m) => a + m.home_goals + m.away_goals, 0) / world.matches.length;
    assert.ok(goals > 2.3 && goals < 3.3, `goals per game ${goals}`);
    const homeWins = world.matches.filter((m) => m.home_goals > m.away_goals).length;
    const awayWins = world.matches.filter((m) => m.home_goals < m.away_goals).length;
    // The model's home edge gives about 1.2 home wins per away win, give or take 0.03 between worlds.
    assert.ok(homeWins > awayWins * 1.1, `home advantage: ${homeWins} home wins, ${awayWins} away wins`);
  });

  test('stronger squads collect more points', () => {
    const rating = new Map(world.ratings.filter((r) => r.season === CURRENT).map((r) => [r.player_id, r.rating]));
    const leagueId = world.competitions.find((c) => c.tier === 1 && c.country === 'Spain')?.id;
    const squads = currentSquads(world);
    const clubs = world.club_seasons.filter((c) => c.season === CURRENT && c.competition_id === leagueId).map((c) => c.club_id);
    const strength = (club: string) => {
      const rs = (squads.get(club) ?? []).map((p) => rating.get(p) ?? 0).sort((a, b) => b - a).slice(0, 14);
      return rs.reduce((a, b) => a + b, 0) / rs.length;
    };
    const points = new Map<string, number>(clubs.map((c) => [c, 0]));
    for (const m of world.matches.filter((x) => x.season === CURRENT && x.competition_id === leagueId)) {
      const [h, a] = m.home_goals > m.away_goals ? [3, 0] : m.home_goals < m.away_goals ? [0, 3] : [1, 1];
      points.set(m.home_club_id, (points.get(m.home_club_id) ?? 0) + h);
      points.set(m.away_club_id, (points.get(m.away_club_id) ?? 0) + a);
    }
    const sorted = [...clubs].sort((a, b) => strength(b) - strength(a));
    const half = sorted.length / 2;
    const avg = (xs: string[]) => xs.reduce((a, c) => a + (points.get(c) ?? 0), 0) / xs.length;
    assert.ok(avg(sorted.slice(0, half)) > avg(sorted.slice(half)) + 10, 'top half by squad rating out-scores the bottom half');
  });

  test('writes nothing dated after the as-of date, also for an earlier as-of date', () => {
    assertNothingAfter(world, AS_OF);
    const earlier = earlierWorld ?? generateDemoWorld({ seed: 7, asOf: EARLIER });
    assertNothingAfter(earlier, EARLIER);
    assertKeysUnique(earlier);
    assertReferences(earlier);
    assert.equal(Math.max(...earlier.club_seasons.map((c) => c.season)), 2023);
    assert.equal(Math.min(...earlier.club_seasons.map((c) => c.season)), 2014);
    const midSeason = generateDemoWorld({ seed: 42, asOf: '2026-01-15' });
    assertNothingAfter(midSeason, '2026-01-15');
    assert.ok(midSeason.matches.some((m) => m.season === 2025), 'the running season has its played matches');
    assertKeysUnique(midSeason);
    assertReferences(midSeason);
  });

  test('primary keys are unique and every reference resolves', () => {
    assertKeysUnique(world);
    assertReferences(world);
    for (const p of world.players) assert.match(p.id, PLAYER_ID_PATTERN);
    for (const c of world.clubs) assert.match(c.id, CLUB_ID_PATTERN);
  });

  test('players look like football players', () => {
    for (const p of world.players) {
      assert.ok((p.registry_a_id ?? 0) > 0 && (p.registry_a_id ?? 0) <= 1e12);
      assert.ok(p.registry_b_id === null || p.registry_b_id > 0);
      assert.ok(p.position !== null && POSITION_CODES.includes(p.position as never));
      assert.equal(p.name, `${p.first_name} ${p.last_name}`);
      assert.ok(p.height_cm !== null && p.height_cm >= 160 && p.height_cm <= 205);
      assert.ok(p.alias === null || /^\S+$/.test(p.alias));
    }
    for (const c of world.clubs) assert.ok((c.registry_a_id ?? 0) > 0);
    const share = (f: (p: (typeof world.players)[number]) => boolean) => world.players.filter(f).length / world.players.length;
    assert.ok(Math.abs(share((p) => p.registry_b_id !== null) - 0.85) < 0.04);
    assert.ok(Math.abs(share((p) => p.foot === 'Right') - 0.75) < 0.06);
    assert.ok(Math.abs(share((p) => p.foot === 'Left') - 0.2) < 0.06);
    assert.ok(share((p) => p.alias !== null) > 0.005 && share((p) => p.alias !== null) < 0.08);
    const unavailable = share((p) => !p.analysis_available);
    assert.ok(unavailable > 0.015 && unavailable < 0.05, `analysis unavailable share ${unavailable}`);
    // Squads in the current season: ages 16-38, mostly home-grown nationality, the usual shape.
    const byId = new Map(world.players.map((p) => [p.id, p]));
    const clubs = new Map(world.clubs.map((c) => [c.id, c]));
    const leagueClubs = new Set(world.club_seasons.filter((c) => c.season === CURRENT).map((c) => c.club_id));
    let domestic = 0;
    let total = 0;
    for (const [clubId, ids] of currentSquads(world)) {
      if (!leagueClubs.has(clubId)) continue;
      const groups = countBy(ids, (id) => byId.get(id)?.position ?? '');
      assert.ok((groups.get('GK') ?? 0) >= 2, 'at least two goalkeepers');
      for (const id of ids) {
        const p = byId.get(id);
        assert.ok(p?.birth_date);
        const age = ageOn(p.birth_date, AS_OF);
        assert.ok(age >= 16 && age <= 38, `age ${age}`);
        total++;
        if (p.nationality === clubs.get(clubId)?.country) domestic++;
      }
    }
    assert.ok(domestic / total > 0.45 && domestic / total < 0.8, `domestic share ${domestic / total}`);
  });

  test('national teams are clubs, and capped players played for theirs', () => {
    const nations = new Map(world.clubs.filter((c) => c.is_national_team).map((c) => [c.id, c]));
    const nationalities = new Set(world.players.map((p) => p.nationality));
    assert.equal(nations.size, nationalities.size);
    for (const c of nations.values()) assert.ok(nationalities.has(c.name));
    assert.ok(world.club_seasons.every((c) => !nations.has(c.club_id)));
    const capped = world.players.filter((p) => p.national_team_id !== null);
    assert.ok(capped.length > 300);
    const ntComp = new Set(world.competitions.filter((c) => c.type === 'NATIONAL_TEAM').map((c) => c.id));
    const ntRows = new Set(world.appearances.filter((a) => ntComp.has(a.competition_id)).map((a) => `${a.player_id}|${a.club_id}`));
    for (const p of capped) {
      assert.equal(nations.get(p.national_team_id as string)?.name, p.nationality);
      assert.ok(ntRows.has(`${p.id}|${p.national_team_id}`));
    }
  });

  test('some players are on loan now, with the matching loan transfer', () => {
    const loans = world.career_steps.filter((s) => s.end_date === null && s.is_loan);
    assert.ok(loans.length >= 30, `${loans.length} ongoing loans`);
    const loanTransfers = new Set(world.transfers.filter((t) => t.is_loan).map((t) => `${t.player_id}|${t.date}|${t.from_club_id}|${t.to_club_id}`));
    for (const s of loans) {
      assert.ok(s.parent_club_id !== null && s.parent_club_id !== s.club_id);
      assert.ok(loanTransfers.has(`${s.player_id}|${s.start_date}|${s.parent_club_id}|${s.club_id}`));
    }
    for (const t of world.transfers.filter((x) => x.is_loan)) assert.ok(t.fee_eur !== null && t.fee_eur >= 0);
  });

  test('careers are ordered, contiguous per player, and one step at most is ongoing', () => {
    const steps = new Map<string, typeof world.career_steps>();
    for (const s of world.career_steps) steps.set(s.player_id, [...(steps.get(s.player_id) ?? []), s]);
    for (const [, list] of steps) {
      const sorted = [...list].sort((a, b) => a.start_date.localeCompare(b.start_date));
      assert.ok(sorted.filter((s) => s.end_date === null).length <= 1);
      sorted.forEach((s, i) => {
        if (s.end_date !== null) assert.ok(s.end_date >= s.start_date);
        if (i + 1 < sorted.length) assert.ok(s.end_date !== null && s.end_date < sorted[i + 1].start_date, 'steps do not overlap');
        if (s.is_loan) assert.ok(s.parent_club_id !== null);
        else assert.equal(s.parent_club_id, null);
      });
    }
    const transfers = world.transfers.filter((t) => !t.is_loan);
    assert.ok(transfers.some((t) => t.fee_eur === null), 'some unknown fees');
    assert.ok(transfers.some((t) => t.fee_eur === 0), 'some free transfers');
    assert.ok(transfers.filter((t) => (t.fee_eur ?? 0) > 0).length > transfers.length / 3, 'most moves are paid');
    const retiredOrAbroad = world.players.filter((p) => !world.career_steps.some((s) => s.player_id === p.id && s.end_date === null));
    assert.ok(retiredOrAbroad.length > 100, 'history holds retirements');
  });

  test("squads are the ones the generator made, and market values' clubs neither hide nor place anyone", () => {
    const snapshot = buildSnapshot(world, AS_OF, 'test');
    const made = generator.squads();
    assert.deepEqual(new Set(snapshot.squads.keys()), new Set(made.keys()));
    for (const [club, ids] of made) assert.deepEqual([...(snapshot.squads.get(club) ?? [])].sort(), ids, `squad of ${club}`);
    // Early in the season, the summer's signings still carry their latest value from their former club.
    const early = buildSnapshot(world, `${CURRENT}-09-15`, 'test');
    let elsewhere = 0;
    let retiredWithValues = 0;
    for (const snap of [snapshot, early]) {
      const squadOf = new Map<string, string>();
      for (const [club, ids] of snap.squads) for (const id of ids) squadOf.set(id, club);
      for (const p of world.players) {
        const f = playerFacts(snap, p);
        // His current team is the club whose squad holds him, whatever his latest value says.
        assert.equal(f.currentTeamId, squadOf.get(p.id) ?? null, p.id);
        const values = snap.values.get(p.id) ?? [];
        const latest = values[values.length - 1];
        if (!latest) continue;
        if (squadOf.has(p.id) && latest.club_id !== squadOf.get(p.id)) elsewhere++;
        if (snap === snapshot && !squadOf.has(p.id)) retiredWithValues++;
      }
    }
    assert.ok(elsewhere > 50, `${elsewhere} players in a squad whose latest value was taken at another club`);
    assert.ok(retiredWithValues > 100, `${retiredWithValues} players in no squad although valued once`);
  });

  test('contracts, values and ratings are consistent', () => {
    for (const c of world.contracts) {
      assert.ok(c.end_date !== null && c.end_date > c.signed_date);
      const years = Number(c.end_date.slice(0, 4)) - seasonOf(c.signed_date);
      assert.ok(years >= 1 && years <= 5, `contract of ${years} years`);
    }
    const latest = new Map<string, (typeof world.contracts)[number]>();
    for (const c of world.contracts) {
      const prev = latest.get(c.player_id);
      if (!prev || c.signed_date > prev.signed_date) latest.set(c.player_id, c);
    }
    const leagueClubs = new Set(world.club_seasons.filter((c) => c.season === CURRENT).map((c) => c.club_id));
    const ends = new Map<number, number>();
    for (const s of world.career_steps.filter((x) => x.end_date === null && leagueClubs.has(x.club_id) && !x.is_loan)) {
      const c = latest.get(s.player_id);
      assert.ok(c?.end_date && c.end_date >= `${CURRENT + 1}-06-30`, 'current contract runs at least to the season end');
      const y = Number(c.end_date.slice(0, 4));
      ends.set(y, (ends.get(y) ?? 0) + 1);
    }
    assert.ok((ends.get(CURRENT + 1) ?? 0) > 100, 'a share expires at the end of the current season');
    assert.ok(world.contracts.some((c) => c.agency_name === null) && world.contracts.some((c) => c.agency_name !== null));
    for (const v of world.market_values) assert.ok(v.value_eur >= 50_000 && v.value_eur <= 200e6 && v.club_id !== null);
    const values = world.market_values.map((v) => v.value_eur).sort((a, b) => a - b);
    const median = values[Math.floor(values.length / 2)];
    assert.ok(median > 1e6 && median < 10e6, `median value ${median}`);
    assert.ok(values[values.length - 1] > 60e6, 'a few stars');
    for (const r of world.ratings) {
      assert.equal(r.source, 'demo');
      assert.ok(r.rating >= 0 && r.rating <= 100 && r.potential >= r.rating && r.potential <= 100);
      assert.ok(findRole(r.best_role)?.positions.includes(r.position as never), `${r.best_role} does not fit ${r.position}`);
    }
    const current = world.ratings.filter((r) => r.season === CURRENT).map((r) => r.rating).sort((a, b) => a - b);
    assert.ok(current[Math.floor(current.length / 2)] >= 62 && current[Math.floor(current.length / 2)] <= 78);
    assert.ok(current[current.length - 1] <= 95);
    assert.deepEqual(world.roles.map((r) => r.id), ROLES.map((r) => r.role));
  });

  test('appearances are bounded, non-empty, and split when a player moved mid-season', () => {
    for (const a of world.appearances) {
      assert.ok(a.appearances > 0, 'no zero rows');
      assert.ok(a.starts >= 0 && a.starts <= a.appearances);
      assert.ok(a.minutes > 0 && a.minutes <= 90 * a.appearances);
    }
    const league = new Set(world.competitions.filter((c) => c.type === 'DOMESTIC_LEAGUE').map((c) => c.id));
    const rows = countBy(world.appearances.filter((a) => league.has(a.competition_id)), (a) => `${a.player_id}|${a.season}|${a.competition_id}`);
    assert.ok([...rows.values()].some((n) => n === 2), 'a mid-season move gives two rows in one league');
    const types = new Map(world.competitions.map((c) => [c.id, c.type]));
    const supercup = world.appearances.filter((a) => types.get(a.competition_id) === 'DOMESTIC_SUPERCUP');
    assert.ok(supercup.length > 0);
    // A club's league games: at most 2(n-1) per player, and regulars play most of them.
    const maxGames = Math.max(...world.appearances.filter((a) => league.has(a.competition_id)).map((a) => a.appearances));
    assert.ok(maxGames <= 38 && maxGames >= 34);
  });

  describe('loads into the embedded database', () => {
    let handle: DatabaseHandle;
    before(async () => {
      handle = await openDatabase({});
      await migrateToLatest(handle.db);
    });
    after(async () => {
      await handle.close();
    });
    test('replaceWorld accepts every row', async () => {
      await replaceWorld(handle.db, world, { source: 'demo' });
      for (const table of WORLD_TABLE_ORDER) {
        const row = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(handle.db);
        assert.equal(row.rows[0]?.n, world[table].length, table);
      }
      assert.equal((await readMeta(handle.db)).source, 'demo');
    });
  });
});
