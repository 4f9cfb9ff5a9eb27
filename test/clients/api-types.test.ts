/** The TypeScript client's committed API types are what our OpenAPI document makes today. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { SCHEMA_FILE, apiTypesSource } from '../../scripts/api-types.js';

test('clients/typescript/src/schema.d.ts is current (run `npm run api:types` after changing a route schema)', async () => {
  const committed = readFileSync(SCHEMA_FILE, 'utf8');
  const fresh = await apiTypesSource();
  assert.ok(committed === fresh, 'clients/typescript/src/schema.d.ts is stale: run `npm run api:types` and commit it');
});
