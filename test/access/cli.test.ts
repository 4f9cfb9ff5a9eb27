import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/** The driver beside this file: its .ts through tsx when run from source, its build when run from build-test/. */
const fromSource = import.meta.url.endsWith('.ts');
const DRIVER = [...(fromSource ? ['--import', 'tsx'] : []), fileURLToPath(new URL(`./cli-driver.${fromSource ? 'ts' : 'js'}`, import.meta.url))];

const run = (...args: string[]) => program().parseAsync(['node', 'touchline', ...args]);

test('the commands of CONVENTIONS.md exist with their options, each with --json', () => {
  const p = program();
  const find = (path: string) => path.split(' ').reduce<Command | undefined>((c, name) => c?.commands.find((x) => x.name() === name), p);
  const expected: Record<string, string[]> = {
    'plans create': ['--name', '--all', '--competitions', '--clubs', '--rate-limit', '--allow-unknown', '--json'],
    'plans update': ['--name', '--all', '--competitions', '--clubs', '--rate-limit', '--allow-unknown', '--json'],
    'plans list': ['--json'],
    'accounts create': ['--email', '--password', '--status', '--plan', '--json'],
    'accounts set-status': ['--email', '--status', '--json'],
    'accounts set-plan': ['--email', '--plan', '--no-plan', '--json'],
    'accounts set-currency': ['--email', '--currency', '--json'],
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
  // update may change the limit alone, but must change something.
  await assert.rejects(run('plans', 'update', '--name', 'x'), new CliError('Give --all, --competitions A,B [--clubs ID,ID] or --rate-limit N|default'));
});

test('--rate-limit takes a whole number from 1 or "default", checked before the database', async () => {
  const invalid = (v: string) => new CliError(`Invalid rate limit: ${JSON.stringify(v)} (a whole number of requests per window from 1 to 2147483647, or "default" for the RATE_LIMIT setting)`);
  for (const v of ['0', '-1', '2.5', 'lots', '99999999999']) {
    await assert.rejects(run('plans', 'create', '--name', 'x', '--all', '--rate-limit', v), invalid(v), v);
    await assert.rejects(run('plans', 'update', '--name', 'x', '--rate-limit', v), invalid(v), v);
  }
});

test('required options are enforced by the parser', async () => {
  await assert.rejects(run('keys', 'revoke'), /required option '--key-id <id>' not specified/);
  await assert.rejects(run('accounts', 'create'), /required option '--email <email>' not specified/);
});

test('a failing command prints a clear message and exits non-zero', () => {
  const r = spawnSync(process.execPath, [...DRIVER, 'plans', 'create', '--name', 'x', '--json'], { encoding: 'utf8' });
  assert.equal(r.status, 1);
  assert.equal(r.stderr, 'touchline: Give --all or --competitions A,B [--clubs ID,ID]\n');
  assert.equal(r.stdout, '');
});

test('the access operations run by name with JSON arguments, as a running server runs them', async () => {
  const { openTestDatabase } = await import('./fixture.js');
  const { findOperation } = await import('../../src/operations.js');
  const { loadConfig } = await import('../../src/config.js');
  const handle = await openTestDatabase();
  const ctx = { handle, config: loadConfig({}), progress: () => {}, terminal: null };
  // Arguments and results cross the admin channel as JSON.
  const call = async (name: string, args: Record<string, unknown>) => {
    const op = findOperation(name);
    assert.ok(op, `operation ${name} registered`);
    return JSON.parse(JSON.stringify(await op(ctx, JSON.parse(JSON.stringify(args)))));
  };
  try {
    await assert.rejects(call('access.plans.create', { name: 'ops', all: false, competitions: ['LIGUE_1'], clubs: [] }), /Unknown competition: LIGUE_1; nothing was changed/);
    assert.deepEqual(await call('access.plans.create', { name: 'ops', all: false, competitions: ['LIGUE_1'], clubs: [], rateLimit: 600, allowUnknown: true }), {
      name: 'ops', all: false, competitions: ['LIGUE_1'], clubs: [], rate_limit: 600, unknown_competitions: ['LIGUE_1'], unknown_clubs: [],
    });
    // Unset over JSON keeps the limit; null resets it to the setting.
    assert.equal((await call('access.plans.update', { name: 'ops', all: true })).rate_limit, 600);
    assert.equal((await call('access.plans.update', { name: 'ops', rateLimit: null })).rate_limit, null);
    const acc = await call('access.accounts.create', { email: 'ops@example.test', status: 'registered', plan: 'ops' });
    assert.deepEqual([acc.email, acc.status, acc.plan], ['ops@example.test', 'registered', 'ops']);
    const key = await call('access.keys.create', { email: 'ops@example.test' });
    assert.deepEqual(Object.keys(key), ['key_id', 'api_key']);
    assert.equal((await call('access.accounts.set-status', { email: 'ops@example.test', status: 'active' })).status, 'active');
    assert.equal((await call('access.accounts.set-currency', { email: 'ops@example.test', currency: 'chf' })).currency, 'CHF');
    await assert.rejects(call('access.accounts.set-currency', { email: 'nobody@example.test', currency: 'CHF' }), /Unknown account: nobody@example.test/);
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

test('plans through the command line: a typo fails and changes nothing, --allow-unknown and --rate-limit work', () => {
  const dir = mkdtempSync(join(tmpdir(), 'touchline-cli-'));
  const cli = (...args: string[]) => {
    const env: NodeJS.ProcessEnv = { ...process.env, TOUCHLINE_DATA_DIR: dir, LOG_LEVEL: 'silent' };
    delete env.DATABASE_URL;
    return spawnSync(process.execPath, [...DRIVER, ...args], { encoding: 'utf8', env });
  };
  try {
    // The fresh database has no world loaded, so every competition is unknown to it.
    const typo = cli('plans', 'create', '--name', 'spain', '--competitions', 'LA_LIGA,PREMIER_LEAGUE', '--clubs', 'C00000000000000000000000009');
    assert.equal(typo.status, 1, typo.stderr);
    assert.equal(
      typo.stderr,
      'touchline: Unknown competitions: LA_LIGA, PREMIER_LEAGUE; unknown club: C00000000000000000000000009; nothing was changed (--allow-unknown accepts ids not imported yet)\n',
    );
    assert.equal(typo.stdout, '');
    assert.deepEqual(JSON.parse(cli('plans', 'list', '--json').stdout), [], 'nothing was created');

    const early = cli('plans', 'create', '--name', 'spain', '--competitions', 'LA_LIGA', '--allow-unknown', '--rate-limit', '600');
    assert.equal(early.status, 0, early.stderr);
    assert.equal(early.stdout, 'Created plan spain: competitions LA_LIGA; rate limit: 600 per window (not in the loaded data: LA_LIGA)\n');

    const reset = cli('plans', 'update', '--name', 'spain', '--rate-limit', 'default', '--json');
    assert.equal(reset.status, 0, reset.stderr);
    assert.deepEqual(JSON.parse(reset.stdout), {
      name: 'spain', all: false, competitions: ['LA_LIGA'], clubs: [], rate_limit: null, unknown_competitions: ['LA_LIGA'], unknown_clubs: [],
    });
    const list = cli('plans', 'list');
    assert.equal(list.stdout, 'spain: competitions LA_LIGA; rate limit: default (RATE_LIMIT)\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
