/**
 * Generators and checks for the HTTP fuzz test: malformed requests built from the OpenAPI document,
 * so every endpoint the app publishes is covered without a list kept by hand. Everything random
 * comes from one seeded `Rng`, so a failing case is reproduced by its seed and index.
 */
import type { Rng } from '../../src/domain/random.js';

/** The part of JSON Schema the OpenAPI document uses. */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  maxItems?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

export interface FuzzParam {
  readonly name: string;
  readonly required: boolean;
  readonly schema: JsonSchema;
}

export interface FuzzEndpoint {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly query: readonly FuzzParam[];
  /** JSON body schema, null when the endpoint takes none. */
  readonly body: JsonSchema | null;
  /** Response schemas by status code, to check success answers. */
  readonly responses: Readonly<Record<string, JsonSchema>>;
}

interface OpenApiOperation {
  parameters?: Array<{ in: string; name: string; required?: boolean; schema?: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Every operation of an OpenAPI 3 document, with its query parameters, body and response schemas. */
export function endpointsFromOpenApi(doc: { paths: Record<string, Record<string, OpenApiOperation>> }): FuzzEndpoint[] {
  const out: FuzzEndpoint[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const m of METHODS) {
      const op = item[m];
      if (!op) continue;
      const responses: Record<string, JsonSchema> = {};
      for (const [status, r] of Object.entries(op.responses ?? {})) {
        const s = r.content?.['application/json']?.schema;
        if (s) responses[status] = s;
      }
      out.push({
        method: m.toUpperCase() as FuzzEndpoint['method'],
        path,
        query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => ({ name: p.name, required: p.required === true, schema: p.schema ?? {} })),
        body: op.requestBody?.content?.['application/json']?.schema ?? null,
        responses,
      });
    }
  }
  return out;
}

/** Real identifiers of the world under test, so some requests get past validation to the data. */
export interface FuzzContext {
  readonly key: string;
  readonly playerIds: readonly string[];
  readonly clubIds: readonly string[];
  readonly competitionIds: readonly string[];
  readonly roles: readonly string[];
  readonly registryIds: readonly number[];
}

export interface FuzzRequest {
  /** Which mutation made it, for the failure report and the tally. */
  readonly kind: string;
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string | string[]>;
  readonly payload?: string;
  /** When set, the exact answer required (status and body). */
  readonly expect?: { status: number; body: Record<string, unknown> };
}

// ---------------------------------------------------------------------------------------------
// Value catalogues

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[rng.int(0, xs.length - 1)];
const chance = (rng: Rng, p: number): boolean => rng.uniform() < p;

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** A well-formed service id that names nothing (P/C + 26 base32 characters). */
export function unknownId(rng: Rng, prefix: 'P' | 'C'): string {
  let s = prefix;
  for (let i = 0; i < 26; i++) s += CROCKFORD[rng.int(0, CROCKFORD.length - 1)];
  return s;
}

/** Strings that have broken parsers, databases and loggers elsewhere. None contains a path or stack-like text. */
export const NASTY_STRINGS: readonly string[] = [
  '',
  ' ',
  '\t\n\r',
  '0',
  '-1',
  '1.5',
  '1e309',
  '-0',
  'NaN',
  'Infinity',
  '-Infinity',
  '0x1F',
  '1_000',
  'true',
  'null',
  'undefined',
  '[]',
  '{}',
  '{"$ne":null}',
  "' OR '1'='1' --",
  '"; drop table api_keys; --',
  '\\',
  '%00',
  '%',
  '../../../../etc/passwd',
  '<script>alert(1)</script>',
  '${jndi:ldap://127.0.0.1/a}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'prototype',
  '\u0000',
  'a\u0000b',
  '\u202eevil\u202c',
  'مرحبا بالعالم',
  '\u05e9\u05dc\u05d5\u05dd',
  '⚽️👨‍👩‍👧‍👦🏳️‍🌈',
  '\ud83d',
  '\udc00x',
  'x\ud800',
  'e\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301',
  'Z\u0351\u0352\u0353\u0354\u0355\u0356\u0357\u0358\u0359\u035a',
  '\ufeffBOM',
  '\uffff\ufffe',
  '\u2028\u2029',
  'ＰＲＥＭＩＥＲ＿ＬＥＡＧＵＥ',
  'PREMIER_LEAGUE\u0000',
  'p' + '0'.repeat(26),
  'P' + 'O'.repeat(26),
  'P' + 'I'.repeat(25),
  'P' + 'a'.repeat(27),
  'C' + '1'.repeat(26) + '\n',
  'XTS',
  'eur',
  'EUR ',
  '2025-02-30',
  '9999-99-99',
  '2025/2026/2027',
  '1999/2001',
];

/** Characters for random strings: ASCII, Latin-1, RTL, combining marks, emoji, NUL and lone surrogates. */
const CHAR_POOL: readonly string[] = [
  ...'abcXYZ019_-./:;,?&=#+%@!*()[]{}<>"\'`~^|\\ '.split(''),
  '\u0000', '\u0001', '\u007f', '\u00e9', '\u00ff', '\u0645', '\u05d0', '\u202e', '\u200f', '\u200b',
  '\u0301', '\u0336', '\u4e2d', '\ud83d\ude00', '\ud83c\udff3\ufe0f\u200d\ud83c\udf08', '\ud800', '\udfff', '\ufffd', '\u2028',
];

function randomString(rng: Rng, maxLen: number): string {
  const n = rng.int(0, maxLen);
  let s = '';
  for (let i = 0; i < n; i++) s += pick(rng, CHAR_POOL);
  return s;
}

/** A long string: repeated text, or random characters, up to ~64 KiB. */
function longString(rng: Rng): string {
  const n = pick(rng, [257, 1025, 4097, 16_385, 65_537]);
  return chance(rng, 0.5) ? 'x'.repeat(n) : (pick(rng, CHAR_POOL) + 'é').repeat(Math.ceil(n / 3)).slice(0, n);
}

/** A string for any slot: mostly nasty or random, sometimes long. */
export function fuzzString(rng: Rng): string {
  const r = rng.uniform();
  if (r < 0.45) return pick(rng, NASTY_STRINGS);
  if (r < 0.9) return randomString(rng, 40);
  return longString(rng);
}

function deepNest(depth: number, open: string, close: string, inner: string, closed: boolean): string {
  return open.repeat(depth) + inner + (closed ? close.repeat(depth) : '');
}

/** A JSON value of the wrong kind for a field: numbers at the edges, strings, arrays, objects, nesting. */
export function wrongValue(rng: Rng, depth = 0): unknown {
  switch (rng.int(0, 9)) {
    case 0:
      return pick(rng, [0, -1, -0.5, 1.5, 1e12, 1e12 + 1, 2 ** 53, 2 ** 53 + 2, -(2 ** 63), 1e308, -1e308, 5e-324, Number.MAX_SAFE_INTEGER]);
    case 1:
    case 2:
      return fuzzString(rng);
    case 3:
      return pick(rng, [true, false]);
    case 4:
      return null;
    case 5:
      return depth > 2 ? [] : Array.from({ length: rng.int(0, 3) }, () => wrongValue(rng, depth + 1));
    case 6:
      return depth > 2 ? {} : { [fuzzString(rng)]: wrongValue(rng, depth + 1), __proto__x: 1 };
    case 7: {
      // Nesting that still parses: a few hundred levels inside a field.
      let v: unknown = 1;
      for (let i = rng.int(50, 500); i > 0; i--) v = chance(rng, 0.5) ? [v] : { a: v };
      return v;
    }
    case 8:
      return longString(rng);
    default:
      return String(rng.int(-5, 1_000_000_000));
  }
}

/** A query value of the wrong kind: numbers as text at the edges, nasty and long strings. */
function wrongQueryText(rng: Rng): string {
  if (chance(rng, 0.25)) return pick(rng, ['-1', '0', '1.5', '1e999', '99999999999999999999', 'NaN', 'true', 'null', '[1,2]', '{"a":1}', '0x10', '+1', ' 1']);
  return fuzzString(rng);
}

// ---------------------------------------------------------------------------------------------
// Valid values, so one mutated field sits among valid ones and validation gets past the first field

function validString(rng: Rng, name: string, schema: JsonSchema, ctx: FuzzContext): string {
  if (schema.enum?.length) return String(pick(rng, schema.enum));
  const p = schema.pattern ?? '';
  if (p.startsWith('^P')) return chance(rng, 0.6) ? pick(rng, ctx.playerIds) : unknownId(rng, 'P');
  if (p.startsWith('^C')) return chance(rng, 0.6) ? pick(rng, ctx.clubIds) : unknownId(rng, 'C');
  if (p.includes('\\d')) return String(rng.int(0, 4000));
  if (/competition/.test(name)) return chance(rng, 0.8) ? pick(rng, ctx.competitionIds) : 'NO_SUCH_LEAGUE';
  if (/currency/.test(name)) return pick(rng, ['EUR', 'usd', 'GBP', 'chf', 'XXX', 'ZZZ']);
  if (/date/.test(name)) return pick(rng, ['2027-06-30', '2026-12-31', '2030-01-01', '2020-02-29']);
  if (/season/.test(name)) return pick(rng, ['2024/2025', '2025/2026', '2019/2020', '1990/1991']);
  if (/role/.test(name)) return chance(rng, 0.8) ? pick(rng, ctx.roles) : 'NOT_A_ROLE';
  if (/email/.test(name)) return pick(rng, FUZZ_EMAILS);
  if (/password/.test(name)) return pick(rng, ['hunter2', 'correct horse battery staple', 'p\u00e4ssw\u00f6rd', 'x'.repeat(1024)]);
  const s = 'x'.repeat(rng.int(1, 8));
  return schema.maxLength !== undefined ? s.slice(0, schema.maxLength) : s;
}

/**
 * Emails for login bodies: few, so the per-email lockout soon answers without an argon2 verification
 * (each costs ~15 ms), and odd enough to reach the database with NUL, RTL and emoji.
 */
export const FUZZ_EMAILS: readonly string[] = [
  'nobody@example.com',
  'BOOTSTRAP@touchline.local',
  'a\u0000b@example.com',
  '\u202egro.elpmaxe@live',
  '⚽@example.com',
  "x' or 1=1 --@example.com",
  '\ud800@example.com',
  ' ',
];

const nonNull = (s: JsonSchema): JsonSchema => {
  const alts = s.anyOf ?? s.oneOf;
  if (!alts) return s;
  return alts.find((a) => a.type !== 'null') ?? alts[0];
};

/** A value that satisfies the schema (as far as this generator can tell), drawn from the real world where it helps. */
export function validValue(rng: Rng, name: string, schema: JsonSchema, ctx: FuzzContext, depth = 0): unknown {
  const s = nonNull(schema);
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return pick(rng, s.enum);
  const type = Array.isArray(s.type) ? s.type.find((x) => x !== 'null') : s.type;
  switch (type) {
    case 'integer':
      if (/registry/.test(name) && ctx.registryIds.length && chance(rng, 0.5)) return pick(rng, ctx.registryIds);
      return rng.int(Math.max(1, s.minimum ?? 1), Math.min(s.maximum ?? 1_000_000, 1_000_000));
    case 'number':
      return Math.round(rng.uniform() * 50_000_000);
    case 'boolean':
      return chance(rng, 0.5);
    case 'array': {
      const n = depth > 3 ? 0 : rng.int(0, Math.min(s.maxItems ?? 4, 4));
      return Array.from({ length: n }, () => validValue(rng, name, s.items ?? {}, ctx, depth + 1));
    }
    case 'object':
      return validObject(rng, s, ctx, depth + 1);
    case 'string':
      return validString(rng, name, s, ctx);
    default:
      return s.properties ? validObject(rng, s, ctx, depth + 1) : validString(rng, name, {}, ctx);
  }
}

function validObject(rng: Rng, schema: JsonSchema, ctx: FuzzContext, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const required = new Set(schema.required ?? []);
  for (const [k, sub] of Object.entries(schema.properties ?? {})) {
    if (required.has(k) || chance(rng, 0.5)) out[k] = validValue(rng, k, sub, ctx, depth);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Query strings and URLs

/** Percent-encodes text, including lone surrogates, which `encodeURIComponent` refuses: they go out as raw CESU-8 bytes. */
export function encodeLoose(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const isHigh = c >= 0xd800 && c <= 0xdbff;
    const isLow = c >= 0xdc00 && c <= 0xdfff;
    if (isHigh && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out += encodeURIComponent(s.slice(i, i + 2));
        i++;
        continue;
      }
    }
    if (isHigh || isLow) {
      out += `%${(0xe0 | (c >> 12)).toString(16).toUpperCase()}%${(0x80 | ((c >> 6) & 0x3f)).toString(16).toUpperCase()}%${(0x80 | (c & 0x3f)).toString(16).toUpperCase()}`;
      continue;
    }
    out += encodeURIComponent(s[i]);
  }
  return out;
}

type Pair = [string, string];

function queryString(pairs: readonly Pair[], rng: Rng): string {
  if (pairs.length === 0) return '';
  const parts = pairs.map(([k, v]) => {
    // Now and then the raw text, broken percent escapes included, goes out unencoded.
    if (chance(rng, 0.05)) return `${k}=${pick(rng, ['%', '%zz', '%E0%A4%A', '%C0%AF', '%ED%A0%80', '%FF%FE', '%%', v.replace(/[^\x21-\x7e]/g, '')])}`;
    return `${encodeLoose(k)}=${encodeLoose(v)}`;
  });
  return '?' + parts.join('&');
}

function validPairs(rng: Rng, ep: FuzzEndpoint, ctx: FuzzContext): Pair[] {
  const pairs: Pair[] = [];
  for (const p of ep.query) {
    if (p.required || chance(rng, 0.4)) {
      const v = validValue(rng, p.name, p.schema, ctx);
      pairs.push([p.name, Array.isArray(v) ? String(v[0] ?? '') : String(v)]);
    }
  }
  return pairs;
}

/** Query parameters with one or more faults: missing, duplicated, extra, wrong type, long, unicode, bracket syntax. */
function mutatedPairs(rng: Rng, ep: FuzzEndpoint, ctx: FuzzContext): { pairs: Pair[]; kind: string } {
  const pairs = validPairs(rng, ep, ctx);
  const names = ep.query.map((p) => p.name);
  const faults = rng.int(1, 3);
  const kinds: string[] = [];
  for (let f = 0; f < faults; f++) {
    const kind = pick(rng, ['drop', 'duplicate', 'extra', 'wrong', 'wrong', 'wrong', 'brackets', 'many', 'empty-name']);
    kinds.push(kind);
    const target = names.length ? pick(rng, names) : 'player_id';
    switch (kind) {
      case 'drop':
        if (pairs.length) pairs.splice(rng.int(0, pairs.length - 1), 1);
        break;
      case 'duplicate':
        pairs.push([target, chance(rng, 0.5) ? wrongQueryText(rng) : String(validValue(rng, target, ep.query.find((p) => p.name === target)?.schema ?? {}, ctx))]);
        pairs.push([target, wrongQueryText(rng)]);
        break;
      case 'extra':
        pairs.push([fuzzString(rng).slice(0, 200) || 'x', wrongQueryText(rng)]);
        break;
      case 'wrong': {
        const i = pairs.findIndex(([k]) => k === target);
        if (i >= 0) pairs[i] = [target, wrongQueryText(rng)];
        else pairs.push([target, wrongQueryText(rng)]);
        break;
      }
      case 'brackets':
        pairs.push([pick(rng, [`${target}[]`, `${target}[0]`, `${target}[a][b]`, `${target}.x`, `__proto__[${target}]`, 'constructor[prototype][x]']), wrongQueryText(rng)]);
        break;
      case 'many':
        for (let i = rng.int(50, 400); i > 0; i--) pairs.push([chance(rng, 0.5) ? target : `p${i}`, String(i)]);
        break;
      default:
        pairs.push(['', wrongQueryText(rng)]);
    }
  }
  return { pairs, kind: `query:${kinds.join('+')}` };
}

/** Paths no route serves: typos, traversal, encodings, unicode, long and deep paths, other versions. */
function unknownPath(rng: Rng, known: readonly string[]): string {
  const base = pick(rng, known);
  switch (rng.int(0, 11)) {
    case 0:
      return base + 'x';
    case 1:
      return base.toUpperCase();
    case 2:
      return base + '/' + encodeLoose(fuzzString(rng).slice(0, 100));
    case 3:
      return pick(rng, ['/v1/../etc/passwd', '/v1/%2e%2e/%2e%2e/etc/passwd', '/docs/static/../../package.json', '/docs/static/%2e%2e/%2e%2e/package.json', '/docs/static/..%2f..%2fpackage.json', '/v1//competitions', '//v1/competitions', '/v1/competitions%00', '/v1/%ZZ', '/%', '/v1/compet%C0%AFitions']);
    case 4:
      return '/v1/' + 'a/'.repeat(rng.int(100, 2000));
    case 5:
      return '/' + 'x'.repeat(rng.int(1000, 7000));
    case 6:
      return base.replace('/v1/', pick(rng, ['/v2/', '/v0/', '/V1/', '/v1.0/', '/']));
    case 7:
      return '/v1/' + encodeLoose(pick(rng, NASTY_STRINGS));
    case 8:
      return base + '.json';
    case 9:
      return pick(rng, ['/', '/v1', '/v1/', '/health', '/openapi.json', '/docs/nope', '/docs/static/nope.js', '/docs/json/x', '/favicon.ico', '/.env', '/.git/config']);
    case 10:
      return base + ';jsessionid=1';
    default:
      return '/v1/' + encodeLoose(randomString(rng, 30));
  }
}

// ---------------------------------------------------------------------------------------------
// Headers

/** API keys of every shape: empty, short, at and past the length bounds, near-misses of the real key, odd characters. */
function badKey(rng: Rng, key: string): string {
  const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'a' ? 'b' : 'a') + s.slice(i + 1);
  switch (rng.int(0, 11)) {
    case 0:
      return pick(rng, ['', ' ', '\t', 'null', 'undefined', 'Bearer', '0']);
    case 1:
      return 'k'.repeat(pick(rng, [1, 19, 20, 21, 199, 200, 201, 1000, 8000]));
    case 2:
      return flip(key, rng.int(0, key.length - 1));
    case 3:
      return key.toUpperCase();
    case 4:
      return key.slice(0, -1);
    case 5:
      return key + 'x';
    case 6:
      return `${key},${key}`;
    case 7:
      return "' OR '1'='1";
    case 8:
      // Latin-1 and control-free obs-text, the most a real HTTP parser lets through.
      return Array.from({ length: rng.int(20, 60) }, () => String.fromCharCode(rng.int(0xa0, 0xff))).join('');
    case 9:
      return 'tl_' + Array.from({ length: 43 }, () => CROCKFORD[rng.int(0, 31)]).join('');
    case 10:
      return ` ${key} `;
    default:
      return key.replace(/./g, (c) => (chance(rng, 0.1) ? '%' : c));
  }
}

/** Header sets: mostly the valid key; otherwise bad keys, repeated and conflicting credentials, huge and many headers. */
function headersFor(rng: Rng, ctx: FuzzContext): { headers: Record<string, string | string[]>; kind: string } {
  const r = rng.uniform();
  if (r < 0.7) return { headers: chance(rng, 0.8) ? { 'x-api-key': ctx.key } : { authorization: `Bearer ${ctx.key}` }, kind: 'key' };
  const kind = pick(rng, ['bad-key', 'bad-bearer', 'repeated', 'both', 'huge', 'many', 'none', 'odd-auth']);
  switch (kind) {
    case 'bad-key':
      return { headers: { 'x-api-key': badKey(rng, ctx.key) }, kind };
    case 'bad-bearer':
      return { headers: { authorization: `${pick(rng, ['Bearer ', 'bearer ', 'BEARER  ', 'Bearer\t', 'Token ', ''])}${badKey(rng, ctx.key)}` }, kind };
    case 'repeated':
      return {
        headers: chance(rng, 0.5)
          ? { 'x-api-key': [pick(rng, [ctx.key, badKey(rng, ctx.key)]), pick(rng, [ctx.key, badKey(rng, ctx.key)])] }
          : { authorization: [`Bearer ${badKey(rng, ctx.key)}`, `Bearer ${ctx.key}`] },
        kind,
      };
    case 'both':
      return { headers: { 'x-api-key': pick(rng, ['', ' ', badKey(rng, ctx.key), ctx.key]), authorization: `Bearer ${pick(rng, [ctx.key, badKey(rng, ctx.key)])}` }, kind };
    case 'huge':
      return { headers: { 'x-api-key': ctx.key, 'x-fuzz': 'h'.repeat(rng.int(4000, 12_000)), 'user-agent': 'u'.repeat(rng.int(100, 3000)) }, kind };
    case 'many': {
      const h: Record<string, string> = { 'x-api-key': ctx.key };
      for (let i = rng.int(20, 90); i > 0; i--) h[`x-fuzz-${i}`] = 'v'.repeat(rng.int(0, 50));
      return { headers: h, kind };
    }
    case 'none':
      return { headers: {}, kind };
    default:
      return { headers: { authorization: pick(rng, ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', 'Digest x', `Bearer ${ctx.key} ${ctx.key}`, `${ctx.key}`]) }, kind };
  }
}

// ---------------------------------------------------------------------------------------------
// Bodies

const FILLER = 'a'.repeat(1024 * 1024 + 4096);

/** A JSON object body of exactly `size` bytes (ASCII), padded through one string field. */
export function jsonBodyOfSize(size: number, field = 'pad'): string {
  const shell = `{"${field}":""}`;
  return `{"${field}":"${FILLER.slice(0, size - shell.length)}"}`;
}

const MALFORMED_JSON = [
  '{',
  '}',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '{a:1}',
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":undefined}',
  '{"a":1}{"b":2}',
  '{"a":1} trailing',
  '\ufeff{"a":1}',
  '{"a":"\\u12"}',
  '{"a":"\\ud800"}',
  '{"a":"\u0000"}',
  '{"a":01}',
  '{"a":.5}',
  '{"a":1e999}',
  '{"a":-}',
  '/* c */{"a":1}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '"string"',
  'true',
  'null',
  '[]',
  '[{}]',
  '0',
  '   ',
  '\n',
];

/** A body for an endpoint: valid object with wrong fields, malformed JSON, deep nesting, or raw bytes. */
function mutatedBody(rng: Rng, ep: FuzzEndpoint, ctx: FuzzContext): { payload: string; kind: string } {
  const schema = ep.body ?? { type: 'object', properties: {} };
  const r = rng.uniform();
  if (r < 0.5) {
    const obj = validObject(rng, schema, ctx, 0);
    const names = Object.keys(schema.properties ?? {});
    const faults = rng.int(1, 3);
    for (let f = 0; f < faults; f++) {
      const action = rng.int(0, 3);
      const name = names.length ? pick(rng, names) : 'x';
      if (action === 0) delete obj[name];
      else if (action === 1) obj[fuzzString(rng).slice(0, 100)] = wrongValue(rng);
      else obj[name] = wrongValue(rng);
    }
    return { payload: JSON.stringify(obj), kind: 'body:fields' };
  }
  if (r < 0.7) return { payload: pick(rng, MALFORMED_JSON), kind: 'body:malformed' };
  if (r < 0.8) {
    const depth = pick(rng, [1000, 10_000, 50_000]);
    const form = rng.int(0, 3);
    const payload =
      form === 0 ? deepNest(depth, '[', ']', '', true)
        : form === 1 ? deepNest(depth, '[', ']', '', false)
          : form === 2 ? '{"player_id":' + deepNest(depth, '{"a":', '}', '1', true) + '}'
            : deepNest(depth, '{"a":', '}', '1', rng.uniform() < 0.5);
    return { payload, kind: `body:nest${depth}` };
  }
  if (r < 0.9) return { payload: JSON.stringify(validObject(rng, schema, ctx, 0)), kind: 'body:valid' };
  return { payload: randomString(rng, 200), kind: 'body:garbage' };
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/json;;;',
  'application/problem+json',
  'application/vnd.api+json',
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/octet-stream',
  'application/xml',
  '*/*',
  '',
  ' ',
  'json',
];

// ---------------------------------------------------------------------------------------------
// The generator

const ODD_METHODS = ['PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE', 'SEARCH'] as const;

export const BODY_LIMIT = 1024 * 1024;

/** One malformed (sometimes valid) request against the app. */
export function generateRequest(rng: Rng, endpoints: readonly FuzzEndpoint[], ctx: FuzzContext): FuzzRequest {
  const ep = pick(rng, endpoints);
  const { headers, kind: headerKind } = headersFor(rng, ctx);
  const withKey = headerKind === 'key' || headerKind === 'huge' || headerKind === 'many';
  const r = rng.uniform();

  if (r < 0.07) {
    const url = unknownPath(rng, endpoints.map((e) => e.path));
    const method = pick(rng, ['GET', 'GET', 'POST', ...ODD_METHODS]);
    return method === 'POST'
      ? { kind: 'unknown-path', method, url, headers: { ...headers, 'content-type': 'application/json' }, payload: '{}' }
      : { kind: 'unknown-path', method, url, headers };
  }
  if (r < 0.14) {
    const method = pick(rng, [ep.method === 'GET' ? 'POST' : 'GET', ...ODD_METHODS]);
    const payload = chance(rng, 0.5) ? JSON.stringify(validObject(rng, ep.body ?? {}, ctx, 0)) : undefined;
    return {
      kind: `method:${method}`,
      method,
      url: ep.path + queryString(validPairs(rng, ep, ctx), rng),
      headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      payload,
    };
  }
  if (ep.method === 'GET') {
    const { pairs, kind } = r < 0.2 ? { pairs: validPairs(rng, ep, ctx), kind: 'query:valid' } : mutatedPairs(rng, ep, ctx);
    // A GET sometimes carries a body, of any type.
    const payload = chance(rng, 0.05) ? pick(rng, ['{"player_id":1}', '{', 'x'.repeat(2000)]) : undefined;
    const h = payload === undefined ? headers : { ...headers, 'content-type': pick(rng, CONTENT_TYPES) };
    return { kind: `${kind}|${headerKind}`, method: 'GET', url: ep.path + queryString(pairs, rng), headers: h, payload };
  }

  // Endpoints with a body.
  const url = ep.path + (chance(rng, 0.15) ? queryString(mutatedPairs(rng, ep, ctx).pairs, rng) : '');
  const b = rng.uniform();
  if (b < 0.03) {
    const size = BODY_LIMIT + rng.int(1, 2048);
    return {
      kind: 'body:over-limit',
      method: ep.method,
      url,
      headers: { ...headers, 'content-type': 'application/json' },
      payload: jsonBodyOfSize(size),
      // Only a caller past the access check reaches the body.
      expect: withKey || ep.path.endsWith('/auth/login') ? { status: 413, body: { error: 'Request body too large' } } : undefined,
    };
  }
  if (b < 0.04) {
    return { kind: 'body:at-limit', method: ep.method, url, headers: { ...headers, 'content-type': 'application/json' }, payload: jsonBodyOfSize(BODY_LIMIT) };
  }
  if (b < 0.1) {
    const payload = pick(rng, ['', undefined]);
    return { kind: 'body:empty', method: ep.method, url, headers: { ...headers, 'content-type': pick(rng, CONTENT_TYPES) }, payload };
  }
  const { payload, kind } = mutatedBody(rng, ep, ctx);
  const h: Record<string, string | string[]> = { ...headers };
  const ct = rng.uniform();
  if (ct < 0.75) h['content-type'] = 'application/json';
  else if (ct < 0.97) h['content-type'] = pick(rng, CONTENT_TYPES);
  // A few send a content-length that disagrees with the body.
  if (chance(rng, 0.02)) h['content-length'] = String(Math.max(0, Buffer.byteLength(payload) + pick(rng, [-1, -5, 1, 100])));
  return { kind: `${kind}|${headerKind}`, method: ep.method, url, headers: h, payload };
}

// ---------------------------------------------------------------------------------------------
// Checks

/** Whether a JSON value fits a schema (the subset the document uses); returns the first mismatch or null. */
export function schemaMismatch(schema: JsonSchema, value: unknown, at = '$'): string | null {
  const alts = schema.anyOf ?? schema.oneOf;
  if (alts) return alts.some((s) => schemaMismatch(s, value, at) === null) ? null : `${at}: matches none of ${alts.length} alternatives`;
  if (schema.allOf) for (const s of schema.allOf) {
    const m = schemaMismatch(s, value, at);
    if (m) return m;
  }
  if (schema.const !== undefined && value !== schema.const) return `${at}: expected ${JSON.stringify(schema.const)}`;
  if (schema.enum && !schema.enum.includes(value)) return `${at}: ${JSON.stringify(value)} not in enum`;
  const types = schema.type === undefined ? null : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types) {
    const actual = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
    const ok = types.some((t) => t === actual || (t === 'integer' && typeof value === 'number' && Number.isInteger(value)));
    if (!ok) return `${at}: expected ${types.join('|')}, got ${actual}`;
  }
  if (Array.isArray(value) && schema.items) {
    for (let i = 0; i < value.length; i++) {
      const m = schemaMismatch(schema.items, value[i], `${at}[${i}]`);
      if (m) return m;
    }
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    for (const k of schema.required ?? []) if (!(k in obj)) return `${at}.${k}: missing`;
    for (const [k, v] of Object.entries(obj)) {
      const sub = schema.properties?.[k] ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
      if (sub) {
        const m = schemaMismatch(sub, v, `${at}.${k}`);
        if (m) return m;
      }
    }
  }
  return null;
}

/** Text that must never reach a client: stack frames, internal paths, error class names, framework codes. */
export function leakMarkers(root: string): RegExp[] {
  const esc = root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return [
    new RegExp(esc),
    /\n\s+at /,
    /node_modules/,
    /node:internal/,
    /\.ts:\d+/,
    /"stack"/,
    /FST_ERR/,
    /ZodError/,
    /\b(TypeError|ReferenceError|RangeError|SyntaxError)\b/,
    /\bPGlite|\bpglite|error: relation|violates|duplicate key/,
  ];
}

export interface FuzzResponse {
  readonly statusCode: number;
  readonly headers: Record<string, unknown>;
  readonly body: string;
}

/** What is wrong with an answer to a fuzz request; null when it is fine. */
export function answerProblem(req: FuzzRequest, res: FuzzResponse, ctx: { key: string; leaks: RegExp[]; responses?: Record<string, JsonSchema> }): string | null {
  if (res.statusCode >= 500) return `status ${res.statusCode}`;
  const sent = `${req.url}\n${req.payload ?? ''}\n${JSON.stringify(req.headers)}`;
  for (const re of ctx.leaks) if (re.test(res.body) && !re.test(sent)) return `body leaks ${re}`;
  if (res.body.includes(ctx.key) && !sent.includes(ctx.key)) return 'body contains the API key';
  if (req.expect) {
    if (res.statusCode !== req.expect.status) return `expected ${req.expect.status}, got ${res.statusCode}`;
  }
  if (req.method === 'HEAD') return res.body === '' ? null : 'HEAD answer has a body';
  const docs = req.url.startsWith('/docs');
  // The web app answers its own files (its page at / and its assets) outside /v1 and /docs.
  const webApp = !docs && !req.url.startsWith('/v1') && res.statusCode < 300;
  const type = String(res.headers['content-type'] ?? '');
  // The docs page's and the web app's own files are HTML, JavaScript and CSS; everything else is JSON.
  if (webApp) return /^(text\/html|text\/javascript|application\/javascript|text\/css|image\/)/.test(type) ? null : `web app file as ${JSON.stringify(type)}`;
  if (docs && res.statusCode < 400) return null;
  if (!type.startsWith('application/json')) return `content-type ${JSON.stringify(type)}`;
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    return 'body is not JSON';
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'body is not a JSON object';
  if (res.statusCode >= 400) {
    if (typeof (body as { error?: unknown }).error !== 'string') return 'error body without an `error` string';
    if (req.expect) {
      const want = JSON.stringify(req.expect.body);
      if (JSON.stringify(body) !== want) return `expected body ${want}, got ${res.body.slice(0, 200)}`;
    }
    return null;
  }
  const schema = ctx.responses?.[String(res.statusCode)];
  if (schema) {
    const m = schemaMismatch(schema, body);
    if (m) return `success body does not fit the documented schema: ${m}`;
  }
  return null;
}
