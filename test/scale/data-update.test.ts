/**
 * `touchline data update` with two server instances on one PostgreSQL database, as behind a load
 * balancer: the CLI (its own process, on the same database) updates, both instances answer the new
 * value within 10 s without a restart, an update killed mid-import changes nothing either serves
 * (nor what a restarted instance reads), and a rollback brings the old value back on both.
 * Needs TOUCHLINE_TEST_DATABASE_URL (`.ci/run` sets it).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createScratchDatabase, freePort, queryOnce, SHARED_MODELS_DIR, sleep, spawnCli, startServerProcess, waitFor, type ServerProcess } from '../helpers/server-process.js';
import { baseAndNext, RAISED, serveZips } from '../helpers/update-fixture.js';

const PG = process.env.TOUCHLINE_TEST_DATABASE_URL;
const skip = !PG ? 'set TOUCHLINE_TEST_DATABASE_URL to run the PostgreSQL tests (.ci/run does)' : false;
const KEY = 'tl_scale_data_update_key_0123456789abcdef';

describe('data update on PostgreSQL with two instances', { skip }, () => {
  let db: Awaited<ReturnType<typeof createScratchDatabase>>;
  let zips: Awaited<ReturnType<typeof serveZips>>;
  let dataDir = '';
  let a: ServerProcess;
  let b: ServerProcess;
  let cliEnv: Record<string, string>;
  let serverEnv: Record<string, string>;

  before(async () => {
    db = await createScratchDatabase(PG!, `upd${process.pid}`);
    dataDir = mkdtempSync(join(tmpdir(), 'touchline-pg-update-'));
    const { baseZip, nextZip } = await baseAndNext();
    zips = await serveZips({ '/v1.zip': baseZip, '/v2.zip': nextZip }, await freePort());
    // The CLI keeps the previous data and the report in its data folder; models go where the instances read them.
    cliEnv = { DATABASE_URL: db.url, TOUCHLINE_DATA_DIR: dataDir, TOUCHLINE_MODELS_DIR: SHARED_MODELS_DIR };
    serverEnv = { DATABASE_URL: db.url, TOUCHLINE_BOOTSTRAP_KEY: KEY, RATE_LIMIT: '100000', LOG_LEVEL: 'warn' };
    // The first update fills the empty database, so the instances start on the fixture's world (not the demo's).
    const first = await update('/v1.zip').done;
    assert.equal(first.code, 0, first.stderr);
    [a, b] = await Promise.all([startServerProcess({ env: serverEnv, name: 'instance A' }), startServerProcess({ env: serverEnv, name: 'instance B' })]);
  });

  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    zips?.close();
    await db?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const update = (path: string) => spawnCli(['data', 'update', '--from', zips.url(path), '--json'], cliEnv, { timeoutMs: 300_000 });
  const latestOn = async (s: ServerProcess, id: string) =>
    (await s.request(`/v1/market_value_history?player_id=${id}`, { key: KEY })).json<{ market_values: { value_in_eur: number }[] }>().market_values.at(-1)?.value_in_eur;
  const stagingLeft = async () => (await queryOnce<{ n: number }>(db.url, `select count(*)::int as n from information_schema.schemata where schema_name = 'touchline_staging'`))[0].n > 0;

  /** Polls both instances until each answers `value` for the player; fails after 10 s from `since`. */
  async function bothAnswer(id: string, value: number, what: string, since = Date.now()): Promise<void> {
    await Promise.all([a, b].map((s) => waitFor(`${what} on ${s.name}`, async () => (await latestOn(s, id)) === value, { timeoutMs: 10_000 - (Date.now() - since), intervalMs: 200 })));
    assert.ok(Date.now() - since < 10_000, `${what} within 10 s`);
  }

  test('an update through the CLI is answered by both instances within 10 s; a killed one changes nothing; rollback brings the old value back on both', { timeout: 600_000 }, async () => {
    const found = (await a.request('/v1/search?q=Adam%20Archer&type=player', { key: KEY })).json<{ results: { service_id?: string; name: string }[] }>();
    const id = found.results.find((x) => x.name === 'Adam Archer')?.service_id;
    assert.ok(id, 'the first update is served');
    const old = await latestOn(a, id);
    assert.ok(old && old !== RAISED);
    assert.equal(await latestOn(b, id), old);

    // Killed while it fills the staging copy: both instances keep the old value, and so does one restarted.
    const killed = update('/v2.zip');
    await waitFor('the staging copy being filled', async () => /storing the new world in the staging copy/.test(killed.output().stderr), { timeoutMs: 120_000, intervalMs: 20 });
    killed.child.kill('SIGKILL');
    assert.doesNotMatch(killed.output().stderr, /swapping the new data in/, 'killed before the swap');
    assert.equal((await killed.done).signal, 'SIGKILL');
    assert.ok(await stagingLeft(), 'the kill left the staging copy behind');
    // Longer than a version check (2 s): nothing an instance could pick up changed.
    await sleep(3_000);
    assert.deepEqual([await latestOn(a, id), await latestOn(b, id)], [old, old]);
    await b.stop();
    b = await startServerProcess({ env: serverEnv, name: 'instance B (restarted)' });
    assert.equal(await latestOn(b, id), old, 'a restarted instance reads the data from before the killed update');

    // The next update drops the leftover and goes through: both answer the raised value within 10 s.
    const second = await update('/v2.zip').done;
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.json<{ status: string }>().status, 'updated');
    await bothAnswer(id, RAISED, 'the raised value');
    assert.equal(await stagingLeft(), false, 'the staging copy is dropped after the swap');

    const back = await spawnCli(['data', 'rollback', '--json'], cliEnv, { timeoutMs: 300_000 }).done;
    assert.equal(back.code, 0, back.stderr);
    await bothAnswer(id, old, 'the old value after rollback');
  });
});
