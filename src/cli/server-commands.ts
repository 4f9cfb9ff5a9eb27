import type { Command } from 'commander';
import { generateDemoWorld } from '../data/demo/index.js';
import { replaceWorld } from '../data/world-store.js';
import { WORLD_TABLE_ORDER } from '../data/schema.js';
import { serveForever } from '../main.js';
import { CliError, output, withDatabase } from './context.js';

export function registerServerCommands(program: Command): void {
  program
    .command('serve')
    .description('serve the API (same as npm start); generates the demo world on an empty database')
    .action(async () => {
      await serveForever();
    });

  program
    .command('demo')
    .description('replace the world with the generated demo world')
    .option('--seed <n>', 'seed of the generator', '42')
    .option('--json', 'print the summary as JSON')
    .action(async (opts: { seed: string; json?: boolean }) => {
      const seed = Number(opts.seed);
      if (!Number.isInteger(seed) || seed <= 0) throw new CliError(`--seed must be a positive whole number, got ${opts.seed}`);
      await withDatabase(async (handle, config) => {
        const started = Date.now();
        const world = generateDemoWorld({ seed, asOf: config.TOUCHLINE_AS_OF });
        const version = await replaceWorld(handle.db, world, { source: 'demo', seed: String(seed), as_of: config.TOUCHLINE_AS_OF });
        const rows = Object.fromEntries(WORLD_TABLE_ORDER.map((t) => [t, world[t].length]));
        output(
          Boolean(opts.json),
          { seed, as_of: config.TOUCHLINE_AS_OF, data_version: version, rows, ms: Date.now() - started },
          `demo world (seed ${seed}) loaded: ${world.players.length} players, ${world.clubs.length} clubs, ${world.matches.length} matches in ${Date.now() - started} ms`,
        );
      });
    });
}
