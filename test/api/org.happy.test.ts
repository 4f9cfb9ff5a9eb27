import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ORG, del, email, json, keys, newAccount, players, s, startOrgApp, t } from './org.fixture.js';

before(startOrgApp);
after(async () => {
  await t?.close();
});

describe('organisation members', () => {
  test('any member sees the organisation and its members by email and role', async () => {
    for (const who of ['owner', 'scout', 'viewer'] as const) {
      const res = await t.get('/v1/org/members', keys[who]);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(json(res), {
        organisation: ORG,
        members: [
          { email: email('owner'), role: 'owner' },
          { email: email('scout'), role: 'scout' },
          { email: email('viewer'), role: 'viewer' },
        ],
      });
    }
  });

  test('an owner adds a member, changes his role and removes him', async () => {
    const extra = await newAccount();
    const added = await t.post('/v1/org/members', { email: extra.email.toUpperCase(), role: 'viewer' }, keys.owner);
    assert.equal(added.statusCode, 200, added.body);
    assert.deepEqual(json(added).members.find((m: { email: string }) => m.email === extra.email), { email: extra.email, role: 'viewer' });
    assert.equal((await t.get('/v1/org/members', extra.key)).statusCode, 200);
    const promoted = await t.post('/v1/org/members', { email: extra.email, role: 'scout' }, keys.owner);
    assert.equal(json(promoted).members.find((m: { email: string }) => m.email === extra.email).role, 'scout');
    const removed = await del(`/v1/org/members?email=${encodeURIComponent(extra.email)}`, keys.owner);
    assert.equal(removed.statusCode, 204);
    assert.equal(removed.body, '');
    assert.ok(!json(await t.get('/v1/org/members', keys.owner)).members.some((m: { email: string }) => m.email === extra.email));
  });

  test('refusals: unknown account, one of another organisation, not a member, the last owner', async () => {
    const unknown = await t.post('/v1/org/members', { email: 'nobody@nowhere.example', role: 'scout' }, keys.owner);
    assert.deepEqual([unknown.statusCode, json(unknown)], [404, { error: 'Account not found' }]);
    const notMember = await del(`/v1/org/members?email=${encodeURIComponent(email('outsider'))}`, keys.owner);
    assert.deepEqual([notMember.statusCode, json(notMember)], [404, { error: 'Member not found' }]);
    const last = await del(`/v1/org/members?email=${encodeURIComponent(email('owner'))}`, keys.owner);
    assert.deepEqual([last.statusCode, json(last)], [409, { error: 'An organisation needs an owner' }]);
    const demoted = await t.post('/v1/org/members', { email: email('owner'), role: 'scout' }, keys.owner);
    assert.deepEqual([demoted.statusCode, json(demoted)], [409, { error: 'An organisation needs an owner' }]);
    const badRole = await t.post('/v1/org/members', { email: email('outsider'), role: 'coach' }, keys.owner);
    assert.deepEqual([badRole.statusCode, json(badRole)], [400, { error: 'Invalid role' }]);
  });
});

describe('shared lists', () => {
  test('a scout creates a list (201); every member sees it; an owner deletes it (204)', async () => {
    const created = await t.post('/v1/lists', { name: 'Left backs' }, keys.scout);
    assert.equal(created.statusCode, 201, created.body);
    const list = json(created);
    assert.deepEqual(Object.keys(list).sort(), ['list_id', 'name', 'players', 'updated_at']);
    assert.equal(list.name, 'Left backs');
    assert.equal(list.players, 0);
    for (const who of ['owner', 'scout', 'viewer'] as const) {
      const lists = json(await t.get('/v1/lists', keys[who])).lists;
      assert.ok(lists.some((l: { list_id: number }) => l.list_id === list.list_id), who);
    }
    assert.equal((await del(`/v1/lists?list_id=${list.list_id}`, keys.owner)).statusCode, 204);
    assert.ok(!json(await t.get('/v1/lists', keys.viewer)).lists.some((l: { list_id: number }) => l.list_id === list.list_id));
    const again = await del(`/v1/lists?list_id=${list.list_id}`, keys.owner);
    assert.deepEqual([again.statusCode, json(again)], [404, { error: 'List not found' }]);
  });

  test('entries: status, who added him, notes with their authors, newest first', async () => {
    const list = json(await t.post('/v1/lists', { name: 'Strikers' }, keys.owner));
    const [a, b] = players;
    const first = await t.post('/v1/lists/entries', { list_id: list.list_id, player_id: a, note: 'quick feet' }, keys.scout);
    assert.equal(first.statusCode, 200, first.body);
    const e = json(first);
    assert.equal(e.player_id, a);
    assert.equal(e.name, s.players.get(a)!.name);
    assert.equal(e.status, 'watching');
    assert.equal(e.added_by, email('scout'));
    assert.equal(e.notes.length, 1);
    assert.deepEqual({ author: e.notes[0].author, text: e.notes[0].text }, { author: email('scout'), text: 'quick feet' });
    // The owner moves him on and adds a note: appended, the first author kept.
    const moved = json(await t.post('/v1/lists/entries', { list_id: list.list_id, player_id: a, status: 'offer', note: 'agreed terms' }, keys.owner));
    assert.equal(moved.status, 'offer');
    assert.equal(moved.added_by, email('scout'));
    assert.deepEqual(moved.notes.map((n: { author: string; text: string }) => [n.author, n.text]), [[email('scout'), 'quick feet'], [email('owner'), 'agreed terms']]);
    assert.equal(moved.added_at, e.added_at);
    await t.post('/v1/lists/entries', { list_id: list.list_id, player_id: b, status: 'scouted' }, keys.owner);
    const got = await t.get(`/v1/lists/entries?list_id=${list.list_id}`, keys.viewer);
    assert.equal(got.statusCode, 200);
    const body = json(got);
    assert.equal(body.list_id, list.list_id);
    assert.equal(body.name, 'Strikers');
    assert.deepEqual(body.entries.map((x: { player_id: string; status: string }) => [x.player_id, x.status]), [[b, 'scouted'], [a, 'offer']]);
    const summary = json(await t.get('/v1/lists', keys.viewer)).lists.find((l: { list_id: number }) => l.list_id === list.list_id);
    assert.equal(summary.players, 2);
    assert.ok(summary.updated_at >= list.updated_at);
    // Removed: 204, then not on the list.
    assert.equal((await del(`/v1/lists/entries?list_id=${list.list_id}&player_id=${b}`, keys.scout)).statusCode, 204);
    const gone = await del(`/v1/lists/entries?list_id=${list.list_id}&player_id=${b}`, keys.scout);
    assert.deepEqual([gone.statusCode, json(gone)], [404, { error: 'Player not on list' }]);
    const bad = await t.post('/v1/lists/entries', { list_id: list.list_id, player_id: a, status: 'loaned' }, keys.scout);
    assert.deepEqual([bad.statusCode, json(bad)], [400, { error: 'Invalid status' }]);
  });

  test('the activity feed names who did what, newest first', async () => {
    const list = json(await t.post('/v1/lists', { name: 'Keepers' }, keys.scout));
    const p = players[5];
    await t.post('/v1/lists/entries', { list_id: list.list_id, player_id: p }, keys.scout);
    await t.post('/v1/lists/entries', { list_id: list.list_id, player_id: p, status: 'signed', note: 'done deal' }, keys.owner);
    const res = await t.get('/v1/org/activity', keys.viewer);
    assert.equal(res.statusCode, 200);
    const feed = json(res).activity;
    assert.ok(feed.length <= 200);
    assert.deepEqual(
      feed.slice(0, 4).map((a: { actor: string; action: string; list_id?: number; player_id?: string }) => [a.actor, a.action, a.list_id, a.player_id]),
      [
        [email('owner'), 'note_added', list.list_id, p],
        [email('owner'), 'status_changed', list.list_id, p],
        [email('scout'), 'entry_added', list.list_id, p],
        [email('scout'), 'list_created', list.list_id, undefined],
      ],
    );
    assert.match(feed[1].detail, /from watching to signed/);
    for (let i = 1; i < feed.length; i++) assert.ok(feed[i - 1].at >= feed[i].at);
    // Member changes are in it too, without a list or player.
    assert.ok(feed.some((a: { action: string; list_id?: number }) => a.action === 'member_added' && a.list_id === undefined));
  });

  test('an account without an organisation has lists of its own', async () => {
    const solo = await newAccount('solo');
    const [shortlist] = json(await t.get('/v1/lists', solo.key)).lists;
    assert.deepEqual([shortlist.name, shortlist.players], ['Shortlist', 0]);
    const list = json(await t.post('/v1/lists', { name: 'Mine' }, solo.key));
    const entry = await t.post('/v1/lists/entries', { list_id: list.list_id, player_id: players[0], note: 'alone' }, solo.key);
    assert.equal(entry.statusCode, 200);
    assert.equal(json(entry).added_by, solo.email);
    assert.deepEqual(json(await t.get('/v1/lists', solo.key)).lists.map((l: { name: string }) => l.name), ['Shortlist', 'Mine']);
    // The round-3 shortlist is that list: written through either, read through both.
    assert.equal((await t.post('/v1/shortlist', { player_id: players[1], note: 'via shortlist' }, solo.key)).statusCode, 200);
    const seen = json(await t.get(`/v1/lists/entries?list_id=${shortlist.list_id}`, solo.key)).entries;
    assert.deepEqual(seen.map((e: { player_id: string; status: string; notes: { author: string; text: string }[] }) => [e.player_id, e.status, e.notes.map((n) => [n.author, n.text])]), [
      [players[1], 'watching', [[solo.email, 'via shortlist']]],
    ]);
    await t.post('/v1/lists/entries', { list_id: shortlist.list_id, player_id: players[2], status: 'scouted', note: 'from lists' }, solo.key);
    await t.post('/v1/lists/entries', { list_id: shortlist.list_id, player_id: players[1], note: 'second look' }, solo.key);
    const round3 = json(await t.get('/v1/shortlist', solo.key)).players;
    assert.deepEqual(round3.map((p: { player_id: string; note: string }) => [p.player_id, p.note]), [[players[2], 'from lists'], [players[1], 'second look']]);
    assert.equal(json(await t.get('/v1/lists', solo.key)).lists[0].players, 2);
    // Not the organisation's, and the organisation's are not his.
    assert.ok(!json(await t.get('/v1/lists', keys.owner)).lists.some((l: { list_id: number }) => l.list_id === list.list_id));
    const members = await t.get('/v1/org/members', solo.key);
    assert.deepEqual([members.statusCode, json(members)], [403, { error: 'Not a member of an organisation' }]);
  });
});
