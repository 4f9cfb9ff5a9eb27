import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config.js';
import { CliError } from './context.js';
import { StartupError } from '../startup-error.js';
import { LockedError } from '../data/embedded-lock.js';
import { AccessError } from '../access/messages.js';
import { OperationError } from '../admin/channel.js';
import { UpdateError } from '../data/update/source.js';
import { VERSION } from '../repo.js';
// --- command modules: one import and one register call each ---
import { registerRatesCommands } from './rates-command.js';
import { registerServerCommands } from './server-commands.js';
import { registerAccessCommands } from './access-commands.js';
import { registerOrgsCommands } from './orgs-commands.js';
import { registerImportCommands } from './import-command.js';
import { registerLeaguesCommands } from './leagues-command.js';
import { registerDataCommands } from './data-command.js';
import { registerMcpCommands } from './mcp-command.js';
// --- end of command modules ---

// Everything this process writes (the embedded database, models, lock, admin socket) is the owner's alone.
process.umask(0o077);

const program = new Command()
  .name('touchline')
  .description('Touchline operator command line: serve the API, load data, train models, manage access.')
  .version(VERSION, '-V, --version', 'print the version')
  .showHelpAfterError()
  .exitOverride();

// --- register commands ---
registerRatesCommands(program);
registerServerCommands(program);
registerAccessCommands(program);
registerOrgsCommands(program);
registerImportCommands(program);
registerLeaguesCommands(program);
registerDataCommands(program);
registerMcpCommands(program);
// --- end of register commands ---

/** Errors a user can cause and fix: printed as their message alone, on one line. */
const EXPECTED = [CliError, ConfigError, StartupError, LockedError, AccessError, OperationError, UpdateError];
/** System errors with a message that says enough (a missing file, a refused connection, ...). */
const SYSTEM_CODES = new Set(['ENOENT', 'EACCES', 'EPERM', 'EISDIR', 'ENOTDIR', 'EEXIST', 'ENOSPC', 'EADDRINUSE', 'ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'EHOSTUNREACH']);

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, '; ').trim();
}

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) process.exit(err.exitCode);
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (EXPECTED.some((E) => err instanceof E)) {
    process.stderr.write(`touchline: ${oneLine((err as Error).message)}\n`);
  } else if (typeof code === 'string' && SYSTEM_CODES.has(code)) {
    const e = err as NodeJS.ErrnoException & { address?: string; port?: number };
    // A refused connection to several addresses comes as an AggregateError without a message.
    const where = e.address ? ` ${e.address}${e.port ? `:${e.port}` : ''}` : '';
    process.stderr.write(`touchline: ${oneLine(e.message || `${code}${where}`)}\n`);
  } else {
    // A bug, not a user error: the stack helps whoever fixes it, so it is there on request.
    const debug = ['debug', 'trace'].includes(process.env.LOG_LEVEL ?? '');
    const detail = err instanceof Error ? (debug ? (err.stack ?? err.message) : oneLine(err.message)) : String(err);
    process.stderr.write(`touchline: unexpected error: ${detail}${debug ? '' : ' (LOG_LEVEL=debug shows the stack trace)'}\n`);
  }
  process.exit(1);
}
