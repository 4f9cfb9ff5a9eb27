import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { buildApp } from '../../src/app.js';
import { createAccount, setAccountStatus } from '../../src/access/accounts.js';
import { createKey, revokeKey } from '../../src/access/keys.js';
import { createPlan } from '../../src/access/plans.js';
import { loadConfig } from '../../src/config.js';
import { createRuntime } from '../../src/runtime.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { redisReachable } from '../helpers/redis.js';

const json = (res: { body: string }) => JSON.parse(res.body);
let clock = Date.parse('2026-07-01T12:00:00Z');
let t: TestApp;

before(async () => {
  t = await startTestApp({ env: { RATE_LIMIT: '60', RATE_WINDOW_SECONDS: '60' }, now: () => clock });
});
after(async () => {
  await t?.close();
});

/** The authenticator polls the access version; tick() makes a change made a moment ago visible now. */
async function accessChanged() {
  await (t.runtime.deps.authenticator as unknown as { tick(): Promise<void> }).tick();
}

let accountNo = 0;
async function keyFor(opts: { status?: string; plan?: string; password?: string } = {}) {
  const email = `user${++accountNo}@club.example`;
  await createAccount(t.handle.db, { email, status: opts.status, plan: opts.plan, password: opts.password });
  const { api_key, key_id } = await createKey(t.handle.db, { email });
  await accessChanged();
  return { email, key: api_key, keyId: key_id };
}

describe('keys and accounts', () => {
  test('a revoked key: 401 API key is revoked', async () => {
    await createPlan(t.handle.db, { name: 'everything', all: true });
    const { key, keyId } = await keyFor({ plan: 'everything' });
    assert.equal((await t.get('/v1/competitions', key)).statusCode, 200);
    await revokeKey(t.handle.db, { keyId });
    await accessChanged();
    const res = await t.get('/v1/competitions', key);
    assert.equal(res.statusCode, 401);
    assert.deepEqual(json(res), { error: 'API key is revoked' });
  });

  test('account states: 403 with the exact reasons', async () => {
    const cases: Array<[{ status?: string; plan?: string }, string]> = [
      [{ status: 'inactive', plan: 'everything' }, 'Account access denied: account is inactive'],
      [{ status: 'registered', plan: 'everything' }, 'Account access denied: account is not activated'],
      [{ status: 'active' }, 'Account access denied: no plan access'],
    ];
    for (const [opts, error] of cases) {
      const { key } = await keyFor(opts);
      const res = await t.get('/v1/competitions', key);
      assert.equal(res.statusCode, 403);
      assert.deepEqual(json(res), { error });
      // The account state is judged before validation.
      assert.deepEqual(json(await t.get('/v1/player_info?player_id=bad', key)), { error });
    }
  });

  test('a status change takes effect without a restart', async () => {
    const { email, key } = await keyFor({ plan: 'everything' });
    assert.equal((await t.get('/v1/competitions', key)).statusCode, 200);
    await setAccountStatus(t.handle.db, { email, status: 'inactive' });
    await accessChanged();
    assert.deepEqual(json(await t.get('/v1/competitions', key)), { error: 'Account access denied: account is inactive' });
  });
});

describe('coverage', () => {
  let limited: string;
  let covered: string;
  let other: string;
  before(async () => {
    const s = t.runtime.world.current();
    [covered, other] = [...s.clubsOfLeague.keys()].sort();
    await createPlan(t.handle.db, { name: 'one-league', competitions: [covered] });
    limited = (await keyFor({ plan: 'one-league' })).key;
  });

  test('competitions lists only the plan\'s leagues', async () => {
    assert.deepEqual(json(await t.get('/v1/competitions', limited)), { competitions: [covered] });
    assert.equal((await t.get(`/v1/get_clubs_in_competition?competition_id=${covered}`, limited)).statusCode, 200);
    const res = await t.get(`/v1/get_clubs_in_competition?competition_id=${other}`, limited);
    assert.equal(res.statusCode, 403);
    assert.deepEqual(json(res), { error: 'Requested competition is not allowed' });
  });

  test('clubs and players outside the plan: 403 on every endpoint that takes them', async () => {
    const s = t.runtime.world.current();
    const outClub = s.clubsOfLeague.get(other)![0];
    const inClub = s.clubsOfLeague.get(covered)![0];
    const res = await t.get(`/v1/get_players_at_club?club_id=${outClub}`, limited);
    assert.equal(res.statusCode, 403);
    assert.deepEqual(json(res), { error: 'Requested club is not allowed' });
    assert.equal((await t.get(`/v1/get_players_at_club?club_id=${inClub}`, limited)).statusCode, 200);

    // A player whose current team and owning club are both outside the plan.
    const outsider = s.squads.get(outClub)!.find((id) => {
      const steps = s.careers.get(id)!;
      const last = steps[steps.length - 1];
      return !last.is_loan;
    })!;
    for (const url of [`/v1/player_info?player_id=${outsider}`, `/v1/career_path?player_id=${outsider}`, `/v1/playing_time?player_id=${outsider}`]) {
      const r = await t.get(url, limited);
      assert.equal(r.statusCode, 403, url);
      assert.deepEqual(json(r), { error: 'Player is not in the allowed leagues' }, url);
    }
    const q = await t.post('/v1/query_player', { service_id: outsider }, limited);
    assert.deepEqual(json(q), { error: 'Player is not in the allowed leagues' });
    // 404 comes before coverage; 400 before 404.
    assert.deepEqual(json(await t.get(`/v1/player_info?player_id=P${'0'.repeat(26)}`, limited)), { error: 'Player not found' });
    assert.deepEqual(json(await t.get('/v1/player_info?player_id=nope', limited)), { error: 'Invalid player_id' });
  });

  test('valuation endpoints apply coverage to the player and the club', async () => {
    const s = t.runtime.world.current();
    const outClub = s.clubsOfLeague.get(other)![0];
    const inClub = s.clubsOfLeague.get(covered)![0];
    const analysable = (club: string) =>
      s.squads.get(club)!.find((id) => {
        const steps = s.careers.get(id)!;
        return !steps[steps.length - 1].is_loan && s.players.get(id)!.analysis_available;
      })!;
    const outsider = analysable(outClub);
    const insider = analysable(inClub);
    const fee = await t.get(`/v1/expected_transfer_value?player_id=${outsider}`, limited);
    assert.equal(fee.statusCode, 403);
    assert.deepEqual(json(fee), { error: 'Player is not in the allowed leagues' });
    assert.equal((await t.get(`/v1/expected_transfer_value?player_id=${insider}`, limited)).statusCode, 200);
    const future = (player: string, club: string) => t.post('/v1/get_future_transfer_value', { player_id: player, club_id: club }, limited);
    assert.deepEqual(json(await future(outsider, inClub)), { error: 'Player is not in the allowed leagues' });
    assert.deepEqual(json(await future(insider, outClub)), { error: 'Requested club is not allowed' });
    assert.equal((await future(insider, inClub)).statusCode, 200);
  });

  test('a player on loan is covered through his owning club', async () => {
    const s = t.runtime.world.current();
    const leagueOf = (c: string) => s.leagueOfClub.get(c);
    const loan = [...s.careers.entries()]
      .map(([id, steps]) => ({ id, last: steps[steps.length - 1] }))
      .find(({ last }) => last.end_date === null && last.is_loan && last.parent_club_id && leagueOf(last.parent_club_id) && leagueOf(last.parent_club_id) !== leagueOf(last.club_id));
    assert.ok(loan, 'a player loaned across leagues exists');
    await createPlan(t.handle.db, { name: 'owner-league', competitions: [leagueOf(loan.last.parent_club_id!)!] });
    const { key } = await keyFor({ plan: 'owner-league' });
    assert.equal((await t.get(`/v1/player_info?player_id=${loan.id}`, key)).statusCode, 200);
  });

  test('extra clubs on a plan', async () => {
    const s = t.runtime.world.current();
    const club = s.clubsOfLeague.get(other)![1];
    await createPlan(t.handle.db, { name: 'one-club', clubs: [club] });
    const { key } = await keyFor({ plan: 'one-club' });
    assert.equal((await t.get(`/v1/get_players_at_club?club_id=${club}`, key)).statusCode, 200);
    assert.equal((await t.get(`/v1/get_players_at_club?club_id=${s.clubsOfLeague.get(other)![2]}`, key)).statusCode, 403);
  });
});

describe('rolling rate limit', () => {
  test('60 accepted in any 60 s, the 61st rejected, rejected ones not counted, recovery when the oldest leaves', async () => {
    const { key } = await keyFor({ plan: 'everything' });
    const start = clock;
    for (let i = 1; i <= 60; i++) {
      clock = start + i * 100;
      const res = await t.get('/v1/player_positions', key);
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['ratelimit-remaining'], String(60 - i));
      assert.equal(res.headers['ratelimit-limit'], '60');
    }
    clock = start + 10_000;
    const rejected = await t.get('/v1/player_positions', key);
    assert.equal(rejected.statusCode, 429);
    // The oldest counted request was at start+100: it leaves at start+60,100, 50.1 s from now.
    assert.deepEqual(json(rejected), { error: 'Rate limit exceeded', limit: 60, window_seconds: 60, retry_after_seconds: 51 });
    assert.equal(rejected.headers['retry-after'], '51');
    // Rate limit comes before validation.
    assert.equal((await t.get('/v1/player_info?player_id=bad', key)).statusCode, 429);
    // Health is exempt.
    assert.equal((await t.get('/v1/health', key)).statusCode, 200);
    // Many rejected retries do not push recovery back.
    for (let i = 0; i < 5; i++) assert.equal((await t.get('/v1/player_positions', key)).statusCode, 429);
    clock = start + 60_099;
    assert.equal((await t.get('/v1/player_positions', key)).statusCode, 429);
    clock = start + 60_100;
    const back = await t.get('/v1/player_positions', key);
    assert.equal(back.statusCode, 200);
    assert.equal(back.headers['ratelimit-remaining'], '0');
  });

  test('each key has its own window', async () => {
    const a = await keyFor({ plan: 'everything' });
    const b = await keyFor({ plan: 'everything' });
    for (let i = 0; i < 60; i++) await t.get('/v1/player_positions', a.key);
    assert.equal((await t.get('/v1/player_positions', a.key)).statusCode, 429);
    assert.equal((await t.get('/v1/player_positions', b.key)).statusCode, 200);
  });
});

describe('login', () => {
  test('email and password give a 24-hour key that works', async () => {
    const { email } = await keyFor({ plan: 'everything', password: 'correct horse battery' });
    const res = await t.post('/v1/auth/login', { email, password: 'correct horse battery' }, null);
    assert.equal(res.statusCode, 200);
    const b = json(res);
    assert.deepEqual(Object.keys(b).sort(), ['api_key', 'expires_at', 'key_id', 'token_type']);
    assert.equal(b.token_type, 'Bearer');
    // Expiry follows the service clock, injected here.
    assert.equal(Date.parse(b.expires_at) - clock, 24 * 3600_000);
    await accessChanged();
    assert.equal((await t.get('/v1/competitions', null, { authorization: `Bearer ${b.api_key}` })).statusCode, 200);
  });

  test('unknown email and wrong password answer alike; more than 10 failures lock the email', async () => {
    const { email } = await keyFor({ plan: 'everything', password: 'right-password' });
    const unknown = await t.post('/v1/auth/login', { email: 'nobody@club.example', password: 'x' }, null);
    assert.equal(unknown.statusCode, 401);
    assert.deepEqual(json(unknown), { error: 'Invalid email or password' });
    for (let i = 0; i < 10; i++) {
      const res = await t.post('/v1/auth/login', { email, password: 'wrong' }, null);
      assert.equal(res.statusCode, 401);
      assert.deepEqual(json(res), { error: 'Invalid email or password' });
    }
    const locked = await t.post('/v1/auth/login', { email, password: 'right-password' }, null);
    assert.equal(locked.statusCode, 429);
    // The one 429 shape of CONVENTIONS. The ten failures share one clock reading, so the lock lifts a full window later.
    assert.deepEqual(json(locked), { error: 'Rate limit exceeded', limit: 10, window_seconds: 900, retry_after_seconds: 900 });
    assert.equal(locked.headers['retry-after'], '900');
  });

  test('login bodies are validated', async () => {
    assert.deepEqual(json(await t.post('/v1/auth/login', '[]', null)), { error: 'Body must be a JSON object' });
    assert.deepEqual(json(await t.post('/v1/auth/login', { password: 'x' }, null)), { error: 'email is required' });
  });
});

describe('shared limit on Redis', async () => {
  const redisUrl = process.env.TOUCHLINE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const reachable = await redisReachable(redisUrl);
  test('two app instances on one Redis share one limit', { skip: reachable ? false : `no Redis at ${redisUrl}` }, async () => {
    const config = loadConfig({ LOG_LEVEL: 'silent', REDIS_URL: redisUrl, RATE_LIMIT: '60' });
    const logger = pino({ level: 'silent' });
    const runtimes = [await createRuntime(config, t.handle, logger, { dataPollMs: 0 }), await createRuntime(config, t.handle, logger, { dataPollMs: 0 })];
    const apps = await Promise.all(runtimes.map((r) => buildApp(r.deps, { logger })));
    try {
      const { key } = await keyFor({ plan: 'everything' });
      for (const r of runtimes) await (r.deps.authenticator as unknown as { tick(): Promise<void> }).tick();
      for (let i = 0; i < 60; i++) {
        const res = await apps[i % 2].inject({ method: 'GET', url: '/v1/player_positions', headers: { 'x-api-key': key } });
        assert.equal(res.statusCode, 200);
      }
      for (const app of apps) {
        const res = await app.inject({ method: 'GET', url: '/v1/player_positions', headers: { 'x-api-key': key } });
        assert.equal(res.statusCode, 429);
      }
      assert.equal(json(await apps[0].inject({ method: 'GET', url: '/v1/health' })).rate_limit, 'ok');
    } finally {
      for (const app of apps) await app.close();
      for (const r of runtimes) await r.close();
    }
  });
});
