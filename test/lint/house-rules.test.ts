import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ESLint } from 'eslint';

// The whiteboard's rules are lint (eslint.config.js, house/rooms): an arrow the room table lacks fails.
const eslint = new ESLint();

async function roomErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === 'house/rooms').map((m) => m.message);
}

test('arrows the room table does not have fail lint', async () => {
  assert.match((await roomErrors('src/valuation/probe.ts', "export { loadWorld } from '../data/world-store.js';\n"))[0], /src\/valuation may not import src\/data/);
  assert.match((await roomErrors('src/data/probe.ts', "export type { ModelBundle } from '../valuation/bundle.js';\n"))[0], /src\/data may not import src\/valuation/);
  assert.match((await roomErrors('src/access/probe.ts', "export { errorBody } from '../http/errors.js';\n"))[0], /src\/access may not import src\/http/);
  assert.match((await roomErrors('src/domain/probe.ts', "export { convert } from '../money/convert.js';\n"))[0], /src\/domain may not import src\/money/);
  assert.match((await roomErrors('src/models/probe.ts', "export const m = import('../http/errors.js');\n"))[0], /src\/models may not import src\/http/);
  assert.match((await roomErrors('web/src/probe.ts', "export { ROLES } from '../../src/domain/roles.js';\n"))[0], /web\/ may not import src\/domain/);
});

test('arrows the table has pass', async () => {
  assert.deepEqual(await roomErrors('src/valuation/probe.ts', "export { ROLES } from '../domain/roles.js';\nexport { convert } from '../money/convert.js';\n"), []);
  assert.deepEqual(await roomErrors('src/http/probe.ts', "export { playerFacts } from '../domain/player-facts.js';\n"), []);
  assert.deepEqual(await roomErrors('src/cli/probe.ts', "export { buildApp } from '../app.js';\n"), []);
  assert.deepEqual(await roomErrors('web/src/probe.ts', "export { api } from './api/client.js';\n"), []);
});
