/**
 * What the workers tell their engine (engine/worker-reports.ts): their memory, and the package whose
 * clubs they have warmed, which readiness waits for from every worker. Both ends run in this thread
 * here (a BroadcastChannel delivers to every other object of its name); the pool's own workers:
 * test/api/ready.test.ts and test/api/metrics.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startReporting, WorkerReports } from '../../src/engine/worker-reports.js';

const settled = async (p: Promise<void>) => Promise.race([p.then(() => true), sleep(50).then(() => false)]);

test('clubs are warm for a package once every worker has said so for that package', async () => {
  const board = new WorkerReports(2);
  try {
    const first = startReporting({ memoryChannel: board.channelName, worker: 0 });
    const second = startReporting({ memoryChannel: board.channelName, worker: 1 });
    const warm = board.clubsWarm('K2');
    first('K2');
    second('K1'); // an older world's
    assert.equal(await settled(warm), false, 'one worker is still on another package');
    second('K2');
    assert.equal(await settled(warm), true);
    assert.equal(await settled(board.clubsWarm('K2')), true, 'and at once for a later caller');
    for (const m of board.reports) assert.ok(m && m.heapUsed > 0 && m.heapReserved >= m.heapUsed && m.baselines >= 0 && m.matchDays >= 0);
    first(); // a periodic report keeps the package it had warmed
    await sleep(20);
    assert.equal(await settled(board.clubsWarm('K2')), true);
  } finally {
    board.close();
  }
});

test('a wait ends when the engine closes; a worker of another engine is not heard', async () => {
  const board = new WorkerReports(1);
  const other = new WorkerReports(1);
  const warm = board.clubsWarm('K');
  startReporting({ memoryChannel: other.channelName, worker: 0 })('K');
  assert.equal(await settled(warm), false);
  assert.deepEqual(board.reports, [null]);
  board.close();
  other.close();
  assert.equal(await settled(warm), true);
});

test('a wait keeps the process alive; the board does not once nobody waits', async () => {
  // the workers warm between tasks, idle to piscina: a process awaiting readiness with nothing else to do ended mid-wait
  const ports = () => process.getActiveResourcesInfo().filter((r) => r === 'MessagePort').length;
  const before = ports();
  const board = new WorkerReports(1);
  try {
    assert.equal(ports(), before, 'an idle board holds nothing');
    const warm = board.clubsWarm('K');
    assert.equal(ports(), before + 1, 'a wait holds the process');
    const worker = startReporting({ memoryChannel: board.channelName, worker: 0 });
    worker('K');
    assert.equal(await settled(warm), true);
    assert.equal(ports(), before, 'let go once the wait is over');
  } finally {
    board.close();
  }
});
