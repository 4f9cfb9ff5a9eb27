import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DatabaseHandle } from '../../src/data/db.js';
import { createAccount } from '../../src/access/accounts.js';
import { createKeyAuthenticator } from '../../src/access/authenticator.js';
import { createKey } from '../../src/access/keys.js';
import { AccessError } from '../../src/access/messages.js';
import { createPlan, listPlans, MAX_PLAN_RATE_LIMIT, parseRateLimit, updatePlan } from '../../src/access/plans.js';
import { readAccessVersion } from '../../src/access/version.js';
import { openTestDatabase, uniqueEmail } from './fixture.js';

// Plan administration on a database that knows two competitions and two clubs.
const CLUB_A = 'C00000000000000000000000001';
const CLUB_B = 'C00000000000000000000000002';
const CLUB_TYPO = 'C00000000000000000000000009';

let h: DatabaseHandle;
before(async () => {
  h = await openTestDatabase();
  await h.db
    .insertInto('competitions')
    .values([
      { id: 'PREMIER_LEAGUE', name: 'Premier League', country: 'England', type: 'DOMESTIC_LEAGUE', tier: 1, registry_a_code: 'GB1' },
      { id: 'LIGUE_1', name: 'Ligue 1', country: 'France', type: 'DOMESTIC_LEAGUE', tier: 1, registry_a_code: 'FR1' },
    ])
    .execute();
  await h.db
    .insertInto('clubs')
    .values([
      { id: CLUB_A, registry_a_id: 1, name: 'A', country: 'England', is_national_team: false },
      { id: CLUB_B, registry_a_id: 2, name: 'B', country: 'France', is_national_team: false },
    ])
    .execute();
});
after(async () => {
  await h.close();
});

const planNamed = async (name: string) => (await listPlans(h.db)).find((p) => p.name === name);

test('plans create refuses unknown competitions and clubs, naming each, and creates nothing', async () => {
  await assert.rejects(
    createPlan(h.db, { name: 'typo', competitions: ['LA_LIGA'] }),
    new AccessError('Unknown competition: LA_LIGA; nothing was changed (--allow-unknown accepts ids not imported yet)'),
  );
  await assert.rejects(
    createPlan(h.db, { name: 'typo', competitions: ['PREMIER_LEAGUE', 'SERIE_A', 'LA_LIGA'], clubs: [CLUB_A, CLUB_TYPO] }),
    new AccessError(`Unknown competitions: LA_LIGA, SERIE_A; unknown club: ${CLUB_TYPO}; nothing was changed (--allow-unknown accepts ids not imported yet)`),
  );
  await assert.rejects(createPlan(h.db, { name: 'typo', clubs: [CLUB_TYPO] }), new AccessError(`Unknown club: ${CLUB_TYPO}; nothing was changed (--allow-unknown accepts ids not imported yet)`));
  assert.equal(await planNamed('typo'), undefined);
  const ok = await createPlan(h.db, { name: 'known', competitions: ['premier_league'], clubs: [CLUB_B] });
  assert.deepEqual(ok, { name: 'known', all: false, competitions: ['PREMIER_LEAGUE'], clubs: [CLUB_B], rate_limit: null, unknown_competitions: [], unknown_clubs: [] });
});

test('--allow-unknown names competitions and clubs before they are imported, and reports them', async () => {
  const p = await createPlan(h.db, { name: 'early', competitions: ['LA_LIGA', 'LIGUE_1'], clubs: [CLUB_TYPO], allowUnknown: true });
  assert.deepEqual([p.competitions, p.unknown_competitions, p.unknown_clubs], [['LA_LIGA', 'LIGUE_1'], ['LA_LIGA'], [CLUB_TYPO]]);
  const u = await updatePlan(h.db, { name: 'early', competitions: ['SERIE_A'], allowUnknown: true });
  assert.deepEqual(u.unknown_competitions, ['SERIE_A']);
});

test('plans update refuses unknown ids and changes nothing: same plan, same access version', async () => {
  await createPlan(h.db, { name: 'steady', competitions: ['LIGUE_1'], rateLimit: 7 });
  const before = await planNamed('steady');
  const v0 = await readAccessVersion(h.db);
  await assert.rejects(
    updatePlan(h.db, { name: 'steady', competitions: ['LIGUE_1', 'LIGUE_ONE'], rateLimit: 9 }),
    new AccessError('Unknown competition: LIGUE_ONE; nothing was changed (--allow-unknown accepts ids not imported yet)'),
  );
  assert.deepEqual(await planNamed('steady'), before);
  assert.equal(await readAccessVersion(h.db), v0);
  // The unknown plan is named before any id is looked at.
  await assert.rejects(updatePlan(h.db, { name: 'nope', competitions: ['LA_LIGA'] }), new AccessError('Unknown plan: nope'));
});

test('a plan carries its own rate limit; update sets it, resets it (null) or keeps it', async () => {
  const p = await createPlan(h.db, { name: 'fast', all: true, rateLimit: 600 });
  assert.equal(p.rate_limit, 600);
  assert.equal((await createPlan(h.db, { name: 'plain', all: true })).rate_limit, null, 'default: the RATE_LIMIT setting');
  const v0 = await readAccessVersion(h.db);
  // The limit alone: coverage kept, and every cached key is told (access version bump).
  const limited = await updatePlan(h.db, { name: 'fast', rateLimit: 5 });
  assert.deepEqual([limited.all, limited.rate_limit], [true, 5]);
  assert.notEqual(await readAccessVersion(h.db), v0, 'a limit change bumps access_version');
  // Coverage alone: the limit kept.
  const narrowed = await updatePlan(h.db, { name: 'fast', competitions: ['LIGUE_1'] });
  assert.deepEqual([narrowed.all, narrowed.competitions, narrowed.rate_limit], [false, ['LIGUE_1'], 5]);
  assert.equal((await planNamed('fast'))?.rate_limit, 5);
  const reset = await updatePlan(h.db, { name: 'fast', rateLimit: null });
  assert.deepEqual([reset.competitions, reset.rate_limit], [['LIGUE_1'], null]);
  assert.equal((await planNamed('fast'))?.rate_limit, null);
  await assert.rejects(updatePlan(h.db, { name: 'fast' }), /needs --all or at least one competition .*, or a --rate-limit/);
});

test('rate limits are validated: a whole number from 1, or "default"', async () => {
  assert.equal(parseRateLimit('600'), 600);
  assert.equal(parseRateLimit(' 1 '), 1);
  assert.equal(parseRateLimit('default'), null);
  assert.equal(parseRateLimit('DEFAULT'), null);
  assert.equal(parseRateLimit(String(MAX_PLAN_RATE_LIMIT)), MAX_PLAN_RATE_LIMIT);
  for (const bad of ['0', '-5', '1.5', '1e3', 'abc', '', String(MAX_PLAN_RATE_LIMIT + 1)]) {
    assert.throws(() => parseRateLimit(bad), new AccessError(`Invalid rate limit: ${JSON.stringify(bad)} (a whole number of requests per window from 1 to ${MAX_PLAN_RATE_LIMIT}, or "default" for the RATE_LIMIT setting)`), bad);
  }
  // The operations check too: the admin channel takes JSON from anyone who may use the socket.
  for (const bad of [0, -1, 2.5, Number.NaN]) {
    await assert.rejects(createPlan(h.db, { name: 'bad-limit', all: true, rateLimit: bad }), /Invalid rate limit/, String(bad));
  }
  await assert.rejects(updatePlan(h.db, { name: 'plain', rateLimit: 0 }), /Invalid rate limit: 0/);
  assert.equal(await planNamed('bad-limit'), undefined);
  // And the database holds the line against a write that bypasses them.
  await assert.rejects(h.db.updateTable('plans').set({ rate_limit: 0 }).where('name', '=', 'plain').execute());
});

test('the key\'s principal carries its plan\'s limit, and a change reaches a cached key at once', async () => {
  const a = await createKeyAuthenticator(h.db, { pollMs: 60_000 });
  try {
    await createPlan(h.db, { name: 'principal', all: true, rateLimit: 42 });
    const email = uniqueEmail('limit');
    await createAccount(h.db, { email, plan: 'principal' });
    const { api_key } = await createKey(h.db, { email });
    const limitOf = async () => {
      const out = await a.authenticate(api_key);
      assert.ok(out.ok);
      return out.principal.rateLimit;
    };
    assert.equal(await limitOf(), 42);
    await updatePlan(h.db, { name: 'principal', rateLimit: 3 });
    assert.equal(await limitOf(), 3, 'no poll needed: the change went through changeAccess');
    await updatePlan(h.db, { name: 'principal', rateLimit: null });
    assert.equal(await limitOf(), null);
  } finally {
    await a.close();
  }
});
