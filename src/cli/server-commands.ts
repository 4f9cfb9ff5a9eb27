import type { Command } from 'commander';
import { ops } from '../admin/catalog.js';
import { CliError, output, runOperation } from './context.js';

export function registerServerCommands(program: Command): void {
  program
    .command('serve')
    .description('serve the API (same as npm start); generates the demo world on an empty database')
    .option('--port <n>', 'port to listen on (default: PORT, else 8080)')
    .option('--host <address>', 'interface to listen on (default: HOST, else 0.0.0.0)')
    .action(async (o: { port?: string; host?: string }) => {
      let port: number | undefined;
      if (o.port !== undefined) {
        port = Number(o.port);
        if (!/^\d+$/.test(o.port) || port > 65535) throw new CliError(`--port must be a whole number from 0 to 65535, got ${o.port}`);
      }
      if (o.host !== undefined && o.host.trim() === '') throw new CliError('--host must not be empty');
      // loaded here, not with the CLI: every other command would pay for the whole server
      const { serveForever } = await import('../main.js');
      await serveForever({ port, host: o.host?.trim() });
    });

  program
    .command('train')
    .description('fit the rating, fee and future-value models on the data before TOUCHLINE_AS_OF and store them')
    .option('--json', 'print the summary as JSON')
    .action(async (opts: { json?: boolean }) => {
      const quiet = Boolean(opts.json);
      const r = (await runOperation(ops.train({}), (line) => quiet || process.stderr.write(`${line}\n`))) as { version: string; ratings: number; ms: number; file: string };
      output(quiet, r, `trained models ${r.version} in ${(r.ms / 1000).toFixed(1)} s: ${r.ratings} ratings stored, artifact ${r.file}`);
    });

  program
    .command('demo')
    .description('replace the world with the generated demo world')
    .option('--seed <n>', 'seed of the generator', '42')
    .option('--json', 'print the summary as JSON')
    .action(async (opts: { seed: string; json?: boolean }) => {
      const seed = Number(opts.seed);
      if (!Number.isInteger(seed) || seed <= 0) throw new CliError(`--seed must be a positive whole number, got ${opts.seed}`);
      const quiet = Boolean(opts.json);
      const result = (await runOperation(ops.demo({ seed }), (line) => quiet || process.stderr.write(`${line}\n`))) as {
        rows: Record<string, number>;
        ms: number;
      };
      output(quiet, result, `demo world (seed ${seed}) loaded: ${result.rows.players} players, ${result.rows.clubs} clubs, ${result.rows.matches} matches in ${result.ms} ms`);
    });
}
