import { resolve } from 'node:path';
import cliProgress from 'cli-progress';
import type { Command } from 'commander';
import { loadConfig, DEFAULT_DATA_URL } from '../config.js';
import { ops } from '../admin/catalog.js';
import { resolveSource, type SourceProgress } from '../data/update/source.js';
import { reportText, type UpdateReport } from '../data/update/report.js';
import { acquireLock, LockedError } from '../data/embedded-lock.js';
import { CliError, output, runOperation } from './context.js';

/**
 * One update or rollback at a time per data folder: two would unpack into the same folder and drop
 * each other's staging copy. A killed one's lock is stale (its process is gone) and taken over.
 */
async function oneAtATime<T>(dataDir: string, work: () => Promise<T>): Promise<T> {
  let release: () => void;
  try {
    release = acquireLock(resolve(dataDir), null, 'update.lock');
  } catch (err) {
    if (err instanceof LockedError) throw new CliError(`${err.message}: wait for it to end, the served data is unchanged`);
    throw err;
  }
  try {
    return await work();
  } finally {
    release();
  }
}

/** A bar per phase on a terminal (cli-progress), a line per 10% otherwise; all on stderr. */
function sourceProgress(): SourceProgress & { stop(): void } {
  const tty = Boolean(process.stderr.isTTY);
  let bar: cliProgress.SingleBar | null = null;
  let phase = '';
  let lastTenth = -1;
  const stop = () => {
    bar?.stop();
    bar = null;
  };
  return {
    info: (line) => {
      stop();
      process.stderr.write(`${line}\n`);
    },
    bytes: (p, done, total) => {
      if (p !== phase) {
        stop();
        phase = p;
        lastTenth = -1;
        if (tty) {
          bar = new cliProgress.SingleBar({ stream: process.stderr, format: `${p.padEnd(8)} [{bar}] {percentage}% {value}/{total} MB`, hideCursor: true }, cliProgress.Presets.shades_classic);
          bar.start(total ? Math.ceil(total / 1e6) : 0, 0);
        }
      }
      if (bar) {
        if (total) bar.setTotal(Math.ceil(total / 1e6));
        bar.update(Math.round(done / 1e6));
      } else if (total) {
        const tenth = Math.floor((done / total) * 10);
        if (tenth > lastTenth) {
          lastTenth = tenth;
          process.stderr.write(`${p}: ${tenth * 10}% (${(done / 1e6).toFixed(1)} of ${(total / 1e6).toFixed(1)} MB)\n`);
        }
      }
    },
    stop,
  };
}

export function registerDataCommands(program: Command): void {
  const data = program.command('data').description('Keep the served data fresh: update from the open dataset, roll back');
  data
    .command('update')
    .description('Download (or read) the open Transfermarkt dataset, check it, import it into a staging copy, retrain on it and swap it in at once; a running server answers from it within seconds')
    .option('--from <url|file|dir>', `a URL of the dataset's zip, a local zip, or a folder of its tables (default TOUCHLINE_DATA_URL: ${DEFAULT_DATA_URL})`)
    .option('--dry-run', 'check and read everything, change nothing, print what would change')
    .option('--json', 'print the report as JSON')
    .action(async (flags: { from?: string; dryRun?: boolean; json?: boolean }) => {
      const config = loadConfig();
      const from = flags.from ?? config.TOUCHLINE_DATA_URL;
      const local = /^https?:\/\//i.test(from) ? from : resolve(from);
      const report = await oneAtATime(config.TOUCHLINE_DATA_DIR, async () => {
        const progress = sourceProgress();
        let dir: string;
        try {
          dir = await resolveSource(local, resolve(config.TOUCHLINE_DATA_DIR, 'update'), progress);
        } finally {
          progress.stop();
        }
        return (await runOperation(ops.dataUpdate({ dir, source: from, dryRun: flags.dryRun }), (line) => process.stderr.write(`${line}\n`))) as UpdateReport;
      });
      output(Boolean(flags.json), report, reportText(report));
    });
  data
    .command('rollback')
    .description('Swap back the data served before the last update (the current data becomes the one a rollback returns to)')
    .option('--json', 'print the report as JSON')
    .action(async (flags: { json?: boolean }) => {
      const report = await oneAtATime(loadConfig().TOUCHLINE_DATA_DIR, async () => (await runOperation(ops.dataRollback({}), (line) => process.stderr.write(`${line}\n`))) as UpdateReport);
      output(Boolean(flags.json), report, reportText(report));
    });
}
