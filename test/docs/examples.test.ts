/**
 * Every curl example of docs/calling-the-api.md and docs/api.md runs as written against a demo server started as
 * `npm start` serves it (the demo world of the default seed, the printed key and login), and
 * answers the status its line promises.
 *
 * The convention the two files follow:
 * - Examples are the ```sh blocks that contain `curl` or set `KEY=`. They run in file order, each file in its own
 *   bash, so a variable set by an earlier example (`CLUB=$(curl …)`) is there for the later ones.
 * - The reader sets three variables once from what `npm start` printed: the lines `KEY=…`,
 *   `PASSWORD=…` and `BASE=…` are the only ones this test rewrites (with the printed key, the printed
 *   password and this server's address). Everything else runs verbatim.
 * - A curl command ends with its promised status: `# → 200`. The test runs it with curl's status
 *   printed (the same arguments, plus `-sS -o <file> -w '%{http_code}'`). Every curl outside a
 *   `$(…)` capture must carry a promise; a capture `NAME=$(curl …)` must leave NAME non-empty.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { demoDataDir } from '../helpers/app.js';
import { REPO_ROOT, startServerProcess, type ServerProcess } from '../helpers/server-process.js';

const FILES = ['docs/calling-the-api.md', 'docs/api.md'];
/** What a person pasting a whole file after `npm start` may send within the default rolling limit. */
const DEFAULT_RATE_LIMIT = 60;
const PROMISE = /\s+#[^#]*→\s*(\d{3})\s*$/;
const CAPTURE = /^([A-Za-z_][A-Za-z0-9_]*)=\$\(/;
const SET_BY_READER = /^(KEY|PASSWORD|BASE)=/;

interface Command {
  /** The logical line (continuations joined), without the status promise. */
  readonly text: string;
  readonly status: number | null;
  readonly capture: string | null;
}

/** The ```sh blocks of a markdown file that contain curl or set the reader's key, in order. */
function exampleBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```/gm)].map((m) => m[1]).filter((b) => /\bcurl\b|^KEY=/m.test(b));
}

/** The commands of a block: lines joined over `\` continuations; blank and comment-only lines dropped. */
function commandsOf(block: string): Command[] {
  const lines = block.replace(/\\\n/g, ' ').split('\n');
  const out: Command[] = [];
  for (const line of lines) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const promise = PROMISE.exec(trimmed);
    const text = promise ? trimmed.slice(0, promise.index).trim() : trimmed;
    out.push({ text, status: promise ? Number(promise[1]) : null, capture: CAPTURE.exec(text)?.[1] ?? null });
  }
  return out;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A bash script running the commands in order; each checked one prints `@@<index> <result>`. */
function scriptOf(commands: readonly Command[], reader: { key: string; password: string; base: string }): string {
  const lines = [
    '__tl_out=$(mktemp)',
    // The same curl, with its status printed and the body kept aside for the failure message.
    `__tl_curl() { command curl -sS -o "$__tl_out" -w '%{http_code}' "$@"; }`,
  ];
  commands.forEach((c, i) => {
    const reader_ = SET_BY_READER.exec(c.text)?.[1];
    if (reader_) {
      const value = reader_ === 'KEY' ? reader.key : reader_ === 'PASSWORD' ? reader.password : reader.base;
      lines.push(`${reader_}=${shellQuote(value)}`);
    } else if (c.status !== null) {
      lines.push(`__tl_s=$(__tl_curl ${c.text.replace(/^curl\s+/, '')})`);
      lines.push(`printf '@@%d %s %s\\n' ${i} "$__tl_s" "$(head -c 300 "$__tl_out" | tr '\\n' ' ')"`);
    } else {
      lines.push(c.text);
      if (c.capture) lines.push(`printf '@@%d %s\\n' ${i} "\${${c.capture}:+set}"`);
    }
  });
  lines.push('rm -f "$__tl_out"');
  return lines.join('\n') + '\n';
}

const skip = spawnSync('curl', ['--version']).status === 0 ? false : 'curl is missing (apt-get install curl)';

describe('the curl examples of docs/calling-the-api.md and docs/api.md', { skip }, () => {
  let server: ServerProcess;
  let key: string;
  let password: string;
  let dataDir = '';

  before(async () => {
    // The demo world as npm start makes it (the tests' copy of it, so this start skips generating it).
    dataDir = await demoDataDir('touchline-examples-');
    // A higher limit than the default: the two files run back to back with one key. Each file stays
    // within the default on its own (checked below), as a person pasting it after `npm start` needs.
    server = await startServerProcess({
      name: 'examples',
      env: { TOUCHLINE_DATA_DIR: dataDir, LOG_LEVEL: 'warn', RATE_LIMIT: '1000' },
      startTimeoutMs: 300_000,
    });
    key = /^Demo API key: (\S+)$/m.exec(server.output())?.[1] ?? '';
    password = /^Demo login: \S+ \/ (\S+)$/m.exec(server.output())?.[1] ?? '';
  });
  after(async () => {
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test('the start printed a key and a login, as the files tell the reader', () => {
    assert.match(key, /^tl_/);
    assert.ok(password.length > 0);
  });

  for (const file of FILES) {
    test(`${file}: every example answers the status it promises`, { timeout: 240_000 }, () => {
      const markdown = readFileSync(join(REPO_ROOT, file), 'utf8');
      const commands = exampleBlocks(markdown).flatMap(commandsOf);
      const promised = commands.filter((c) => c.status !== null);
      assert.ok(promised.length >= 10, `${file}: ${promised.length} examples with a promised status`);
      for (const c of commands) {
        const unpromised = c.status === null && c.capture === null && /(^|[;&|]\s*)curl\s/.test(c.text);
        assert.ok(!unpromised, `${file}: a curl without a promised status (\`# → 200\`): ${c.text}`);
      }
      for (const name of ['KEY', 'BASE']) assert.ok(commands.some((c) => c.text.startsWith(`${name}=`)), `${file} sets ${name} for the reader`);
      const requests = commands.filter((c) => /\bcurl\b/.test(c.text) && !/\/health\b/.test(c.text)).length;
      assert.ok(requests < DEFAULT_RATE_LIMIT, `${file}: ${requests} requests fit the default limit of ${DEFAULT_RATE_LIMIT} a minute`);

      const dir = mkdtempSync(join(tmpdir(), 'touchline-examples-run-'));
      try {
        const script = join(dir, 'examples.sh');
        writeFileSync(script, scriptOf(commands, { key, password, base: `${server.url}/v1` }));
        const run = spawnSync('bash', [script], { cwd: dir, encoding: 'utf8', timeout: 200_000 });
        assert.equal(run.status, 0, `${file}: bash exited ${run.status}: ${run.stderr}`);
        const results = new Map<number, string>();
        for (const line of run.stdout.split('\n')) {
          const m = /^@@(\d+) (.*)$/.exec(line);
          if (m) results.set(Number(m[1]), m[2]);
        }
        const failures: string[] = [];
        commands.forEach((c, i) => {
          const got = results.get(i);
          if (c.status !== null && !got?.startsWith(`${c.status} `)) failures.push(`${c.text}\n    promised ${c.status}, got ${got ?? 'nothing'}`);
          if (c.status === null && c.capture && got !== 'set') failures.push(`${c.text}\n    left ${c.capture} empty`);
        });
        assert.deepEqual(failures, [], `${file}:\n${failures.join('\n')}\n${run.stderr}`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  test('the harness catches a broken promise', () => {
    const commands = commandsOf('BASE=set-by-the-test\ncurl -X POST $BASE/nowhere \\\n  -d x   # → 200\nX=$(echo)\n');
    assert.deepEqual(commands.map((c) => [c.status, c.capture]), [[null, null], [200, null], [null, 'X']]);
    const run = spawnSync('bash', ['-c', scriptOf(commands, { key: 'k', password: 'p', base: `${server.url}/v1` })], { encoding: 'utf8' });
    assert.match(run.stdout, /^@@1 404 /m, 'the unknown route answers 404, not the promised 200');
    assert.match(run.stdout, /^@@2 $/m, 'the empty capture is seen');
  });
});
