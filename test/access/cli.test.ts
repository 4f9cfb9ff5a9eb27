import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { registerAccessCommands } from '../../src/cli/access-commands.js';
import { CliError } from '../../src/cli/context.js';

// The operations behind the commands are tested on a real database in keys.test.ts; here: the
// command surface and the argument checks made before any database is opened.

function program(): Command {
  const p = new Command().name('touchline').exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
  registerAccessCommands(p);
  return p;
}

const run = (...args: string[]) => program().parseAsync(['node', 'touchline', ...args]);

test('the commands of CONVENTIONS.md exist with their options, each with --json', () => {
  const p = program();
  const find = (path: string) => path.split(' ').reduce<Command | undefined>((c, name) => c?.commands.find((x) => x.name() === name), p);
  const expected: Record<string, string[]> = {
    'plans create': ['--name', '--all', '--competitions', '--clubs', '--json'],
    'plans update': ['--name', '--all', '--competitions', '--clubs', '--json'],
    'plans list': ['--json'],
    'accounts create': ['--email', '--password', '--status', '--plan', '--json'],
    'accounts set-status': ['--email', '--status', '--json'],
    'accounts set-plan': ['--email', '--plan', '--no-plan', '--json'],
    'accounts list': ['--json'],
    'keys create': ['--email', '--json'],
    'keys revoke': ['--key-id', '--json'],
    'keys list': ['--email', '--json'],
  };
  for (const [path, options] of Object.entries(expected)) {
    const cmd = find(path);
    assert.ok(cmd, `command ${path}`);
    assert.deepEqual(cmd.options.map((o) => o.long).sort(), [...options].sort(), path);
  }
});

test('plan scope must be --all or --competitions/--clubs, checked before the database', async () => {
  await assert.rejects(run('plans', 'create', '--name', 'x'), new CliError('Give --all or --competitions A,B [--clubs ID,ID]'));
  await assert.rejects(run('plans', 'create', '--name', 'x', '--all', '--competitions', 'A'), new CliError('Give either --all or --competitions A,B [--clubs ID,ID], not both'));
  await assert.rejects(run('accounts', 'set-plan', '--email', 'a@b.cd'), new CliError('Give --plan NAME or --no-plan'));
});

test('required options are enforced by the parser', async () => {
  await assert.rejects(run('keys', 'revoke'), /required option '--key-id <id>' not specified/);
  await assert.rejects(run('accounts', 'create'), /required option '--email <email>' not specified/);
});

test('a failing command prints a clear message and exits non-zero', () => {
  const driver = fileURLToPath(new URL('./cli-driver.ts', import.meta.url));
  const r = spawnSync(process.execPath, ['--import', 'tsx', driver, 'plans', 'create', '--name', 'x', '--json'], { encoding: 'utf8' });
  assert.equal(r.status, 1);
  assert.equal(r.stderr, 'touchline: Give --all or --competitions A,B [--clubs ID,ID]\n');
  assert.equal(r.stdout, '');
});

test('the access operations run by name with JSON arguments, as a running server runs them', async () => {
  const { openTestDatabase } = await import('./fixture.js');
  const { findOperation } = await import('../../src/admin/operations.js');
  const { loadConfig } = await import('../../src/config.js');
  await import('../../src/access/operations.js');
  const handle = await openTestDatabase();
  const ctx = { handle, config: loadConfig({}), progress: () => {}, terminal: null };
  // Arguments and results cross the admin channel as JSON.
  const call = async (name: string, args: Record<string, unknown>) => {
    const op = findOperation(name);
    assert.ok(op, `operation ${name} registered`);
    return JSON.parse(JSON.stringify(await op(ctx, JSON.parse(JSON.stringify(args)))));
  };
  try {
    assert.deepEqual(await call('access.plans.create', { name: 'ops', all: false, competitions: ['LIGUE_1'], clubs: [] }), {
      name: 'ops', all: false, competitions: ['LIGUE_1'], clubs: [], unknown_competitions: ['LIGUE_1'], unknown_clubs: [],
    });
    const acc = await call('access.accounts.create', { email: 'ops@example.test', status: 'registered', plan: 'ops' });
    assert.deepEqual([acc.email, acc.status, acc.plan], ['ops@example.test', 'registered', 'ops']);
    const key = await call('access.keys.create', { email: 'ops@example.test' });
    assert.deepEqual(Object.keys(key), ['key_id', 'api_key']);
    assert.equal((await call('access.accounts.set-status', { email: 'ops@example.test', status: 'active' })).status, 'active');
    assert.equal((await call('access.keys.revoke', { keyId: key.key_id })).key_id, key.key_id);
    const keys = await call('access.keys.list', { email: 'ops@example.test' });
    assert.deepEqual(keys.map((k: { state: string }) => k.state), ['revoked']);
    assert.equal((await call('access.accounts.list', {})).length, 1);
    assert.equal((await call('access.plans.list', {})).length, 1);
    await assert.rejects(call('access.accounts.create', { email: 'ops@example.test' }), /Account already exists: ops@example.test/);
  } finally {
    await handle.close();
  }
});
