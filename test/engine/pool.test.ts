/**
 * The analysis engine's worker pool on the demo world: answers byte-identical to the in-thread
 * computation, a world swap reaching the workers, back-pressure (503 + Retry-After on a full
 * queue) and a shutdown that lets queued work finish.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { snapshotOf, type SnapshotSource } from '../../src/domain/snapshot-source.js';
import { AnalysisEngine, EngineBusyError, type EngineWorld } from '../../src/engine/pool.js';
import { engineModels, runTask, type Task } from '../../src/engine/tasks.js';
import { ENGINE_BUSY } from '../../src/http/engine-answer.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let world: EngineWorld;
let clubs: string[];
let players: string[];
before(async () => {
  t = await startTestApp();
  const snapshot = t.runtime.world.current();
  world = { snapshot, source: t.runtime.world.source(), bundle: t.runtime.models.current()! };
  const league = [...snapshot.clubsOfLeague.keys()].sort()[0];
  clubs = [...snapshot.clubsOfLeague.get(league)!];
  players = clubs.flatMap((c) => snapshot.squads.get(c) ?? []).filter((id) => snapshot.players.get(id)!.analysis_available).sort().slice(0, 12);
});
after(async () => {
  await t?.close();
});

const roi = (playerId: string, clubId: string): Task => ({ kind: 'roi', playerId, clubId, annualWageEur: 1_000_000, feeEur: null });

describe('analysis engine', () => {
  test('pool answers are byte-identical to the in-thread computation, and repeatable', async () => {
    const pool = new AnalysisEngine({ workers: 2, maxQueue: 64 });
    const inThread = new AnalysisEngine({ workers: 0, maxQueue: 64 });
    try {
      const tasks: Task[] = [
        ...players.slice(0, 6).map((p, i) => roi(p, clubs[clubs.length - 1 - i])),
        { kind: 'impact', playerId: players[0], clubId: clubs[1] },
        { kind: 'squad', clubId: clubs[2], squad: null },
        { kind: 'forecast', league: world.snapshot.leagueOfClub.get(clubs[0])! },
        {
          kind: 'recommend', clubId: clubs[0], position: 'CM', maxFee: { amount: 80_000_000, code: 'GBP', rates: t.runtime.world.rates() }, maxAge: 30,
          competitions: null, limit: 5, coveredClubs: clubs, annualWageEur: 1_000_000, minPlayingTimePercentage: 25, sort: 'net_value_created',
        },
      ];
      const fromPool = await Promise.all(tasks.map((task) => pool.run(world, task)));
      const again = await Promise.all(tasks.map((task) => pool.run(world, task)));
      for (const [i, task] of tasks.entries()) {
        const local = await inThread.run(world, task);
        assert.equal(fromPool[i].ok, true, `${task.kind}: ${JSON.stringify(fromPool[i])}`);
        assert.equal(JSON.stringify(fromPool[i]), JSON.stringify(local), `${task.kind} differs from the in-thread answer`);
        assert.equal(JSON.stringify(again[i]), JSON.stringify(local), `${task.kind} differs on a second run`);
      }
    } finally {
      await Promise.all([pool.close(), inThread.close()]);
    }
  });

  test('a pool warmed with its clubs\' simulation baselines answers exactly as a cold thread', async () => {
    const pool = new AnalysisEngine({ workers: 2, maxQueue: 64 });
    try {
      await pool.warm(world);
      const tasks: Task[] = [...players.slice(6, 10).map((p, i) => roi(p, clubs[i])), { kind: 'impact', playerId: players[11], clubId: clubs[0] }];
      const warmed = await Promise.all(tasks.map((task) => pool.run(world, task)));
      for (const [i, task] of tasks.entries()) {
        // computed on this thread, from its own baselines, not the workers' warmed ones
        assert.equal(JSON.stringify(warmed[i]), JSON.stringify(runTask(engineModels(world.snapshot, world.bundle), task)));
      }
    } finally {
      await pool.close();
    }
  });

  test('the impact model\'s refusals come back as values', async () => {
    const pool = new AnalysisEngine({ workers: 1, maxQueue: 4 });
    try {
      const r = await pool.run(world, { kind: 'squad', clubId: clubs[0], squad: [{ playerId: players[0], position: 'XX' }] });
      assert.deepEqual(r.ok ? null : { code: r.code, index: r.index }, { code: 'invalid_squad_entry', index: 0 });
    } finally {
      await pool.close();
    }
  });

  test('a world swap reaches the workers', async () => {
    // next season's membership moves the first club into another league: a new package
    const s = world.snapshot;
    const leagues = [...s.clubsOfLeague.keys()].sort();
    const other = leagues[1];
    const moved = clubs[0];
    const seasonClubs = [...s.clubsOfLeague.get(other)!, moved].map((club_id) => ({ season: s.analysisSeason, competition_id: other, club_id }));
    const source: SnapshotSource = { ...world.source, seasonClubs, membershipVersion: 'test-swap' };
    const swapped: EngineWorld = { snapshot: snapshotOf(source), source, bundle: world.bundle };
    assert.equal(swapped.snapshot.analysisLeagueOfClub.get(moved), other);
    const pool = new AnalysisEngine({ workers: 2, maxQueue: 64 });
    const inThread = new AnalysisEngine({ workers: 0, maxQueue: 64 });
    try {
      const task: Task = { kind: 'forecast', league: other };
      // five at once: the league's worker takes four, the fifth goes to the other (pool.ts's pick)
      const five = (w: EngineWorld) => Promise.all(Array.from({ length: 5 }, () => pool.run(w, task)));
      const before = await five(world);
      const after = await five(swapped);
      const clubsIn = (r: (typeof before)[number]) => (r.ok ? (r.result as { clubs: { clubId: string }[] }).clubs.map((c) => c.clubId) : []);
      for (const r of before) assert.ok(!clubsIn(r).includes(moved));
      for (const r of after) {
        assert.ok(clubsIn(r).includes(moved), 'every worker serves the new membership');
        assert.equal(JSON.stringify(r), JSON.stringify(await inThread.run(swapped, task)));
      }
    } finally {
      await Promise.all([pool.close(), inThread.close()]);
    }
  });

  test('a full queue is refused at once, and close lets queued tasks finish', async () => {
    const pool = new AnalysisEngine({ workers: 1, maxQueue: 2 });
    const settled = await Promise.allSettled(players.slice(0, 8).map((p) => pool.run(world, roi(p, clubs[3]))));
    const busy = settled.filter((r) => r.status === 'rejected');
    assert.ok(busy.length >= 4, `at most 1 running + 2 waiting of 8: ${busy.length} refused`);
    for (const r of busy) assert.ok(r.status === 'rejected' && r.reason instanceof EngineBusyError && r.reason.retryAfterSeconds >= 1);
    for (const r of settled) if (r.status === 'fulfilled') assert.equal(r.value.ok, true);

    const queued = [pool.run(world, roi(players[8], clubs[4])), pool.run(world, roi(players[9], clubs[4]))];
    await pool.close();
    for (const r of await Promise.all(queued)) assert.equal(r.ok, true, 'queued work finishes before the workers stop');
    await assert.rejects(pool.run(world, roi(players[10], clubs[4])), EngineBusyError);
  });
});

describe('back-pressure over HTTP', () => {
  let small: TestApp;
  before(async () => {
    small = await startTestApp({ env: { ENGINE_WORKERS: '1', ENGINE_QUEUE: '1' } });
  });
  after(async () => {
    await small?.close();
  });

  test('503 with Retry-After when the queue is full; the others answer 200', async () => {
    const answers = await Promise.all(players.slice(0, 8).map((p) => small.post('/v1/get_roi_analysis', { player_id: p, club_id: clubs[5] })));
    const refused = answers.filter((r) => r.statusCode === 503);
    const served = answers.filter((r) => r.statusCode === 200);
    assert.equal(refused.length + served.length, answers.length, answers.map((r) => r.statusCode).join(','));
    assert.ok(refused.length >= 1 && served.length >= 2, `${served.length} served, ${refused.length} refused`);
    for (const r of refused) {
      assert.deepEqual(JSON.parse(r.body), { error: ENGINE_BUSY, retry_after_seconds: 1 });
      assert.equal(r.headers['retry-after'], '1');
    }
    // a refusal is not cached: the same request answers once the queue has room
    const again = await small.post('/v1/get_roi_analysis', { player_id: players[answers.indexOf(refused[0])], club_id: clubs[5] });
    assert.equal(again.statusCode, 200);
  });
});
