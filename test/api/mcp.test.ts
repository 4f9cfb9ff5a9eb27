import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createAccount } from '../../src/access/accounts.js';
import { createKey } from '../../src/access/keys.js';
import { createPlan } from '../../src/access/plans.js';
import { BOOTSTRAP_EMAIL } from '../../src/access/bootstrap.js';
import { demoDataDir, startTestApp, TEST_KEY, type TestApp } from '../helpers/app.js';
import { MODELS_DIR } from '../helpers/code-key.js';
import { cleanEnv, cliCommand, REPO_ROOT, runCli, waitFor } from '../helpers/server-process.js';

// `touchline mcp` (EXTENSIONS): the MCP server driven by the official SDK's own client, over HTTP
// (POST /mcp on the real app, with the caller's key) and over stdio (the CLI as an assistant starts it).

const TOOLS = ['league_forecast', 'match_forecast', 'player_valuation', 'recommend_signings', 'roi_analysis', 'search', 'similar_players', 'squad_analysis'];

let t: TestApp;
let base: string;
let limitedKey: string;
const clients: Client[] = [];
let dataDir = '';

before(async () => {
  t = await startTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  // a key allowed 3 requests a window, on one league
  const s = t.runtime.world.current();
  const [league] = [...s.clubsOfLeague.keys()].sort();
  await createPlan(t.handle.db, { name: 'mcp-three', competitions: [league!], rateLimit: 3 });
  await createAccount(t.handle.db, { email: 'assistant@club.example', plan: 'mcp-three' });
  limitedKey = (await createKey(t.handle.db, { email: 'assistant@club.example' })).api_key;
  await (t.runtime.deps.authenticator as unknown as { tick(): Promise<void> }).tick();
});
after(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await t.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function httpClient(key: string): Promise<Client> {
  const client = new Client({ name: 'touchline-test', version: '1.0.0' });
  clients.push(client);
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { 'x-api-key': key } } }));
  return client;
}

const structured = (r: Awaited<ReturnType<Client['callTool']>>) => r.structuredContent as Record<string, unknown>;

test('over HTTP: the eight tools with the endpoints\' input schemas, and calls that answer what the endpoints answer', async () => {
  const client = await httpClient(TEST_KEY);
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((x) => x.name).sort(), TOOLS);
  const similar = tools.find((x) => x.name === 'similar_players')!;
  assert.deepEqual(similar.inputSchema.required, ['player_id']);
  const roi = tools.find((x) => x.name === 'roi_analysis')!;
  assert.ok(['player_id', 'club_id', 'annual_wage'].every((f) => f in (roi.inputSchema.properties ?? {})), JSON.stringify(roi.inputSchema));

  const found = structured(await client.callTool({ name: 'search', arguments: { q: 'cooper', type: 'player', limit: 3 } }));
  const direct = JSON.parse((await t.get('/v1/search?q=cooper&type=player&limit=3')).body);
  assert.deepEqual(found, direct, 'search answers what GET /v1/search answers');
  const player = (found.results as Array<{ service_id: string }>)[0]!.service_id;
  const club = [...t.runtime.world.current().clubs.keys()].sort()[0]!;

  const value = structured(await client.callTool({ name: 'player_valuation', arguments: { player_id: player, club_id: club } }));
  assert.ok((value.expected_transfer_value as { expected_transfer_value: number }).expected_transfer_value >= 0);
  assert.ok(Array.isArray((value.future_value as { drivers?: unknown[] }).drivers), 'the future value\'s drivers');

  const clubs = [...t.runtime.world.current().clubsOfLeague.values()][0]!;
  const [home, away] = [...clubs].sort();
  const match = structured(await client.callTool({ name: 'match_forecast', arguments: { home_club_id: home, away_club_id: away } }));
  const sum = (match.home_win as number) + (match.draw as number) + (match.away_win as number);
  assert.ok(Math.abs(sum - 1) <= 0.001, `probabilities sum to ${sum}`);

  const bad = await client.callTool({ name: 'similar_players', arguments: { player_id: 'nobody' } });
  assert.equal(bad.isError, true);
  assert.match(JSON.stringify(bad.content), /400: Invalid player_id/);
});

test('over HTTP the caller\'s plan holds: coverage refuses a player outside it, and the rate limit counts each tool call', async () => {
  assert.equal((await fetch(`${base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' })).status, 401, 'no key, no MCP');
  const post = (headers: Record<string, string>, body: string) => fetch(`${base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': TEST_KEY, ...headers }, body });
  const noAccept = await post({}, '{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}');
  assert.deepEqual([noAccept.status, await noAccept.json()], [406, { error: 'Accept must include application/json and text/event-stream' }]);
  const notRpc = await post({ accept: 'application/json, text/event-stream' }, '{"method": "tools/list"}');
  assert.deepEqual([notRpc.status, await notRpc.json()], [400, { error: 'Body must be a JSON-RPC 2.0 message' }]);
  const client = await httpClient(limitedKey);
  await client.listTools();
  const s = t.runtime.world.current();
  const [league] = [...s.clubsOfLeague.keys()].sort();
  const outsideClub = [...s.clubs.keys()].find((c) => ![...(s.clubsOfLeague.get(league!) ?? [])].includes(c))!;
  const refused = await client.callTool({ name: 'squad_analysis', arguments: { club_id: outsideClub } });
  assert.equal(refused.isError, true);
  assert.match(JSON.stringify(refused.content), /403/);
  const calls = [];
  for (let i = 0; i < 3; i++) calls.push(await client.callTool({ name: 'search', arguments: { q: 'smith' } }));
  // the squad_analysis call above was the first of the three the plan allows
  assert.deepEqual(calls.map((c) => c.isError ?? false), [false, false, true]);
  assert.match(JSON.stringify(calls[2]!.content), /429: Rate limit exceeded/);
});

test('over stdio: `touchline mcp --email` acts for that account, and revokes its session key when the assistant closes', { timeout: 180_000 }, async () => {
  dataDir = await demoDataDir('touchline-mcp-');
  const env = cleanEnv({ TOUCHLINE_DATA_DIR: dataDir, TOUCHLINE_MODELS_DIR: MODELS_DIR, TOUCHLINE_BOOTSTRAP_KEY: TEST_KEY, ENGINE_WORKERS: '1', LOG_LEVEL: 'warn' });
  const transport = new StdioClientTransport({ command: process.execPath, args: cliCommand(['mcp', '--email', BOOTSTRAP_EMAIL]), cwd: REPO_ROOT, env: env as Record<string, string>, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const client = new Client({ name: 'touchline-test', version: '1.0.0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((x) => x.name).sort(), TOOLS, stderr);
  const s = t.runtime.world.current();
  const [league] = [...s.clubsOfLeague.keys()].sort();
  const table = structured(await client.callTool({ name: 'league_forecast', arguments: { competition_id: league } }));
  assert.ok(Array.isArray(table.table ?? table.standings ?? table.clubs), JSON.stringify(table).slice(0, 300));
  await client.close();
  // the process has let the data folder go once a command can open it: its session key is revoked by then
  const keys = await waitFor('the data folder released', async () => {
    try {
      return (await runCli(['keys', 'list', '--email', BOOTSTRAP_EMAIL, '--json'], { TOUCHLINE_DATA_DIR: dataDir })).json<Array<{ label: string | null; state: string }>>();
    } catch {
      return undefined;
    }
  }, { timeoutMs: 30_000, intervalMs: 500 });
  const sessions = keys.filter((k) => k.label === 'mcp stdio session');
  assert.equal(sessions.length, 1, JSON.stringify(keys));
  assert.equal(sessions[0]!.state, 'revoked');
  assert.doesNotMatch(stderr, /error/i, stderr);
});
