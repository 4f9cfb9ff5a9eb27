import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createOrganisation, removeMemberByName } from '../../src/access/organisations.js';
import { del, email, json, keys, newAccount, ORG, players, put, startOrgApp, t } from './org.fixture.js';

before(startOrgApp);
after(async () => {
  await t?.close();
});

const ROLE = { error: 'Not allowed for your role' };

describe('roles', () => {
  test('a viewer reads but every write is 403 Not allowed for your role', async () => {
    const list = json(await t.post('/v1/lists', { name: 'Viewer test' }, keys.owner));
    assert.equal((await t.get('/v1/lists', keys.viewer)).statusCode, 200);
    assert.equal((await t.get(`/v1/lists/entries?list_id=${list.list_id}`, keys.viewer)).statusCode, 200);
    assert.equal((await t.get('/v1/org/activity', keys.viewer)).statusCode, 200);
    const writes = [
      await t.post('/v1/lists', { name: 'Mine' }, keys.viewer),
      await del(`/v1/lists?list_id=${list.list_id}`, keys.viewer),
      await t.post('/v1/lists/entries', { list_id: list.list_id, player_id: players[0] }, keys.viewer),
      await del(`/v1/lists/entries?list_id=${list.list_id}&player_id=${players[0]}`, keys.viewer),
      await t.post('/v1/org/members', { email: email('outsider'), role: 'viewer' }, keys.viewer),
      await del(`/v1/org/members?email=${encodeURIComponent(email('scout'))}`, keys.viewer),
      await put('/v1/org/shadow_squad', { club_id: 'C00000000000000000000000000', sell: [], targets: [] }, keys.viewer),
      // judged before the body: an invalid one is still the role's 403
      await t.post('/v1/lists', { nonsense: true }, keys.viewer),
    ];
    for (const res of writes) assert.deepEqual([res.statusCode, json(res)], [403, ROLE], res.body);
  });

  test('a scout writes lists and entries but neither deletes lists nor manages members', async () => {
    const list = json(await t.post('/v1/lists', { name: 'Scout test' }, keys.scout));
    assert.equal((await t.post('/v1/lists/entries', { list_id: list.list_id, player_id: players[1] }, keys.scout)).statusCode, 200);
    for (const res of [
      await del(`/v1/lists?list_id=${list.list_id}`, keys.scout),
      await t.post('/v1/org/members', { email: email('outsider'), role: 'viewer' }, keys.scout),
      await del(`/v1/org/members?email=${encodeURIComponent(email('viewer'))}`, keys.scout),
    ]) {
      assert.deepEqual([res.statusCode, json(res)], [403, ROLE], res.body);
    }
    assert.equal((await t.get('/v1/org/members', keys.scout)).statusCode, 200);
  });

  test('an account outside any organisation: 403 for the organisation\'s own routes', async () => {
    for (const res of [
      await t.get('/v1/org/members', keys.outsider),
      await t.get('/v1/org/activity', keys.outsider),
      await t.get('/v1/org/shadow_squad', keys.outsider),
      await t.post('/v1/org/shadow_squad/analysis', {}, keys.outsider),
    ]) {
      assert.deepEqual([res.statusCode, json(res)], [403, { error: 'Not a member of an organisation' }], res.body);
    }
  });

  test('no key is 401 before any role check', async () => {
    const res = await t.get('/v1/lists', null);
    assert.deepEqual([res.statusCode, json(res)], [401, { error: 'Missing API key' }]);
  });
});

describe('other organisations\' lists', () => {
  test('are 404 List not found, for every verb, to another organisation and to an outsider', async () => {
    const list = json(await t.post('/v1/lists', { name: 'Private' }, keys.owner));
    await t.post('/v1/lists/entries', { list_id: list.list_id, player_id: players[2], note: 'secret' }, keys.owner);
    const rival = await newAccount('rival');
    await createOrganisation(t.handle.db, { name: 'Rival FC', owner: rival.email });
    for (const key of [rival.key, keys.outsider]) {
      for (const res of [
        await t.get(`/v1/lists/entries?list_id=${list.list_id}`, key),
        await t.post('/v1/lists/entries', { list_id: list.list_id, player_id: players[3] }, key),
        await del(`/v1/lists/entries?list_id=${list.list_id}&player_id=${players[2]}`, key),
        await del(`/v1/lists?list_id=${list.list_id}`, key),
      ]) {
        assert.deepEqual([res.statusCode, json(res)], [404, { error: 'List not found' }], res.body);
      }
      assert.ok(!json(await t.get('/v1/lists', key)).lists.some((l: { list_id: number }) => l.list_id === list.list_id));
    }
    // Untouched.
    assert.equal(json(await t.get(`/v1/lists/entries?list_id=${list.list_id}`, keys.viewer)).entries.length, 1);
    // An account of another organisation cannot be added.
    const taken = await t.post('/v1/org/members', { email: rival.email, role: 'scout' }, keys.owner);
    assert.deepEqual([taken.statusCode, json(taken)], [409, { error: 'Account belongs to another organisation' }]);
  });
});

describe('removal', () => {
  test('ends a member\'s access at once, by an owner or the operator', async () => {
    for (const how of ['api', 'cli'] as const) {
      const m = await newAccount(`leaver-${how}`);
      assert.equal((await t.post('/v1/org/members', { email: m.email, role: 'scout' }, keys.owner)).statusCode, 200);
      const list = json(await t.post('/v1/lists', { name: `Before leaving ${how}` }, m.key));
      assert.equal((await t.get(`/v1/lists/entries?list_id=${list.list_id}`, m.key)).statusCode, 200);
      if (how === 'api') assert.equal((await del(`/v1/org/members?email=${encodeURIComponent(m.email)}`, keys.owner)).statusCode, 204);
      // The operator's command writes the database directly, as another process would.
      else await removeMemberByName(t.handle.db, { name: ORG, email: m.email });
      // The very next request: no poll, no notification waited for.
      const gone = await t.get(`/v1/lists/entries?list_id=${list.list_id}`, m.key);
      assert.deepEqual([gone.statusCode, json(gone)], [404, { error: 'List not found' }]);
      const members = await t.get('/v1/org/members', m.key);
      assert.deepEqual([members.statusCode, json(members)], [403, { error: 'Not a member of an organisation' }]);
      assert.ok(!json(await t.get('/v1/lists', m.key)).lists.some((l: { list_id: number }) => l.list_id === list.list_id));
    }
  });
});
