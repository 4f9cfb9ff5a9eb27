import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { POSITIONS } from '../../src/domain/positions.js';
import { ROLE_IDS } from '../../src/domain/roles.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t?.close();
});

const ID_P = /^P[0-9A-Za-z]{26}$/;
const ID_C = /^C[0-9A-Za-z]{26}$/;
const json = (res: { body: string }) => JSON.parse(res.body);
const nullableInt = (v: unknown) => v === null || Number.isInteger(v);

async function firstLeagueClub() {
  const comps = json(await t.get('/v1/competitions')).competitions as string[];
  const clubs = json(await t.get(`/v1/get_clubs_in_competition?competition_id=${comps[0]}`)).clubs;
  return { comps, clubs, club: clubs[0] };
}

describe('competitions and clubs', () => {
  test('competitions lists current leagues as upper snake case ids', async () => {
    const res = await t.get('/v1/competitions');
    assert.equal(res.statusCode, 200);
    const comps = json(res).competitions;
    assert.ok(comps.length >= 6);
    for (const c of comps) assert.match(c, /^[A-Z0-9]+(_[A-Z0-9]+)*$/);
    assert.deepEqual(comps, [...comps].sort());
  });

  test('clubs of a competition, by competition_id or the competition alias', async () => {
    const { comps, clubs } = await firstLeagueClub();
    assert.ok(clubs.length >= 16 && clubs.length <= 20);
    for (const c of clubs) {
      assert.match(c.service_id, ID_C);
      assert.ok(nullableInt(c.registry_a_id));
      assert.equal(typeof c.name, 'string');
    }
    const alias = json(await t.get(`/v1/get_clubs_in_competition?competition=${comps[0]}`)).clubs;
    assert.deepEqual(alias, clubs);
  });

  test('clubs of a cup: the clubs whose players played in it this season, and no other', async () => {
    const s = t.runtime.world.current();
    const played = new Map<string, Set<string>>();
    for (const rows of s.appearances.values()) {
      for (const a of rows) {
        if (a.season !== s.currentSeason || s.competitions.get(a.competition_id)?.type === 'DOMESTIC_LEAGUE') continue;
        played.set(a.competition_id, (played.get(a.competition_id) ?? new Set()).add(a.club_id));
      }
    }
    assert.ok(played.size > 0, 'the demo world has cup appearances this season');
    for (const [competitionId, clubIds] of played) {
      const clubs: Array<{ service_id: string; name: string }> = json(await t.get(`/v1/get_clubs_in_competition?competition_id=${competitionId}`)).clubs;
      assert.deepEqual(new Set(clubs.map((c) => c.service_id)), clubIds, competitionId);
      assert.deepEqual(clubs.map((c) => c.name), clubs.map((c) => c.name).sort((a, b) => a.localeCompare(b)), 'by name');
    }
  });

  test('competition errors', async () => {
    assert.deepEqual(json(await t.get('/v1/get_clubs_in_competition')), { error: 'competition_id is required' });
    const res = await t.get('/v1/get_clubs_in_competition?competition_id=NO_SUCH_LEAGUE');
    assert.equal(res.statusCode, 404);
    assert.deepEqual(json(res), { error: 'Competition not found' });
  });

  test('players at a club, with the analysis filter', async () => {
    const { club } = await firstLeagueClub();
    const res = await t.get(`/v1/get_players_at_club?club_id=${club.service_id}`);
    assert.equal(res.statusCode, 200);
    const body = json(res);
    assert.match(body.season, /^\d{4}\/\d{4}$/);
    assert.equal(body.season, '2025/2026');
    assert.deepEqual(body.club, club);
    assert.ok(body.players.length >= 20);
    for (const p of body.players) {
      assert.match(p.service_id, ID_P);
      assert.ok(nullableInt(p.registry_a_id) && nullableInt(p.registry_b_id));
      for (const k of ['name', 'first_name', 'last_name']) assert.equal(typeof p[k], 'string');
      assert.ok(p.alias === null || typeof p.alias === 'string');
    }
    for (const v of ['true', '1']) {
      const only = json(await t.get(`/v1/get_players_at_club?club_id=${club.service_id}&analysis_available_only=${v}`)).players;
      assert.ok(only.length <= body.players.length);
      for (const p of only) assert.equal(t.runtime.world.current().players.get(p.service_id)?.analysis_available, true);
    }
    const all = json(await t.get(`/v1/get_players_at_club?club_id=${club.service_id}&analysis_available_only=false`)).players;
    assert.deepEqual(all, body.players);
  });

  test('players at club errors', async () => {
    const cases: Array<[string, number, string]> = [
      ['/v1/get_players_at_club', 400, 'club_id is required'],
      ['/v1/get_players_at_club?club_id=', 400, 'club_id is required'],
      ['/v1/get_players_at_club?club_id=X123', 400, 'Invalid club_id'],
      ['/v1/get_players_at_club?club_id=P01234567890123456789012345', 400, 'Invalid club_id'],
      [`/v1/get_players_at_club?club_id=C${'0'.repeat(26)}`, 404, 'Club not found'],
      [`/v1/get_players_at_club?club_id=C${'0'.repeat(26)}&analysis_available_only=yes`, 400, 'Invalid analysis_available_only'],
    ];
    for (const [url, status, error] of cases) {
      const res = await t.get(url);
      assert.equal(res.statusCode, status, url);
      assert.deepEqual(json(res), { error }, url);
    }
  });

  test('query_club by registry id and by service id', async () => {
    const { club } = await firstLeagueClub();
    assert.deepEqual(json(await t.post('/v1/query_club', { registry_a_id: club.registry_a_id })), club);
    assert.deepEqual(json(await t.post('/v1/query_club', { service_id: club.service_id })), club);
    assert.deepEqual(json(await t.post('/v1/query_club', { service_id: club.service_id, registry_a_id: club.registry_a_id })), club);
  });

  test('query_club errors', async () => {
    const cases: Array<[unknown, number, string]> = [
      [{}, 400, 'At least one of registry_a_id or service_id must be provided'],
      [{ registry_a_id: '123' }, 400, 'registry_a_id must be an integer'],
      [{ registry_a_id: 1.5 }, 400, 'registry_a_id must be an integer'],
      [{ registry_a_id: 0 }, 400, 'registry_a_id must be a positive integer'],
      [{ registry_a_id: -4 }, 400, 'registry_a_id must be a positive integer'],
      [{ registry_a_id: 1e12 + 1 }, 400, 'registry_a_id is out of allowed range'],
      // Whole numbers past 2^53 (and past double range, which JSON.parse turns into Infinity) are still whole.
      [{ registry_a_id: 1e20 }, 400, 'registry_a_id is out of allowed range'],
      ['{"registry_a_id": 9007199254740993}', 400, 'registry_a_id is out of allowed range'],
      ['{"registry_a_id": 1e400}', 400, 'registry_a_id is out of allowed range'],
      [{ registry_a_id: -1e20 }, 400, 'registry_a_id must be a positive integer'],
      ['{"registry_a_id": -1e400}', 400, 'registry_a_id must be a positive integer'],
      [{ registry_a_id: 1e12 + 0.5 }, 400, 'registry_a_id must be an integer'],
      [{ registry_a_id: false }, 400, 'registry_a_id must be an integer'],
      [{ service_id: 'abc' }, 400, 'Invalid service_id'],
      [{ service_id: 42 }, 400, 'Invalid service_id'],
      [[1, 2], 400, 'Body must be a JSON object'],
      ['"text"', 400, 'Body must be a JSON object'],
      ['{"registry_a_id": ', 400, 'Body must be a JSON object'],
      [{ registry_a_id: 999_999_999_999 }, 404, 'Club not found'],
      [{ service_id: `C${'Z'.repeat(26)}` }, 404, 'Club not found'],
    ];
    for (const [body, status, error] of cases) {
      const res = await t.post('/v1/query_club', body);
      assert.equal(res.statusCode, status, JSON.stringify(body));
      assert.deepEqual(json(res), { error }, JSON.stringify(body));
    }
  });
});

describe('players', () => {
  async function somePlayer() {
    const { club } = await firstLeagueClub();
    return json(await t.get(`/v1/get_players_at_club?club_id=${club.service_id}`)).players[0];
  }

  test('query_player by each id returns the profile', async () => {
    const p = await somePlayer();
    const byService = json(await t.post('/v1/query_player', { service_id: p.service_id }));
    assert.equal(byService.service_id, p.service_id);
    for (const k of ['name', 'first_name', 'last_name', 'nationality']) assert.equal(typeof byService[k], 'string');
    assert.ok(byService.birth_date === null || /^\d{4}-\d{2}-\d{2}$/.test(byService.birth_date));
    assert.ok(byService.height === null || typeof byService.height === 'number');
    assert.ok(byService.preferred_foot === null || ['Right', 'Left', 'Both'].includes(byService.preferred_foot));
    assert.deepEqual(json(await t.post('/v1/query_player', { registry_a_id: p.registry_a_id })), byService);
    if (p.registry_b_id !== null) assert.deepEqual(json(await t.post('/v1/query_player', { registry_b_id: p.registry_b_id })), byService);
  });

  test('query_player errors', async () => {
    const cases: Array<[unknown, number, string]> = [
      [{}, 400, 'At least one of registry_a_id, registry_b_id or service_id must be provided'],
      [{ registry_b_id: 'x' }, 400, 'registry_b_id must be an integer'],
      [{ registry_b_id: -1 }, 400, 'registry_b_id must be a positive integer'],
      [{ registry_b_id: 2e12 }, 400, 'registry_b_id is out of allowed range'],
      [{ registry_b_id: 1e300 }, 400, 'registry_b_id is out of allowed range'],
      ['{"registry_b_id": 9007199254740993}', 400, 'registry_b_id is out of allowed range'],
      [{ registry_b_id: 1.5 }, 400, 'registry_b_id must be an integer'],
      [{ registry_b_id: '123' }, 400, 'registry_b_id must be an integer'],
      [{ registry_b_id: 0 }, 400, 'registry_b_id must be a positive integer'],
      [{ registry_a_id: true }, 400, 'registry_a_id must be an integer'],
      [{ service_id: `C${'0'.repeat(26)}` }, 400, 'Invalid service_id'],
      [{ service_id: `P${'0'.repeat(26)}` }, 404, 'Player not found'],
      [{ registry_a_id: 999_999_999_999 }, 404, 'Player not found'],
    ];
    for (const [body, status, error] of cases) {
      const res = await t.post('/v1/query_player', body);
      assert.equal(res.statusCode, status, JSON.stringify(body));
      assert.deepEqual(json(res), { error }, JSON.stringify(body));
    }
  });

  test('player_info has every field with its type', async () => {
    const s = t.runtime.world.current();
    const roles = new Set(ROLE_IDS);
    const codes = new Set(POSITIONS.map((p) => p.id as string));
    let checked = 0;
    for (const id of [...s.players.keys()].slice(0, 300)) {
      const res = await t.get(`/v1/player_info?player_id=${id}`);
      assert.equal(res.statusCode, 200);
      const b = json(res);
      assert.equal(b.service_id, id);
      assert.ok(roles.has(b.player_role), b.player_role);
      assert.ok(codes.has(b.position), b.position);
      assert.equal(typeof b.nationality, 'string');
      assert.ok(b.age === null || Number.isInteger(b.age));
      assert.ok(b.agency_name === null || typeof b.agency_name === 'string');
      assert.ok(b.contract_end_date === null || /^\d{4}-\d{2}-\d{2}$/.test(b.contract_end_date));
      for (const k of ['owning_club_id', 'last_active_club_id', 'current_team_id']) assert.ok(b[k] === null || ID_C.test(b[k]), k);
      assert.ok(nullableInt(b.registry_a_id) && nullableInt(b.registry_b_id));
      checked++;
    }
    assert.ok(checked > 100);
  });

  test('a player on loan: current team differs from owning club, and the loan shows in the career', async () => {
    const s = t.runtime.world.current();
    const loaned = [...s.careers.entries()].find(([, steps]) => {
      const last = steps[steps.length - 1];
      return last.end_date === null && last.is_loan && last.parent_club_id;
    });
    assert.ok(loaned, 'the demo world has players on loan now');
    const [id] = loaned;
    const info = json(await t.get(`/v1/player_info?player_id=${id}`));
    assert.notEqual(info.current_team_id, info.owning_club_id);
    const career = json(await t.get(`/v1/career_path?player_id=${id}`));
    assert.equal(career.player_id, id);
    assert.equal(career.career_path[0].is_loan, true);
    assert.equal(career.career_path[0].club_id, info.current_team_id);
    assert.equal(career.career_path[0].end_date, null);
  });

  test('career_path: most recent first, fields typed, min_duration_days filters short spells', async () => {
    const s = t.runtime.world.current();
    const [id, steps] = [...s.careers.entries()].find(([, st]) => st.length >= 3)!;
    const path = json(await t.get(`/v1/career_path?player_id=${id}`)).career_path;
    assert.equal(path.length, steps.length);
    for (let i = 1; i < path.length; i++) assert.ok(path[i - 1].start_date >= path[i].start_date);
    for (const st of path) {
      assert.match(st.club_id, ID_C);
      assert.equal(typeof st.club_name, 'string');
      assert.equal(st.start_year, Number(st.start_date.slice(0, 4)));
      assert.ok(st.end_date === null ? st.end_year === null : st.end_year === Number(st.end_date.slice(0, 4)));
      assert.equal(typeof st.is_loan, 'boolean');
    }
    const days = (a: string, b: string | null) => (Date.parse(b ?? s.asOf) - Date.parse(a)) / 86_400_000;
    const threshold = 400;
    const long = json(await t.get(`/v1/career_path?player_id=${id}&min_duration_days=${threshold}`)).career_path;
    assert.deepEqual(long, path.filter((st: { start_date: string; end_date: string | null }) => days(st.start_date, st.end_date) >= threshold));
  });

  test('playing_time: newest season first, type/competition/club order, no zero rows, season filter', async () => {
    const s = t.runtime.world.current();
    const typeOrder = ['DOMESTIC_LEAGUE', 'DOMESTIC_CUP', 'INTERNATIONAL_CUP', 'INTERNATIONAL_SUPERCUP', 'NATIONAL_TEAM'];
    const richest = [...s.appearances.entries()].sort((a, b) => b[1].length - a[1].length)[0][0];
    const body = json(await t.get(`/v1/playing_time?player_id=${richest}`));
    assert.equal(body.player_id, richest);
    assert.ok(body.seasons.length >= 2);
    for (let i = 1; i < body.seasons.length; i++) assert.ok(body.seasons[i - 1].season > body.seasons[i].season);
    for (const season of body.seasons) {
      assert.match(season.season, /^\d{4}\/\d{4}$/);
      const comps = season.competitions;
      for (let i = 0; i < comps.length; i++) {
        const c = comps[i];
        assert.ok(typeOrder.includes(c.competition_type));
        assert.ok(c.appearances > 0 && c.starting_xi_count <= c.appearances && c.minutes_played <= 90 * c.appearances + 30 * c.appearances);
        for (const k of ['minutes_played', 'appearances', 'starting_xi_count']) assert.ok(Number.isInteger(c[k]));
        if (i > 0) {
          const p = comps[i - 1];
          const key = (x: typeof c) => [typeOrder.indexOf(x.competition_type), x.competition, x.club_name];
          const [a, b] = [key(p), key(c)];
          assert.ok(a[0] < b[0] || (a[0] === b[0] && (a[1] < b[1] || (a[1] === b[1] && String(a[2]).localeCompare(String(b[2])) <= 0))));
        }
      }
    }
    const one = body.seasons[1];
    const filtered = json(await t.get(`/v1/playing_time?player_id=${richest}&season=${encodeURIComponent(one.season)}`));
    assert.deepEqual(filtered.seasons, [one]);
    const empty = json(await t.get(`/v1/playing_time?player_id=${richest}&season=1990/1991`));
    assert.deepEqual(empty, { player_id: richest, seasons: [] });
  });

  test('playing_time: a national team entry names the senior national team as the club', async () => {
    const s = t.runtime.world.current();
    const row = [...s.appearances.values()].flat().find((a) => s.competitions.get(a.competition_id)?.type === 'NATIONAL_TEAM' && a.appearances > 0);
    assert.ok(row, 'the demo world holds national team appearances');
    const body = json(await t.get(`/v1/playing_time?player_id=${row.player_id}`));
    const entries = body.seasons.flatMap((x: { competitions: { competition_type: string; club_id: string; club_name: string }[] }) => x.competitions).filter((c: { competition_type: string }) => c.competition_type === 'NATIONAL_TEAM');
    assert.ok(entries.length > 0);
    for (const e of entries) {
      assert.equal(s.clubs.get(e.club_id)?.is_national_team, true);
      assert.equal(e.club_name, s.clubs.get(e.club_id)?.name);
    }
  });

  test('playing_time leaves out domestic supercups and other omitted competitions', async () => {
    const s = t.runtime.world.current();
    const hidden = [...s.appearances.values()].flat().find((a) => !['DOMESTIC_LEAGUE', 'DOMESTIC_CUP', 'INTERNATIONAL_CUP', 'INTERNATIONAL_SUPERCUP', 'NATIONAL_TEAM'].includes(s.competitions.get(a.competition_id)!.type));
    assert.ok(hidden, 'the demo world holds appearances in an omitted competition');
    const body = json(await t.get(`/v1/playing_time?player_id=${hidden.player_id}`));
    for (const season of body.seasons) for (const c of season.competitions) assert.notEqual(c.competition, hidden.competition_id);
  });

  test('a player who played for two clubs in one league season has one entry per club', async () => {
    const s = t.runtime.world.current();
    const two = [...s.appearances.values()].find((rows) => {
      const seen = new Map<string, Set<string>>();
      for (const r of rows) {
        const k = `${r.season}|${r.competition_id}`;
        seen.set(k, (seen.get(k) ?? new Set()).add(r.club_id));
      }
      return [...seen.values()].some((clubs) => clubs.size > 1);
    });
    assert.ok(two, 'the demo world holds a mid-season move');
    const body = json(await t.get(`/v1/playing_time?player_id=${two[0].player_id}`));
    const found = body.seasons.some((season: { competitions: { competition: string; club_id: string }[] }) => {
      const byComp = new Map<string, Set<string>>();
      for (const c of season.competitions) byComp.set(c.competition, (byComp.get(c.competition) ?? new Set()).add(c.club_id));
      return [...byComp.values()].some((x) => x.size > 1);
    });
    assert.ok(found);
  });

  test('player endpoint errors', async () => {
    const unknown = `P${'0'.repeat(26)}`;
    for (const ep of ['player_info', 'career_path', 'playing_time']) {
      const cases: Array<[string, number, string]> = [
        [`/v1/${ep}`, 400, 'player_id is required'],
        [`/v1/${ep}?player_id=`, 400, 'player_id is required'],
        [`/v1/${ep}?player_id=123`, 400, 'Invalid player_id'],
        [`/v1/${ep}?player_id=${unknown}&player_id=${unknown}`, 400, 'Invalid player_id'],
        [`/v1/${ep}?player_id=${unknown}`, 404, 'Player not found'],
      ];
      for (const [url, status, error] of cases) {
        const res = await t.get(url);
        assert.equal(res.statusCode, status, url);
        assert.deepEqual(json(res), { error }, url);
      }
    }
    assert.deepEqual(json(await t.get(`/v1/career_path?player_id=${unknown}&min_duration_days=-1`)), { error: 'Invalid min_duration_days' });
    assert.deepEqual(json(await t.get(`/v1/career_path?player_id=${unknown}&min_duration_days=abc`)), { error: 'Invalid min_duration_days' });
    // Plain digits up to Number.MAX_SAFE_INTEGER only: no sign, point, exponent or overflow.
    for (const bad of ['', '+5', '1.0', '1e3', ' 5', '0x10', '9007199254740992', '99999999999999999999']) {
      const res = await t.get(`/v1/career_path?player_id=${unknown}&min_duration_days=${encodeURIComponent(bad)}`);
      assert.equal(res.statusCode, 400, JSON.stringify(bad));
      assert.deepEqual(json(res), { error: 'Invalid min_duration_days' }, JSON.stringify(bad));
    }
    for (const bad of ['2024', '2024/2026', '2024-2025', 'x']) {
      assert.deepEqual(json(await t.get(`/v1/playing_time?player_id=${unknown}&season=${encodeURIComponent(bad)}`)), {
        error: 'Invalid season, must be in the format YYYY/YYYY',
      });
    }
  });

  test('career_path: min_duration_days takes any whole number up to Number.MAX_SAFE_INTEGER', async () => {
    const s = t.runtime.world.current();
    const [id] = [...s.careers.entries()].find(([, st]) => st.length >= 1)!;
    const all = json(await t.get(`/v1/career_path?player_id=${id}`)).career_path;
    for (const [days, expected] of [['0', all], ['000', all], ['1234567890', []], ['9007199254740991', []]] as const) {
      const res = await t.get(`/v1/career_path?player_id=${id}&min_duration_days=${days}`);
      assert.equal(res.statusCode, 200, `${days}: ${res.body}`);
      assert.deepEqual(json(res).career_path, expected, days);
    }
  });

  test('positions: the 17-entry catalogue, player_id accepted and ignored', async () => {
    const a = json(await t.get('/v1/player_positions'));
    const b = json(await t.get(`/v1/player_positions?player_id=anything`));
    assert.equal(a.positions.length, 17);
    assert.deepEqual(a, b);
    assert.deepEqual(a.positions[0], { id: 'GK', name: 'Goalkeeper' });
  });

  test('roles: catalogue, one role, invalid role, every served role listed', async () => {
    const all = json(await t.get('/v1/role_description')).roles;
    assert.ok(all.length >= 10);
    const codes = new Set(POSITIONS.map((p) => p.id as string));
    for (const r of all) {
      for (const k of ['role', 'name', 'description']) assert.equal(typeof r[k], 'string');
      assert.ok(r.positions.length > 0 && r.positions.every((p: string) => codes.has(p)));
    }
    assert.deepEqual(json(await t.get(`/v1/role_description?role=${all[0].role}`)), all[0]);
    const bad = await t.get('/v1/role_description?role=NOPE');
    assert.equal(bad.statusCode, 400);
    assert.deepEqual(json(bad), { error: 'Invalid role', allowed_roles: all.map((r: { role: string }) => r.role) });
    const served = new Set([...t.runtime.world.current().ratings.values()].flat().map((r) => r.best_role));
    for (const role of served) assert.ok(all.some((r: { role: string }) => r.role === role), role);
  });
});
