/**
 * GET /v1/ready on an app that starts its analysis workers as a server does: 503 "starting" until
 * every worker holds the world and models in force and has warmed its clubs, 200 after, and 503 again while the workers load
 * the world after a data change (here a league's season clubs, which changes the world the workers
 * simulate but not the models).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { saveSeasonClubs } from '../../src/data/season-clubs-store.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
before(async () => {
  // two workers: ready means both hold the world
  t = await startTestApp({ warm: true, env: { ENGINE_WORKERS: '2' } });
});
after(async () => {
  await t?.close();
});

const LOADING = { status: 'starting', reason: 'the analysis workers are loading the world' };

/** /v1/ready's answers, polled until it says 200; each status with its body, consecutive repeats folded. */
async function readyAnswers(timeoutMs = 120_000): Promise<{ status: number; body: unknown }[]> {
  const seen: { status: number; body: unknown }[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await t.get('/v1/ready', null);
    const answer = { status: r.statusCode, body: JSON.parse(r.body) as unknown };
    if (JSON.stringify(seen.at(-1)) !== JSON.stringify(answer)) seen.push(answer);
    if (r.statusCode === 200 || Date.now() > deadline) return seen;
    assert.equal(r.headers['retry-after'], '5');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('503 while the analysis workers load the world at the start, then 200', async () => {
  // packing the world and building every club's baselines in the workers takes seconds: not done yet
  assert.deepEqual(await readyAnswers(), [{ status: 503, body: LOADING }, { status: 200, body: { status: 'ready' } }]);
  // ready means the workers hold it and have built their clubs' simulation baselines, as each one says
  const workers = t.runtime.deps.engine.workerMemory;
  assert.equal(workers.length, 2);
  for (const [w, m] of workers.entries()) assert.ok(m && m.baselines > 0 && m.matchDays > 0, `worker ${w}: ${JSON.stringify(m)}`);
  const s = t.runtime.world.current();
  const league = [...s.clubsOfLeague.keys()].sort()[0];
  assert.equal((await t.get(`/v1/league_forecast?competition_id=${league}`)).statusCode, 200);
  assert.equal((await t.get('/v1/ready', null)).statusCode, 200, 'and stays ready');
});

test('after a data change: 503 at once while the workers load the new world, then 200 on it', async () => {
  assert.equal((await t.get('/v1/ready', null)).statusCode, 200);
  const s = t.runtime.world.current();
  const league = [...s.analysisClubsOfLeague.keys()].sort()[0];
  const clubs = [...s.analysisClubsOfLeague.get(league)!];
  // the same clubs named anew: a new membership version, a new world for the workers
  await saveSeasonClubs(t.handle.db, league, s.analysisSeason, clubs);
  assert.equal(await t.runtime.world.refresh(), true, 'the change is read');
  const before = s.membershipVersion;
  assert.notEqual(t.runtime.world.current().membershipVersion, before);
  // the models did not change: only the workers are waited for
  assert.deepEqual(await readyAnswers(), [{ status: 503, body: LOADING }, { status: 200, body: { status: 'ready' } }]);
  assert.equal((await t.get(`/v1/league_forecast?competition_id=${league}`)).statusCode, 200);
});
