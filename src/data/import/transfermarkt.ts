import { resolve } from 'node:path';
import type { Db } from '../db.js';
import type { RoleRow, WorldData, WorldTables } from '../../domain/world.js';
import { readMeta, replaceWorld, setMeta, type WorldSet } from '../world-store.js';
import { ROLES } from '../../domain/roles.js';
import { seasonLabel, seasonOf } from '../../domain/season.js';
import { fileAt, findTableFile, hashInputs, type TableFile } from './csv-source.js';
import { silentReporter, type ImportReporter } from './reporter.js';
import { laterDate, TableReader } from './table-reader.js';
import type { TableSummary } from './tables.js';
import type { RejectReason } from './rejects.js';
import { readAppearances } from './tm-appearances.js';
import { buildCareers } from './tm-careers.js';
import { ClubBook, readClubs } from './tm-clubs.js';
import { readCompetitions } from './tm-competitions.js';
import { readEa, type EaSummary } from './tm-ea.js';
import { readGames } from './tm-games.js';
import { readPlayers } from './tm-players.js';
import { readTransfers } from './tm-transfers.js';
import { readValues } from './tm-values.js';

export type { TableSummary } from './tables.js';
export type { EaSummary } from './tm-ea.js';

/** A row the update cannot read: the import stops before it stores anything. */
export class RowParseError extends Error {}

/** Bump when the mapping changes, so the same files are imported again. */
export const IMPORTER_VERSION = 'transfermarkt-3';

/** Tables of the layout, in the order they are read (later ones refer to earlier ones). */
export const LAYOUT_TABLES = [
  'competitions', 'clubs', 'players', 'transfers', 'player_valuations', 'games', 'club_games', 'game_lineups', 'appearances',
] as const;
export type LayoutTable = (typeof LAYOUT_TABLES)[number];

export interface ImportOptions {
  /** EA FC 24 ratings file (male_players.csv[.gz]). */
  eaRatings?: string;
  /** Transfermarkt id -> EA FC 25 file (tm_to_eafc25.csv[.gz]). */
  eaMapping?: string;
  /** Where rejected rows are written; unset writes none. */
  rejectsPath?: string;
  /** Any rejected row fails the import and changes nothing. */
  strict?: boolean;
  /** A row rejected for one of these reasons fails the import (naming its table and line) and changes nothing. */
  failOn?: readonly RejectReason[];
  /** Read and check everything, store nothing (the summary's status is `checked`). */
  dryRun?: boolean;
  /** Receives the world read, before it is stored (an update compares it with the one served). */
  onWorld?: (world: WorldData) => void;
  /**
   * The as-of date (TOUCHLINE_AS_OF): its season is the current one, and a player whose last season
   * is earlier is in no current squad. Unset: the latest last_season of players.csv is current.
   */
  asOf?: string;
  /**
   * Where the world is stored: the live tables (an import), or the staging copy an update swaps in
   * afterwards (data/staging.ts). `unchanged` always compares with the live data.
   */
  into?: WorldSet;
}

export interface ImportSummary {
  /** `unchanged`: same files and options as the last import, nothing done; `strict_failed`: rows rejected under --strict, nothing changed. */
  status: 'imported' | 'unchanged' | 'strict_failed' | 'checked';
  source: 'transfermarkt';
  source_hash: string;
  tables: Record<string, TableSummary>;
  world: Partial<Record<keyof WorldTables, number>>;
  ea: EaSummary | null;
  /** Players each career rule of docs/import.md changed (see CareerRule), plus `no_career_without_evidence`. */
  careers: Record<string, number>;
  /** The current season the careers were built for. */
  current_season: string | null;
  rejected_total: number;
  rejects_file: string | null;
  data_version: string | null;
  duration_ms: number;
}

/**
 * Imports a folder in the open Transfermarkt dataset layout (dcaribou/transfermarkt-datasets) and
 * replaces the whole world with it in one transaction. The rules are written down in docs/import.md.
 */
export async function importTransfermarkt(db: Db, dir: string, options: ImportOptions = {}, reporter: ImportReporter = silentReporter): Promise<ImportSummary> {
  const started = performance.now();
  try {
    return await run(db, dir, options, reporter, started);
  } finally {
    reporter.finish?.();
  }
}

/**
 * The EA files an import may be given, and where `meta` records each one: `touchline data update` reads
 * them again (the open dataset has none of its own).
 */
export const EA_INPUTS = [
  { option: 'eaRatings', metaKey: 'ea_ratings_file', label: 'EA ratings' },
  { option: 'eaMapping', metaKey: 'ea_mapping_file', label: 'EA mapping' },
] as const;

function eaFilesMeta(options: ImportOptions): Record<string, string> {
  return Object.fromEntries(EA_INPUTS.flatMap(({ option, metaKey }) => (options[option] ? [[metaKey, resolve(options[option])]] : [])));
}

/** The tables in LAYOUT_TABLES' order (each tm-*.ts reads one or two), then careers and EA ratings. */
async function run(db: Db, dir: string, options: ImportOptions, reporter: ImportReporter, started: number): Promise<ImportSummary> {
  const files = new Map<string, TableFile>();
  for (const t of LAYOUT_TABLES) {
    const f = findTableFile(dir, t);
    if (f) files.set(t, f);
  }
  if (!files.has('players')) throw new Error(`No players.csv or players.csv.gz in ${dir}: not a Transfermarkt dataset folder`);
  const eaFiles: TableFile[] = [];
  if (options.eaRatings) eaFiles.push(fileAt('ea_ratings', options.eaRatings));
  if (options.eaMapping) eaFiles.push(fileAt('ea_mapping', options.eaMapping));

  // The as-of date decides who is in a current squad: another one is another import.
  const sourceHash = await hashInputs([...files.values(), ...eaFiles], [IMPORTER_VERSION, `as_of=${options.asOf ?? ''}`]);
  const meta = await readMeta(db);
  if (meta.source === 'transfermarkt' && meta.source_hash === sourceHash) {
    // The same EA files, perhaps found at another path now: where they are is what an update reads again.
    const ea = eaFilesMeta(options);
    if (options.into !== 'staging' && Object.entries(ea).some(([k, v]) => meta[k] !== v)) await setMeta(db, ea);
    reporter.info('unchanged: the same files were imported last time; nothing to do');
    return {
      status: 'unchanged', source: 'transfermarkt', source_hash: sourceHash, tables: {}, world: {}, ea: null, careers: {}, current_season: null, rejected_total: 0,
      rejects_file: null, data_version: meta.data_version ?? null, duration_ms: Math.round(performance.now() - started),
    };
  }

  const rd = new TableReader(dir, files, reporter);
  const competitions = await readCompetitions(rd);
  const book = new ClubBook();
  const clubsCsv = await readClubs(rd, book, competitions.countryOfLeague);
  const players = await readPlayers(rd, competitions.codes, competitions.countryOfLeague);
  const transfers = await readTransfers(rd, book, players.byTm);
  const values = await readValues(rd, book, players.byTm);
  const games = await readGames(rd, book, competitions.byCode);
  const appearances = await readAppearances(rd, book, players.byTm, games.byId, competitions.byCode, clubsCsv, players.countries);

  let dataEnd = [transfers.dataEnd, values.dataEnd, games.dataEnd].reduce(laterDate);
  if (dataEnd === '0000-01-01') dataEnd = `${new Date().getUTCFullYear()}-06-30`;
  const { maxLastSeason } = players;
  const currentSeason = options.asOf ? seasonOf(options.asOf) : Number.isFinite(maxLastSeason) ? maxLastSeason : seasonOf(dataEnd);
  if (Number.isFinite(maxLastSeason) && currentSeason > maxLastSeason) {
    reporter.info(
      `careers: players.csv reaches season ${seasonLabel(maxLastSeason)}, before the current season ${seasonLabel(currentSeason)} of the as-of date: nobody is in a current squad`,
    );
  }
  const careers = buildCareers(rd, book, {
    players: players.byTm, transfers: transfers.transfers, values, playedBy: appearances.playedBy, nationalTeamOf: appearances.nationalTeamOf, currentSeason, dataEnd,
  });
  const { ratings, attributes, ea } = await readEa(rd, options, book, players.byTm, careers.clubsDuring2023);

  const roles: RoleRow[] = ROLES.map((r) => ({ id: r.role, name: r.name, description: r.description, positions: [...r.positions] }));
  const world: WorldData = {
    roles,
    competitions: [...competitions.byCode.values()],
    clubs: [...book.clubs.values()],
    club_seasons: games.clubSeasons,
    players: [...players.byTm.values()].map((p) => p.row),
    contracts: careers.contracts,
    career_steps: careers.careerSteps,
    appearances: appearances.rows,
    market_values: values.marketValues,
    transfers: transfers.transfers.map((t) => t.row),
    ratings,
    player_attributes: attributes,
    matches: games.matches,
  };
  const worldCounts = Object.fromEntries(Object.entries(world).map(([k, v]) => [k, v.length])) as Record<keyof WorldTables, number>;
  const rejectedTotal = rd.rejects.count();
  if (options.rejectsPath) await rd.rejects.write(options.rejectsPath);
  reporter.info(`careers (${seasonLabel(currentSeason)} current): ${Object.entries(careers.careerRules).map(([r, n]) => `${r} ${n}`).join(', ') || 'no rule applied'}`);
  const summary: ImportSummary = {
    status: 'imported', source: 'transfermarkt', source_hash: sourceHash, tables: rd.tables, world: worldCounts, ea, careers: careers.careerRules,
    current_season: seasonLabel(currentSeason), rejected_total: rejectedTotal,
    rejects_file: options.rejectsPath ?? null, data_version: null, duration_ms: 0,
  };
  const fatal = options.failOn && rd.rejects.rows.find((r) => options.failOn!.includes(r.reason));
  if (fatal) throw new RowParseError(`${fatal.table} line ${fatal.line} does not parse: ${fatal.reason} (${fatal.detail})`);
  if (options.strict && rejectedTotal > 0) {
    reporter.info(`strict: ${rejectedTotal} rows rejected; nothing changed`);
    summary.status = 'strict_failed';
    summary.duration_ms = Math.round(performance.now() - started);
    return summary;
  }
  options.onWorld?.(world);
  if (options.dryRun) {
    summary.status = 'checked';
    summary.duration_ms = Math.round(performance.now() - started);
    return summary;
  }
  reporter.info(options.into === 'staging' ? 'storing the new world in the staging copy' : 'storing the new world in one transaction');
  summary.data_version = await replaceWorld(
    db,
    world,
    {
      source: 'transfermarkt', source_hash: sourceHash, source_dir: dir, importer: IMPORTER_VERSION, imported_at: new Date().toISOString(),
      // The data's own as-of date: its last valuation, transfer or game (served when TOUCHLINE_AS_OF is unset).
      data_as_of: dataEnd,
      ...(ea ? { ea_match_rate: String(ea.match_rate) } : {}),
      ...eaFilesMeta(options),
    },
    (table, rows) => reporter.stored(table, rows),
    options.into,
  );
  summary.duration_ms = Math.round(performance.now() - started);
  return summary;
}
