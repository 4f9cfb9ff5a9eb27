/**
 * The README's configuration table names every setting config.ts reads, and nothing else, with the
 * default the code applies when it is unset.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { SETTING_NAMES, settingDefault } from '../../src/config.js';

const README = new URL('../../README.md', import.meta.url);

/** The rows of the table under "## Configuration": name and default column, backticks removed. */
function documented(): Map<string, string> {
  const text = readFileSync(README, 'utf8');
  const section = text.slice(text.indexOf('## Configuration'), text.indexOf('\n## ', text.indexOf('## Configuration') + 1));
  const rows = new Map<string, string>();
  for (const line of section.split('\n')) {
    const cells = /^\| `([A-Z_]+)` \| (.*?) \| .* \|$/.exec(line);
    if (cells) rows.set(cells[1], cells[2].replace(/`/g, ''));
  }
  return rows;
}

test('every setting has a row, and every row is a setting', () => {
  const rows = documented();
  assert.deepEqual([...rows.keys()].sort(), [...SETTING_NAMES].sort());
});

test('a setting with a default in the code shows that default', () => {
  const rows = documented();
  for (const name of SETTING_NAMES) {
    const value = settingDefault(name);
    if (value !== undefined) assert.equal(rows.get(name), value, `${name}: README says ${rows.get(name)}, the code ${value}`);
    else assert.match(rows.get(name) ?? '', /^\(.*\)$|^</, `${name} has no default in the code: the README should say what unset means, in brackets`);
  }
});
