/**
 * Every field of the API is described in the OpenAPI document that /docs renders: each query
 * parameter, each property of a request body and of every response (nested objects, array items and
 * the members of a union included), and each response itself. The descriptions are written once, in
 * the zod schemas, so the document and the page cannot drift apart.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.js';

type Schema = Record<string, unknown>;
interface Operation {
  parameters?: Array<{ name: string; in: string; description?: string; schema?: Schema }>;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
}
interface OpenApi {
  info: { title: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Where in `schema` (reached at `at`) a property has no description: one line per property. */
function undescribed(schema: Schema | undefined, at: string, out: string[]): void {
  if (!schema || typeof schema !== 'object') return;
  const props = schema.properties as Record<string, Schema> | undefined;
  if (props) {
    for (const [name, prop] of Object.entries(props)) {
      const desc = prop?.description;
      if (typeof desc !== 'string' || desc.trim() === '') out.push(`${at}.${name}`);
      undescribed(prop, `${at}.${name}`, out);
    }
  }
  if (schema.items && typeof schema.items === 'object') undescribed(schema.items as Schema, `${at}[]`, out);
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    undescribed(schema.additionalProperties as Schema, `${at}{}`, out);
  }
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const members = schema[key];
    if (Array.isArray(members)) members.forEach((m: Schema, i) => undescribed(m, `${at}<${key}${i}>`, out));
  }
}

describe('the OpenAPI document describes every field', () => {
  let t: TestApp;
  let doc: OpenApi;
  const operations: Array<{ name: string; op: Operation }> = [];

  before(async () => {
    t = await startTestApp();
    const res = await t.get('/v1/openapi.json', null);
    assert.equal(res.statusCode, 200);
    doc = JSON.parse(res.body) as OpenApi;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) if (METHODS.includes(method)) operations.push({ name: `${method.toUpperCase()} ${path}`, op });
    }
  });
  after(async () => {
    await t?.close();
  });

  test('the document is Touchline\'s and lists the endpoints', () => {
    assert.match(doc.info.title, /Touchline/);
    assert.ok(operations.length >= 19, operations.map((o) => o.name).join(', '));
  });

  test('every query parameter has a description', () => {
    const missing: string[] = [];
    for (const { name, op } of operations) {
      for (const p of op.parameters ?? []) {
        const desc = p.description ?? (p.schema?.description as string | undefined);
        if (typeof desc !== 'string' || desc.trim() === '') missing.push(`${name} ${p.in} ${p.name}`);
        undescribed(p.schema, `${name} ${p.in} ${p.name}`, missing);
      }
    }
    assert.deepEqual(missing, []);
  });

  test('every property of every request body has a description', () => {
    const missing: string[] = [];
    let bodies = 0;
    for (const { name, op } of operations) {
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
        bodies++;
        undescribed(media.schema, `${name} body(${type})`, missing);
      }
    }
    assert.ok(bodies >= 7, `request bodies found: ${bodies}`);
    assert.deepEqual(missing, []);
  });

  test('every response has its own description and every property of it one too', () => {
    const missing: string[] = [];
    for (const { name, op } of operations) {
      for (const [status, res] of Object.entries(op.responses ?? {})) {
        if (!res.description || res.description === 'Default Response') missing.push(`${name} ${status} (the response itself)`);
        for (const media of Object.values(res.content ?? {})) undescribed(media.schema, `${name} ${status}`, missing);
      }
    }
    assert.deepEqual(missing, []);
  });

  test('integers carry real bounds only, not the safe-integer ones zod writes', () => {
    const text = JSON.stringify(doc);
    assert.ok(!text.includes(String(Number.MAX_SAFE_INTEGER)), 'no 9007199254740991 bound is left');
    const impact = doc.paths['/v1/get_sportive_impact'].post.responses?.['200'].content?.['application/json'].schema as Schema;
    const share = (impact.properties as Record<string, Schema>).playing_time_percentage;
    assert.deepEqual([share.minimum, share.maximum], [0, 0.9], 'a real bound stays');
  });

  test('the walk finds a property without a description', () => {
    // The check above must be able to fail: a nested property inside an array of a union.
    const out: string[] = [];
    undescribed(
      { anyOf: [{ type: 'object', properties: { list: { type: 'array', description: 'x', items: { type: 'object', properties: { bare: { type: 'string' } } } } } }] },
      'probe',
      out,
    );
    assert.deepEqual(out, ['probe<anyOf0>.list[].bare']);
  });
});
