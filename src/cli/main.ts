import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config.js';
import { CliError } from './context.js';
// --- command modules: one import and one register call each ---
import { registerRatesCommands } from './rates-command.js';
import { registerServerCommands } from './server-commands.js';
import { registerAccessCommands } from './access-commands.js';
import { registerImportCommands } from './import-command.js';
import { registerLeaguesCommands } from './leagues-command.js';
// --- end of command modules ---

const program = new Command()
  .name('touchline')
  .description('Touchline operator command line: serve the API, load data, train models, manage access.')
  .showHelpAfterError()
  .exitOverride();

// --- register commands ---
registerRatesCommands(program);
registerServerCommands(program);
registerAccessCommands(program);
registerImportCommands(program);
registerLeaguesCommands(program);
// --- end of register commands ---

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) process.exit(err.exitCode);
  if (err instanceof CliError || err instanceof ConfigError) {
    process.stderr.write(`touchline: ${err.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`touchline: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
}
