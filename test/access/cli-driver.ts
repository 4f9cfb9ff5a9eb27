// Runs only the access commands, exactly as src/cli/main.ts wires them, so the CLI test does not depend
// on the other command modules. Usage: node --import tsx test/access/cli-driver.ts <args>
import { Command, CommanderError } from 'commander';
import { CliError } from '../../src/cli/context.js';
import { registerAccessCommands } from '../../src/cli/access-commands.js';

const program = new Command().name('touchline').exitOverride();
registerAccessCommands(program);
try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) process.exit(err.exitCode);
  if (err instanceof CliError) {
    process.stderr.write(`touchline: ${err.message}\n`);
    process.exit(1);
  }
  throw err;
}
