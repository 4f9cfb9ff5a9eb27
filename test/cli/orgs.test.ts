import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Command } from 'commander';
import { registerOrgsCommands } from '../../src/cli/orgs-commands.js';
import type { DatabaseHandle } from '../../src/data/db.js';
import { openTestDatabase } from '../access/fixture.js';

// The command surface, then the operations by name with JSON arguments, as a running server runs
// them over its admin channel; their errors are the messages the CLI prints.

function program(): Command {
  const p = new Command().name('touchline').exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
  registerOrgsCommands(p);
  return p;
}

let handle: DatabaseHandle;
before(async () => {
  handle = await openTestDatabase();
});
after(async () => {
  await handle?.close();
});

async function call(name: string, args: Record<string, unknown>) {
  const { findOperation } = await import('../../src/operations.js');
  const { loadConfig } = await import('../../src/config.js');
  const op = findOperation(name);
  assert.ok(op, `operation ${name} registered`);
  const ctx = { handle, config: loadConfig({}), progress: () => {}, terminal: null };
  return JSON.parse(JSON.stringify(await op(ctx, JSON.parse(JSON.stringify(args)))));
}

test('orgs create, add-member and remove-member exist with their required options and --json', async () => {
  const orgs = program().commands.find((c) => c.name() === 'orgs')!;
  const options = (name: string) => orgs.commands.find((c) => c.name() === name)!.options.map((o) => o.long);
  assert.deepEqual(options('create'), ['--name', '--owner', '--json']);
  assert.deepEqual(options('add-member'), ['--name', '--email', '--role', '--json']);
  assert.deepEqual(options('remove-member'), ['--name', '--email', '--json']);
  await assert.rejects(program().parseAsync(['node', 'touchline', 'orgs', 'add-member', '--name', 'X', '--email', 'a@b.example']), /required option '--role <role>' not specified/);
});

test('the operations: members and roles, with clear errors', async () => {
  for (const email of ['boss@club.example', 'eye@club.example', 'other@club.example']) await call('access.accounts.create', { email });
  await assert.rejects(call('access.orgs.create', { name: 'Club', owner: 'nobody@club.example' }), /^AccessError: Unknown account: nobody@club.example$|Unknown account: nobody@club.example/);
  assert.deepEqual(await call('access.orgs.create', { name: 'Club', owner: 'BOSS@club.example' }), { organisation: 'Club', members: [{ email: 'boss@club.example', role: 'owner' }] });
  await assert.rejects(call('access.orgs.create', { name: 'Club', owner: 'other@club.example' }), /Organisation already exists: Club/);
  await assert.rejects(call('access.orgs.create', { name: 'Second', owner: 'boss@club.example' }), /Account boss@club.example already belongs to organisation Club/);
  await assert.rejects(call('access.orgs.add-member', { name: 'Nope', email: 'eye@club.example', role: 'scout' }), /Unknown organisation: Nope/);
  await assert.rejects(call('access.orgs.add-member', { name: 'Club', email: 'eye@club.example', role: 'coach' }), /Invalid role: "coach" \(expected owner, scout or viewer\)/);
  const added = await call('access.orgs.add-member', { name: 'Club', email: 'eye@club.example', role: 'scout' });
  assert.deepEqual(added.members, [{ email: 'boss@club.example', role: 'owner' }, { email: 'eye@club.example', role: 'scout' }]);
  await call('access.orgs.create', { name: 'Rival', owner: 'other@club.example' });
  await assert.rejects(call('access.orgs.add-member', { name: 'Club', email: 'other@club.example', role: 'viewer' }), /already belongs to organisation Rival/);
  await assert.rejects(call('access.orgs.remove-member', { name: 'Club', email: 'other@club.example' }), /other@club.example is not a member of Club/);
  await assert.rejects(call('access.orgs.remove-member', { name: 'Club', email: 'boss@club.example' }), /needs an owner/);
  const left = await call('access.orgs.remove-member', { name: 'Club', email: 'eye@club.example' });
  assert.deepEqual(left.members, [{ email: 'boss@club.example', role: 'owner' }]);
});
