import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setSeasonClubs } from '../../src/admin/leagues.js';
import { seasonLabel } from '../../src/domain/season.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

// Issue 29: a club named for the analysis season from outside the covered leagues, and clubs that
// cannot be simulated.
let t: TestApp;
let league: string;
let newcomer: string;
let national: string;
let player: string;
type Warning = { code: string; message: string };
const json = (res: { body: string }) => JSON.parse(res.body);

before(async () => {
  t = await startTestApp();
  const s = t.runtime.world.current();
  league = [...s.clubsOfLeague.keys()].filter((l) => s.competitions.get(l)!.tier === 1).sort()[0];
  // a club of no league this season (as a club from a second tier outside the data), not a national team
  newcomer = [...s.clubs.values()].filter((c) => !c.is_national_team && !s.leagueOfClub.has(c.id)).map((c) => c.id).sort()[0];
  national = [...s.clubs.values()].filter((c) => c.is_national_team).map((c) => c.id).sort()[0];
  const rated = (id: string) => s.ratings.get(id)?.at(-1)?.rating ?? 0;
  const other = [...s.clubsOfLeague.keys()].sort().find((l) => l !== league)!;
  player = s.clubsOfLeague.get(other)!.flatMap((c) => s.squads.get(c) ?? []).filter((id) => s.players.get(id)!.analysis_available)
    .sort((a, b) => rated(b) - rated(a) || a.localeCompare(b))[0];
  const members = s.clubsOfLeague.get(league)!;
  await setSeasonClubs(t.handle.db, { competition: league, season: seasonLabel(s.analysisSeason), clubs: [...members.slice(0, -1), newcomer] });
  await t.runtime.world.refresh();
});
after(async () => {
  await t?.close();
});

describe('a club named for the analysis season from outside the leagues', () => {
  test('forecast, squad analysis, impact and ROI answer 200 with thin_squad, and no season_clubs_assumed', async () => {
    assert.ok(newcomer, 'the demo world has a club outside every league');
    const fc = json(await t.get(`/v1/league_forecast?competition_id=${league}`)) as { clubs: { club_id: string; expected_position: number }[]; warnings: Warning[] };
    const mine = fc.clubs.find((c) => c.club_id === newcomer)!;
    assert.ok(mine, 'the newcomer is in the forecast');
    assert.ok(!fc.warnings.some((w) => w.code === 'season_clubs_assumed'), 'the clubs were named');

    const sq = await t.post('/v1/squad_analysis', { club_id: newcomer });
    assert.equal(sq.statusCode, 200, sq.body);
    const b = json(sq) as { expected_league_rank: number; squad: { player_id: string; position: string }[]; squad_size: number; warnings: Warning[] };
    assert.ok(Math.abs(b.expected_league_rank - mine.expected_position) <= 0.1);
    assert.ok(b.squad.every((e) => /^P[0-9A-Z]{26}$/.test(e.player_id)), 'stand-ins are never shown as players');
    const thin = b.warnings.filter((w) => w.code === 'thin_squad');
    assert.equal(thin.length, 1, JSON.stringify(b.warnings));
    assert.match(thin[0].message, new RegExp(`is simulated with ${b.squad_size} players? with analysis data \\(fewer than 18\\); the rest of a full squad of 22 is filled with stand-ins rated \\d+\\.\\d, the level at which promoted clubs of .+ played their first season in the data \\(\\d+ such clubs, mean finish \\d+\\.\\d\\); blending the rank its squad gives \\(\\d+\\.\\d\\) with where promoted clubs finish \\(squad weight \\d\\.\\d\\d\\), its strength is set so that it ranks about \\d+\\.\\d of \\d+\\.$`));
    assert.ok(fc.warnings.some((w) => w.code === 'thin_squad' && w.message === thin[0].message), 'the forecast names the thin club too');
    // the echo sent back as a custom squad is completed the same way: the same rank and warning
    const echo = json(await t.post('/v1/squad_analysis', { club_id: newcomer, squad: b.squad }));
    assert.equal(echo.expected_league_rank, b.expected_league_rank);
    assert.deepEqual(echo.warnings, b.warnings);

    for (const path of ['/v1/get_sportive_impact', '/v1/get_roi_analysis']) {
      const res = await t.post(path, { player_id: player, club_id: newcomer });
      assert.equal(res.statusCode, 200, `${path}: ${res.body}`);
      const w = json(res).warnings as Warning[];
      assert.ok(w.some((x) => x.code === 'thin_squad'), `${path}: ${JSON.stringify(w)}`);
      assert.ok(!w.some((x) => x.code === 'season_clubs_assumed'));
    }
  });

  test('a club whose league was not named: season_clubs_assumed in impact, ROI and squad analysis', async () => {
    const s = t.runtime.world.current();
    const other = [...s.clubsOfLeague.keys()].sort().find((l) => l !== league && !s.declaredLeagues.has(l))!;
    const club = s.analysisClubsOfLeague.get(other)![0];
    for (const [path, body] of [['/v1/squad_analysis', { club_id: club }], ['/v1/get_sportive_impact', { player_id: player, club_id: club }], ['/v1/get_roi_analysis', { player_id: player, club_id: club }]] as const) {
      const res = await t.post(path, body);
      assert.equal(res.statusCode, 200, `${path}: ${res.body}`);
      const w = (json(res).warnings as Warning[]).filter((x) => x.code === 'season_clubs_assumed');
      assert.equal(w.length, 1, path);
      assert.match(w[0].message, new RegExp(`^The ${seasonLabel(s.analysisSeason)} clubs of ${s.competitions.get(other)!.name} were not named`));
    }
  });
});

describe('clubs that cannot be simulated', () => {
  test('a national team is 400 Club has no domestic league to simulate in squad analysis, impact and ROI', async () => {
    assert.ok(national, 'the demo world has a national team');
    for (const [path, body] of [['/v1/squad_analysis', { club_id: national }], ['/v1/get_sportive_impact', { player_id: player, club_id: national }], ['/v1/get_roi_analysis', { player_id: player, club_id: national }]] as const) {
      const res = await t.post(path, body);
      assert.deepEqual([res.statusCode, json(res)], [400, { error: 'Club has no domestic league to simulate' }], path);
    }
  });
});
