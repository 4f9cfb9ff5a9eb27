import assert from 'node:assert/strict';
import { test } from 'node:test';
import { workerModule, withoutRequireOfModules } from '../../src/threads.js';

// A built worker must load through import(): node 20's require() of an ES module, interrupted by the
// pool's termination, ended the process with a fatal V8 error (docs/engine.md, "The server build").
test('a built worker module: the .js beside its caller, started with require of ES modules off', () => {
  const m = workerModule('file:///srv/touchline/build/engine/pool.js', 'worker');
  assert.equal(m.url.href, 'file:///srv/touchline/build/engine/worker.js');
  if (process.allowedNodeEnvironmentFlags.has('--experimental-require-module')) {
    assert.deepEqual(m.execArgv, [...process.execArgv, '--no-experimental-require-module']);
    assert.deepEqual(withoutRequireOfModules(['--enable-source-maps']), ['--enable-source-maps', '--no-experimental-require-module']);
  } else {
    assert.equal(m.execArgv, undefined);
  }
});

test('a worker module run from source: the .ts beside its caller', () => {
  const m = workerModule('file:///srv/touchline/src/engine/pool.ts', 'worker');
  assert.equal(m.url.href, 'file:///srv/touchline/src/engine/worker.ts');
  if (!process.execArgv.some((a) => a.includes('tsx'))) assert.ok(m.execArgv?.includes('--import'));
});
