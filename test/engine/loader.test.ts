/**
 * `npx touchline serve` runs src/ through tsx registered by bin/touchline.js in the main thread only:
 * the analysis workers must still load their TypeScript (src/engine/pool.ts gives them the loader).
 * Before, the worker failed to load and the whole process stopped at its start.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { cleanEnv, REPO_ROOT } from '../helpers/server-process.js';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/loader/${name}`, import.meta.url));

test('analysis workers load under a loader registered in the main thread only (as bin/touchline.js)', { timeout: 120_000 }, () => {
  const run = spawnSync(process.execPath, [fixture('registered.mjs'), fixture('roi-through-pool.ts')], {
    cwd: REPO_ROOT,
    env: cleanEnv(),
    encoding: 'utf8',
    timeout: 110_000,
  });
  assert.equal(run.status, 0, `exit ${run.status}\n${run.stderr.slice(-2_000)}`);
  const line = run.stdout.trim().split('\n').at(-1) ?? '';
  const { status, body } = JSON.parse(line) as { status: number; body: { expected_transfer_value?: number } };
  assert.equal(status, 200, line);
  assert.ok((body.expected_transfer_value ?? 0) > 0, line);
});
