import type { Command } from 'commander';
import { CliError, output, runOperation } from './context.js';
import { leagueOps, MembershipError, type MembershipInfo } from '../admin/leagues.js';

/** Membership errors (unknown club, bad season, ...) become CLI errors: the message, exit 1. */
async function run<R>(op: [string, Record<string, unknown>]): Promise<R> {
  try {
    return (await runOperation(op)) as R;
  } catch (err) {
    if (err instanceof MembershipError) throw new CliError(err.message);
    throw err;
  }
}

const list = (value: string) => value.split(',').map((s) => s.trim());

function describe(m: MembershipInfo): string {
  const source = { set: 'set by the operator', data: 'from the data', default: 'the current season\'s clubs (none set)' }[m.source];
  return [`${m.competition} ${m.season}: ${m.clubs.length} clubs, ${source}`, ...m.clubs.map((c) => `  ${c.club_id}  ${c.registry_a_id ?? '-'}  ${c.name}`)].join('\n');
}

export function registerLeaguesCommands(program: Command): void {
  const leagues = program.command('leagues').description('which clubs make up each domestic league in a season (every simulation of the analysis season uses them)');

  leagues
    .command('set-clubs')
    .description('name the clubs of a domestic league in a season (promoted clubs included); an unknown club fails the whole command and nothing changes')
    .argument('<competition>', 'competition id, e.g. PREMIER_LEAGUE')
    .requiredOption('--season <YYYY/YYYY>', 'the season, e.g. 2024/2025')
    .option('--clubs <ids>', 'club service ids, comma-separated')
    .option('--registry-a-ids <ids>', 'club registry_a_ids (Transfermarkt ids), comma-separated')
    .option('--json', 'print JSON')
    .action(async (competition: string, opts: { season: string; clubs?: string; registryAIds?: string; json?: boolean }) => {
      if ((opts.clubs === undefined) === (opts.registryAIds === undefined)) {
        throw new CliError('Name the clubs with exactly one of --clubs C...,C... or --registry-a-ids N,N');
      }
      const result = await run<MembershipInfo & { moved_from: string[] }>(leagueOps.setClubs({
        competition,
        season: opts.season,
        ...(opts.clubs !== undefined ? { clubs: list(opts.clubs) } : { registryAIds: list(opts.registryAIds!) }),
      }));
      const moved = result.moved_from.length ? `\n(moved from ${result.moved_from.join(', ')} for that season)` : '';
      output(Boolean(opts.json), result, `${describe(result)}${moved}`);
    });

  leagues
    .command('show')
    .description('print the clubs of a domestic league in a season: as set, else as in the data; default season: the analysis season')
    .argument('<competition>', 'competition id, e.g. PREMIER_LEAGUE')
    .option('--season <YYYY/YYYY>', 'the season; default the analysis season (the one after TOUCHLINE_AS_OF)')
    .option('--json', 'print JSON')
    .action(async (competition: string, opts: { season?: string; json?: boolean }) => {
      const result = await run<MembershipInfo>(leagueOps.show({ competition, ...(opts.season !== undefined ? { season: opts.season } : {}) }));
      output(Boolean(opts.json), result, describe(result));
    });
}
