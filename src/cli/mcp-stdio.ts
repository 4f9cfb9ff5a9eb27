import pino from 'pino';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { getAccount } from '../access/accounts.js';
import { ensureBootstrapKey } from '../access/bootstrap.js';
import { createKeyForAccount, revokeKey } from '../access/keys.js';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { migrateToLatest } from '../data/db.js';
import { acquireLock, LockedError } from '../data/embedded-lock.js';
import { REDACT_PATHS } from '../logger.js';
import { createMcpServer } from '../mcp/server.js';
import { callThrough, toolsFrom, type OpenApiDocument } from '../mcp/tools.js';
import { createRuntime, loadServedWorld } from '../runtime.js';
import { CliError, openFromConfig } from './context.js';

/** The key a stdio session acts with: the account's own, made at the start and revoked at the end. */
const SESSION_KEY_LABEL = 'mcp stdio session';

/**
 * `touchline mcp --email E`: the Model Context Protocol on stdin/stdout for a desktop assistant,
 * acting for the account E (its plan, coverage and rate limit). The app runs in this process, without
 * a listener; every tool call is an API request with a key of E's made for the session. stdout is
 * the protocol's, so the log goes to stderr.
 */
export async function serveMcpStdio(email: string): Promise<void> {
  const config = loadConfig();
  const logger = pino({ level: config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL, redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, pino.destination(2));
  let release: () => void = () => {};
  if (!config.DATABASE_URL) {
    try {
      release = acquireLock(config.TOUCHLINE_DATA_DIR, null);
    } catch (err) {
      if (err instanceof LockedError) throw new CliError(`${err.message}: connect the assistant to that server's POST /mcp with an API key instead (docs/calling-the-api.md), or give this command DATABASE_URL`);
      throw err;
    }
  }
  const handle = await openFromConfig(config);
  let keyId: string | null = null;
  const cleanups: Array<() => Promise<unknown>> = [];
  const close = async () => {
    if (keyId) await revokeKey(handle.db, { keyId }).catch(() => {});
    for (const c of cleanups.reverse()) await c().catch(() => {});
    await handle.close();
    release();
  };
  try {
    await migrateToLatest(handle.db);
    if (config.TOUCHLINE_BOOTSTRAP_KEY) await ensureBootstrapKey(handle.db, config.TOUCHLINE_BOOTSTRAP_KEY);
    const account = await getAccount(handle.db, email);
    if (account.status !== 'active') throw new CliError(`account ${account.email} is ${account.status}: set it active first (touchline accounts set-status --email ${account.email} --status active)`);
    const world = await loadServedWorld(config, handle, logger, { train: false });
    if (world.current().players.size === 0) throw new CliError('the database holds no data yet: start the server once (npm start) or load data (touchline demo, touchline import)');
    const runtime = await createRuntime(config, handle, logger, { world, webhooks: false });
    cleanups.push(() => runtime.close());
    const app = await buildApp(runtime.deps, { logger });
    cleanups.push(() => app.close());
    await app.ready();
    const key = await createKeyForAccount(handle.db, account.id, { label: SESSION_KEY_LABEL });
    keyId = key.key_id;
    const server = createMcpServer(toolsFrom(app.swagger() as OpenApiDocument), callThrough(app, { 'x-api-key': key.api_key }));
    const transport = new StdioServerTransport();
    const ended = new Promise<void>((resolve) => {
      transport.onclose = () => resolve();
      process.stdin.once('end', () => resolve());
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    });
    await server.connect(transport);
    logger.warn({ account: account.email }, 'MCP server on stdio: ready');
    await ended;
    await server.close();
  } finally {
    await close();
  }
}
