/**
 * Logs: JSON lines when stdout is not a terminal (a collector reads them), readable lines when it is
 * (`script` gives the process a pseudo-terminal). Keys and passwords are redacted either way.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { createLogger } from '../src/logger.js';

const LOGGER = new URL('../src/logger.ts', import.meta.url).pathname;
/** A process that logs two lines through createLogger, as the server does. */
const PROGRAM = `import { createLogger } from ${JSON.stringify(LOGGER)};
const log = createLogger('info');
log.info({ as_of: '2026-06-30', api_key: 'tl_secret_key_never_logged' }, 'serving the demo world');
log.warn('models are training');`;
const ARGS = ['--import', 'tsx', '--input-type=module', '--eval', PROGRAM];

const hasScript = spawnSync('script', ['--version']).status === 0;

test('stdout not a terminal: one JSON object a line', () => {
  const out = execFileSync(process.execPath, ARGS, { encoding: 'utf8', env: { ...process.env, FORCE_COLOR: undefined } });
  const lines = out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.deepEqual(lines.map((l) => [l.level, l.msg]), [[30, 'serving the demo world'], [40, 'models are training']]);
  assert.equal(lines[0].as_of, '2026-06-30');
  assert.equal(lines[0].api_key, '[redacted]');
});

test('stdout a terminal: readable lines, time, level and message first', { skip: hasScript ? false : 'needs script(1) for a pseudo-terminal' }, () => {
  const command = [process.execPath, ...ARGS].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  const raw = execFileSync('script', ['-qfec', command, '/dev/null'], { encoding: 'utf8' });
  // eslint-disable-next-line no-control-regex
  const out = raw.replace(/\u001b\[[0-9;]*m/g, '').replaceAll('\r', '');
  assert.doesNotMatch(out, /^\{/m, 'no JSON lines');
  assert.match(out, /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: serving the demo world$/m);
  assert.match(out, /^\s+as_of: "2026-06-30"$/m);
  assert.match(out, /^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: models are training$/m);
  assert.doesNotMatch(out, /tl_secret_key_never_logged/);
  assert.match(out, /api_key: "\[redacted\]"/);
});

test('the choice can be given: pretty or JSON to any stream', () => {
  const chunks: string[] = [];
  const sink = new Writable({ write: (c: Buffer, _e, done) => (chunks.push(c.toString()), done()) });
  createLogger('info', { pretty: true, destination: sink }).info({ password: 'hunter2' }, 'hello');
  assert.match(chunks.join(''), /INFO: hello\n\s+password: "\[redacted\]"/);
  chunks.length = 0;
  createLogger('info', { pretty: false, destination: sink }).info('hello');
  assert.equal((JSON.parse(chunks.join('')) as { msg: string }).msg, 'hello');
});
