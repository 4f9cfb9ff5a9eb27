/**
 * The API's models as Model Context Protocol tools (EXTENSIONS "touchline mcp"): each tool is one or
 * two endpoints, its input schema the endpoint's own as the OpenAPI document states it, its result
 * the endpoint's answer. Nothing here knows an endpoint's fields: they come from the document.
 */

type JsonSchema = Record<string, unknown>;

interface Endpoint {
  readonly method: 'GET' | 'POST';
  readonly path: string;
}

interface ToolSpec {
  readonly name: string;
  readonly description: string;
  /** The endpoint whose input the tool takes (and whose answer it returns, unless `also` adds more). */
  readonly endpoint: Endpoint;
  /** Further endpoints asked with the same input, renamed: the result is `{[key]: answer}` for each. */
  readonly combined?: ReadonlyArray<{ readonly key: string; readonly endpoint: Endpoint; readonly input: (args: Record<string, unknown>) => Record<string, unknown> }>;
}

export const TOOL_SPECS: readonly ToolSpec[] = [
  { name: 'search', description: 'Find players, clubs and competitions by name (accents, nicknames and typos forgiven); gives the ids the other tools take.', endpoint: { method: 'GET', path: '/v1/search' } },
  {
    name: 'player_valuation',
    description: 'What a player is worth: his expected transfer fee now with an 80% range, and the distribution of his value in three years with the drivers that moved it.',
    endpoint: { method: 'POST', path: '/v1/get_future_transfer_value' },
    combined: [
      { key: 'expected_transfer_value', endpoint: { method: 'GET', path: '/v1/expected_transfer_value' }, input: (a) => ({ player_id: a.player_id, target_club_id: a.club_id, currency: a.currency_code }) },
      { key: 'future_value', endpoint: { method: 'POST', path: '/v1/get_future_transfer_value' }, input: (a) => a },
    ],
  },
  { name: 'similar_players', description: 'Players like this one (style, role, level), with what makes each similar.', endpoint: { method: 'GET', path: '/v1/similar_players' } },
  { name: 'roi_analysis', description: 'Whether a signing pays back for a club: fee, wages, value in three years and the sportive impact, over three seasons.', endpoint: { method: 'POST', path: '/v1/get_roi_analysis' } },
  { name: 'recommend_signings', description: 'Whom a club should sign for a position, within a budget and an age, ranked by return for that club.', endpoint: { method: 'POST', path: '/v1/recommend_signings' } },
  { name: 'squad_analysis', description: 'How a club\'s league finish moves if its squad changes: expected position and place probabilities before and after.', endpoint: { method: 'POST', path: '/v1/squad_analysis' } },
  { name: 'league_forecast', description: 'The analysis season\'s league table, simulated: each club\'s expected position and place probabilities.', endpoint: { method: 'GET', path: '/v1/league_forecast' } },
  { name: 'match_forecast', description: 'One fixture as the season simulation sees it: home win, draw and away win probabilities, expected goals and likely scores.', endpoint: { method: 'GET', path: '/v1/match_forecast' } },
];

export interface Tool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema & { type: 'object' };
}

interface OpenApiParameter {
  in: string;
  name: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}
interface OpenApiOperation {
  summary?: string;
  description?: string;
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}
export interface OpenApiDocument {
  paths?: Record<string, Record<string, OpenApiOperation | undefined> | undefined>;
}

function operationOf(doc: OpenApiDocument, e: Endpoint): OpenApiOperation {
  const op = doc.paths?.[e.path]?.[e.method.toLowerCase()];
  if (!op) throw new Error(`the OpenAPI document has no ${e.method} ${e.path}`);
  return op;
}

/** A GET's query parameters, or a POST's JSON body, as one object schema. */
function inputSchemaOf(op: OpenApiOperation, e: Endpoint): Tool['inputSchema'] {
  if (e.method === 'POST') {
    const schema = op.requestBody?.content?.['application/json']?.schema ?? {};
    return { ...schema, type: 'object' };
  }
  const query = (op.parameters ?? []).filter((p) => p.in === 'query');
  const properties = Object.fromEntries(query.map((p) => [p.name, { ...(p.schema ?? {}), ...(p.description ? { description: p.description } : {}) }]));
  const required = query.filter((p) => p.required).map((p) => p.name);
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

/** The tools, their input schemas read from the API's OpenAPI document. */
export function toolsFrom(doc: OpenApiDocument): Tool[] {
  return TOOL_SPECS.map((spec) => {
    const op = operationOf(doc, spec.endpoint);
    const summary = [op.summary, op.description].filter(Boolean).join('. ');
    return { name: spec.name, description: summary ? `${spec.description} (${spec.endpoint.method} ${spec.endpoint.path}: ${summary})` : spec.description, inputSchema: inputSchemaOf(op, spec.endpoint) };
  });
}

/** One API request, as the tool makes it. */
export interface ApiRequest {
  readonly method: 'GET' | 'POST';
  /** Path and query string */
  readonly url: string;
  readonly body?: unknown;
}

export interface ApiAnswer {
  readonly status: number;
  readonly body: unknown;
}

export type ApiCall = (req: ApiRequest) => Promise<ApiAnswer>;

/** What an in-process request of the app needs (Fastify's inject, without the network). */
export interface Injector {
  inject(opts: { method: 'GET' | 'POST'; url: string; headers: Record<string, string>; payload?: string }): Promise<{ statusCode: number; body: string }>;
}

/** Tool calls as requests of the app itself, with the caller's credentials in `headers`. */
export function callThrough(app: Injector, headers: Readonly<Record<string, string>>): ApiCall {
  return async ({ method, url, body }) => {
    const json = body !== undefined;
    const res = await app.inject({ method, url, headers: json ? { ...headers, 'content-type': 'application/json' } : { ...headers }, payload: json ? JSON.stringify(body) : undefined });
    return { status: res.statusCode, body: res.body ? (JSON.parse(res.body) as unknown) : null };
  };
}

function requestOf(e: Endpoint, args: Record<string, unknown>): ApiRequest {
  if (e.method === 'POST') return { method: 'POST', url: e.path, body: args };
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(args)) {
    if (v === undefined || v === null) continue;
    query.set(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  const qs = query.toString();
  return { method: 'GET', url: qs ? `${e.path}?${qs}` : e.path };
}

/** Why a tool call failed: the API's status and its error message. */
export class ToolCallError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

const errorText = (a: ApiAnswer) => (a.body && typeof a.body === 'object' && 'error' in a.body ? String((a.body as { error: unknown }).error) : `answered ${a.status}`);

/** Runs a tool: its endpoint(s) through `call`, which carries the caller's key. Throws ToolCallError on an API error. */
export async function runTool(name: string, args: Record<string, unknown>, call: ApiCall): Promise<unknown> {
  const spec = TOOL_SPECS.find((t) => t.name === name);
  if (!spec) throw new ToolCallError(404, `Unknown tool: ${name}`);
  const parts = spec.combined ?? [{ key: null, endpoint: spec.endpoint, input: (a: Record<string, unknown>) => a }];
  const out: Record<string, unknown> = {};
  // one after another: each counts against the caller's limit, and the first error is the answer
  for (const part of parts) {
    const answer = await call(requestOf(part.endpoint, part.input(args)));
    if (answer.status >= 400) throw new ToolCallError(answer.status, errorText(answer));
    if (part.key === null) return answer.body;
    out[part.key] = answer.body;
  }
  return out;
}
