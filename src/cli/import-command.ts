import { resolve } from 'node:path';
import type { Command } from 'commander';
import { CliError, output, runOperation } from './context.js';
import { ops } from '../admin/catalog.js';
import type { ImportSummary } from '../data/import/transfermarkt.js';

interface TransfermarktFlags {
  eaRatings?: string;
  eaMapping?: string;
  rejects: string;
  strict?: boolean;
  json?: boolean;
}

function humanSummary(s: ImportSummary): string {
  if (s.status === 'unchanged') return 'unchanged: these files were already imported; nothing done';
  const lines = [
    `${s.status === 'imported' ? 'imported' : 'NOT imported (--strict)'} in ${(s.duration_ms / 1000).toFixed(1)} s`,
    ...Object.entries(s.tables).map(([t, v]) =>
      v.skipped ? `  ${t}: skipped (${v.skipped})` : `  ${t}: ${v.read} read, ${v.loaded} loaded, ${v.rejected} rejected`,
    ),
    `  world: ${Object.entries(s.world).map(([t, n]) => `${t} ${n}`).join(', ')}`,
  ];
  if (s.ea) lines.push(`  EA FC 24 match rate: ${(s.ea.match_rate * 100).toFixed(1)}% (${s.ea.fc24_matched} of ${s.ea.fc24_rows})`);
  if (s.rejected_total > 0) lines.push(`  ${s.rejected_total} rows rejected, listed in ${s.rejects_file}`);
  return lines.join('\n');
}

export function registerImportCommands(program: Command): void {
  const imp = program.command('import').description('Load a world from an external dataset (replaces the current one in one transaction)');
  imp
    .command('transfermarkt')
    .description('Load the open Transfermarkt dataset layout (csv or csv.gz files named <table>.csv[.gz])')
    .argument('<dir>', 'folder holding competitions, clubs, players, transfers, player_valuations, games, ... files')
    .option('--ea-ratings <file>', 'EA FC 24 ratings (male_players.csv.gz): sets registry_b_id and EA calibration ratings')
    .option('--ea-mapping <file>', 'Transfermarkt id -> EA FC 25 file (tm_to_eafc25.csv.gz)')
    .option('--rejects <file>', 'where rejected rows are written', 'import-rejects.csv')
    .option('--strict', 'fail without changing anything if any row is rejected')
    .option('--json', 'print the summary as JSON')
    .action(async (dir: string, flags: TransfermarktFlags) => {
      const options = {
        eaRatings: flags.eaRatings && resolve(flags.eaRatings),
        eaMapping: flags.eaMapping && resolve(flags.eaMapping),
        rejectsPath: resolve(flags.rejects),
        strict: flags.strict,
      };
      const summary = (await runOperation(ops.importTransfermarkt({ dir: resolve(dir), options }), (line) => process.stderr.write(`${line}\n`))) as ImportSummary;
      output(Boolean(flags.json), summary, humanSummary(summary));
      if (summary.status === 'strict_failed') {
        throw new CliError(`${summary.rejected_total} rows rejected and --strict given: nothing changed (rows in ${summary.rejects_file})`);
      }
    });
}
