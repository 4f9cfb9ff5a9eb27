import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, test } from 'node:test';
import { demoDataDir } from '../helpers/app.js';
import { runCli, spawnCli, startServerProcess, type ServerProcess } from '../helpers/server-process.js';

// `touchline leagues set-clubs|show` as an operator runs them: a real server on the embedded demo
// database, the CLI in another process going through the server's admin socket.

let dataDir = '';
let server: ServerProcess | null = null;
after(async () => {
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

interface Club { service_id: string; registry_a_id: number | null; name: string }
interface Shown { competition: string; season: string; source: string; clubs: { club_id: string; registry_a_id: number | null; name: string }[] }

test('leagues set-clubs and show through the running server: errors change nothing, the next request sees a change', { timeout: 1_200_000 }, async () => {
  dataDir = await demoDataDir('touchline-leagues-');
  server = await startServerProcess({ env: { TOUCHLINE_DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, startTimeoutMs: 900_000 });
  const key = /Demo API key: (\S+)/.exec(server.output())?.[1];
  assert.ok(key, 'the start prints a demo key');
  const headers = { 'x-api-key': key };
  // Generous: the first forecast waits for the workers' world, at nice +10, while CI runs beside it.
  const get = async <T>(path: string) => {
    const res = await server!.request(path, { headers, timeoutMs: 120_000 });
    assert.equal(res.status, 200, `${path}: ${res.status}`);
    return res.json<T>();
  };
  const leagues = (await get<{ competitions: string[] }>('/v1/competitions')).competitions;
  const [league, other] = leagues;
  const clubsOf = async (id: string) => (await get<{ clubs: Club[] }>(`/v1/get_clubs_in_competition?competition_id=${id}`)).clubs;
  const members = await clubsOf(league);
  const promoted = (await clubsOf(other))[0];
  const forecastIds = async () => (await get<{ clubs: { club_id: string }[] }>(`/v1/league_forecast?competition_id=${league}`)).clubs.map((c) => c.club_id).sort();
  const ids = (list: { service_id?: string; club_id?: string }[]) => list.map((c) => c.service_id ?? c.club_id).sort();
  assert.deepEqual(await forecastIds(), ids(members));

  const env = { TOUCHLINE_DATA_DIR: dataDir };
  const shown = (await runCli(['leagues', 'show', league, '--json'], env)).json<Shown>();
  assert.equal(shown.source, 'default');
  assert.deepEqual(ids(shown.clubs), ids(members));
  const season = shown.season;
  assert.match(season, /^\d{4}\/\d{4}$/);

  const fails = async (args: string[], message: RegExp) => {
    const r = await spawnCli(['leagues', ...args], env).done;
    assert.notEqual(r.code, 0, args.join(' '));
    assert.match(r.stderr, message, args.join(' '));
  };
  const unknown = 'C' + 'Z'.repeat(26);
  // None of these changes anything, so they run side by side.
  await Promise.all([
    fails(['set-clubs', league, '--season', season, '--clubs', [...members.map((c) => c.service_id), unknown].join(',')], new RegExp(`Unknown club: ${unknown}`)),
    fails(['set-clubs', league, '--season', season, '--registry-a-ids', `${members[0].registry_a_id},987654321`], /Unknown club with registry_a_id 987654321/),
    fails(['set-clubs', league, '--season', '2026', '--clubs', members.map((c) => c.service_id).join(',')], /Invalid season/),
    fails(['set-clubs', 'NO_SUCH_LEAGUE', '--season', season, '--clubs', members.map((c) => c.service_id).join(',')], /Unknown competition: NO_SUCH_LEAGUE/),
    fails(['set-clubs', 'CONTINENTAL_CHAMPIONS_CUP', '--season', season, '--clubs', members.map((c) => c.service_id).join(',')], /not a domestic league/),
    fails(['set-clubs', league, '--season', season], /exactly one of/),
    fails(['show', league, '--season', '2026/27'], /Invalid season/),
  ]);
  assert.equal((await runCli(['leagues', 'show', league, '--json'], env)).json<Shown>().source, 'default', 'nothing changed');
  assert.deepEqual(await forecastIds(), ids(members));

  // Relegate one, promote one, by registry ids; the very next request simulates the new league.
  const next = [...members.slice(1), promoted];
  const set = (await runCli(['leagues', 'set-clubs', league, '--season', season, '--registry-a-ids', next.map((c) => c.registry_a_id).join(','), '--json'], env)).json<Shown>();
  assert.equal(set.source, 'set');
  assert.deepEqual(ids(set.clubs), ids(next));
  assert.deepEqual(await forecastIds(), ids(next));
  const sq = await server.request('/v1/squad_analysis', { method: 'POST', headers, body: { club_id: members[0].service_id } });
  assert.equal(sq.status, 400, 'the relegated club plays in no league of the analysis season');
  assert.equal(sq.json<{ error: string }>().error, 'Club has no domestic league to simulate');
  assert.equal((await runCli(['leagues', 'show', league, '--season', season, '--json'], env)).json<Shown>().source, 'set');
  const human = await runCli(['leagues', 'show', league], env);
  assert.match(human.stdout, new RegExp(`${league} ${season}: ${next.length} clubs, set by the operator`));
});
