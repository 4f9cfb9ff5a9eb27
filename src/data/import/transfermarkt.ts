import { createHash } from 'node:crypto';
import type { Db } from '../db.js';
import type {
  AppearanceRow, CareerStepRow, ClubRow, ClubSeasonRow, CompetitionRow, ContractRow, MarketValueRow, MatchRow, PlayerRow,
  RatingRow, RoleRow, TransferRow, WorldData, WorldTables,
} from '../../domain/world.js';
import { readMeta, replaceWorld } from '../world-store.js';
import { stableId } from '../../domain/ids.js';
import { ROLES } from '../../domain/roles.js';
import { seasonLabel, seasonOf } from '../../domain/season.js';
import { buildCareer, type CareerRule, type Move, type Played } from './careers.js';
import { fileAt, findTableFile, hashInputs, readCsv, type CsvItem, type TableFile } from './csv-source.js';
import { eaAttributes } from './ea-roles.js';
import { eaRoleBySofifaId, fc25Role, matchEa, type Ea24Row, type Ea25Row, type MatchMethod, type MatchPlayer } from './ea.js';
import {
  competitionIds, competitionKind, displayName, eaPosition, firstRoleFor, isPseudoClub, mapFoot, mapPosition, normaliseName,
  parseDate, parseFee, parseId, parseNumber, type TmCompetition,
} from './mapping.js';
import { RejectLog, type RejectReason } from './rejects.js';
import { silentReporter, type ImportReporter } from './reporter.js';

/** Bump when the mapping changes, so the same files are imported again. */
export const IMPORTER_VERSION = 'transfermarkt-2';

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
  /**
   * The as-of date (TOUCHLINE_AS_OF): its season is the current one, and a player whose last season
   * is earlier is in no current squad. Unset: the latest last_season of players.csv is current.
   */
  asOf?: string;
}

export interface TableSummary {
  file: string | null;
  read: number;
  loaded: number;
  rejected: number;
  reasons: Partial<Record<RejectReason, number>>;
  /** Rows kept but adjusted, or read but not turned into rows, by cause. */
  notes: Record<string, number>;
  skipped?: string;
}

export interface EaSummary {
  fc24_rows: number;
  fc24_matched: number;
  /** Matched share of the FC 24 rows, 0..1. */
  match_rate: number;
  by_method: Partial<Record<MatchMethod, number>>;
  fc25_rows: number;
  fc25_loaded: number;
}

export interface ImportSummary {
  /** `unchanged`: same files and options as the last import, nothing done; `strict_failed`: rows rejected under --strict, nothing changed. */
  status: 'imported' | 'unchanged' | 'strict_failed';
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

interface PlayerIn {
  tmId: number;
  row: PlayerRow;
  lastSeason: number | null;
  currentClubTm: number | null;
  contractEnd: string | null;
  agent: string | null;
}

interface GameIn {
  id: number;
  line: number;
  raw: string;
  competitionTm: string;
  season: number;
  date: string;
  home: number;
  away: number;
  homeGoals: number | null;
  awayGoals: number | null;
}

const NATIONAL_TEAM_COMPETITION = 'NATIONAL_TEAM';

const clubId = (tmId: number) => stableId('C', `tm:club:${tmId}`);
const playerId = (tmId: number) => stableId('P', `tm:player:${tmId}`);
const transferId = (key: string) => `T${createHash('sha256').update(`tm:transfer:${key}`).digest('hex').slice(0, 26).toUpperCase()}`;

/** Some upstream rows carry a league code (`GB1`) as agent name: that is no agency. */
function agentName(raw: string | undefined, competitionCodes: Set<string>, onCode: () => void): string | null {
  const v = (raw ?? '').trim();
  if (!v) return null;
  if (competitionCodes.has(v)) {
    onCode();
    return null;
  }
  return v;
}

function newSummary(file: string | null): TableSummary {
  return { file, read: 0, loaded: 0, rejected: 0, reasons: {}, notes: {} };
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
  const tables: Record<string, TableSummary> = {};
  const meta = await readMeta(db);
  if (meta.source === 'transfermarkt' && meta.source_hash === sourceHash) {
    reporter.info('unchanged: the same files were imported last time; nothing to do');
    return {
      status: 'unchanged', source: 'transfermarkt', source_hash: sourceHash, tables, world: {}, ea: null, careers: {}, current_season: null, rejected_total: 0,
      rejects_file: null, data_version: meta.data_version ?? null, duration_ms: Math.round(performance.now() - started),
    };
  }

  const rejects = new RejectLog();
  const reject = (table: string, item: CsvItem, reason: RejectReason, detail: string): false => {
    rejects.add(table, item.line, reason, detail, item.raw);
    return false;
  };

  /** Streams one table; `handle` returns true when the row was taken. */
  async function eachRow(table: string, file: TableFile | undefined, handle: (item: CsvItem, r: Record<string, string>) => boolean): Promise<TableSummary> {
    const s = newSummary(file?.path ?? null);
    tables[table] = s;
    if (!file) {
      s.skipped = 'file absent';
      reporter.tableSkipped(table, `no ${table}.csv or ${table}.csv.gz in ${dir}`);
      return s;
    }
    reporter.tableStart(table, file);
    for await (const item of readCsv(file, (b) => reporter.tableBytes(table, b))) {
      s.read++;
      if (item.error) {
        reject(table, item, item.error, item.error === 'column_count' ? 'wrong number of fields' : 'broken CSV quoting');
        continue;
      }
      if (handle(item, item.row)) s.loaded++;
    }
    return s;
  }
  const finishTable = (table: string) => {
    const s = tables[table];
    s.rejected = rejects.count(table);
    s.reasons = rejects.reasons(table);
    if (!s.skipped) reporter.tableDone(table, s);
  };
  const note = (table: string, what: string) => {
    const n = tables[table].notes;
    n[what] = (n[what] ?? 0) + 1;
  };

  // competitions
  const compRaw: (TmCompetition & { item: CsvItem })[] = [];
  const seenComp = new Set<string>();
  await eachRow('competitions', files.get('competitions'), (item, r) => {
    const code = (r.competition_id ?? '').trim();
    if (!code || !(r.name ?? '').trim()) return reject('competitions', item, 'missing_field', !code ? 'competition_id' : 'name');
    if (seenComp.has(code)) return reject('competitions', item, 'duplicate', `competition_id ${code}`);
    seenComp.add(code);
    compRaw.push({
      competition_id: code, name: r.name.trim(), type: r.type ?? '', sub_type: r.sub_type ?? '', country_name: (r.country_name ?? '').trim(),
      is_major_national_league: r.is_major_national_league ?? '', item,
    });
    return true;
  });
  finishTable('competitions');
  const compIds = competitionIds(compRaw);
  const competitions = new Map<string, CompetitionRow>();
  const countryOfLeague = new Map<string, string>();
  for (const c of compRaw) {
    const kind = competitionKind(c);
    competitions.set(c.competition_id, {
      id: compIds.get(c.competition_id) as string, name: displayName(c.name), country: c.country_name || null, type: kind.type, tier: kind.tier,
      registry_a_code: c.competition_id,
    });
    if (c.country_name) countryOfLeague.set(c.competition_id, c.country_name);
  }

  // clubs (clubs.csv first; transfers and games add the clubs it lacks, by the names they carry)
  const clubs = new Map<number, ClubRow>();
  const altNames = new Map<number, Map<string, number>>();
  const addName = (tm: number, name: string) => {
    const n = name.trim();
    if (!n) return;
    let m = altNames.get(tm);
    if (!m) altNames.set(tm, (m = new Map()));
    m.set(n, (m.get(n) ?? 0) + 1);
  };
  await eachRow('clubs', files.get('clubs'), (item, r) => {
    const tm = parseId(r.club_id);
    if (tm === null) return reject('clubs', item, r.club_id ? 'bad_number' : 'missing_field', `club_id ${JSON.stringify(r.club_id ?? '')}`);
    const name = (r.name ?? '').trim();
    if (!name) return reject('clubs', item, 'missing_field', 'name');
    if (clubs.has(tm)) return reject('clubs', item, 'duplicate', `club_id ${tm}`);
    clubs.set(tm, { id: clubId(tm), registry_a_id: tm, name, country: countryOfLeague.get((r.domestic_competition_id ?? '').trim()) ?? null, is_national_team: false });
    addName(tm, name);
    return true;
  });
  finishTable('clubs');
  const clubsCsv = new Set(clubs.keys());

  // players
  const players = new Map<number, PlayerIn>();
  let maxLastSeason = -Infinity;
  await eachRow('players', files.get('players'), (item, r) => {
    const tm = parseId(r.player_id);
    if (tm === null) return reject('players', item, r.player_id ? 'bad_number' : 'missing_field', `player_id ${JSON.stringify(r.player_id ?? '')}`);
    if (players.has(tm)) return reject('players', item, 'duplicate', `player_id ${tm}`);
    const first = (r.first_name ?? '').trim();
    const last = (r.last_name ?? '').trim() || (first ? '' : (r.name ?? '').trim());
    if (!last && !first) return reject('players', item, 'missing_field', 'name');
    const birth = parseDate(r.date_of_birth);
    if (!birth.ok) return reject('players', item, 'bad_date', `date_of_birth ${JSON.stringify(r.date_of_birth)}`);
    const contract = parseDate(r.contract_expiration_date);
    if (!contract.ok) return reject('players', item, 'bad_date', `contract_expiration_date ${JSON.stringify(r.contract_expiration_date)}`);
    const height = parseNumber(r.height_in_cm);
    if (!height.ok) return reject('players', item, 'bad_number', `height_in_cm ${JSON.stringify(r.height_in_cm)}`);
    const lastSeason = parseNumber(r.last_season);
    if (!lastSeason.ok) return reject('players', item, 'bad_number', `last_season ${JSON.stringify(r.last_season)}`);
    const current = (r.current_club_id ?? '').trim();
    const currentTm = current ? parseId(current) : null;
    if (current && currentTm === null) return reject('players', item, 'bad_number', `current_club_id ${JSON.stringify(current)}`);
    const fullName = first ? (last ? `${first} ${last}` : first) : last;
    if (lastSeason.value !== null) maxLastSeason = Math.max(maxLastSeason, lastSeason.value);
    players.set(tm, {
      tmId: tm,
      lastSeason: lastSeason.value,
      currentClubTm: currentTm,
      contractEnd: contract.value,
      agent: agentName(r.agent_name, seenComp, () => note('players', 'agent_name_was_a_competition_code')),
      row: {
        id: playerId(tm), registry_a_id: tm, registry_b_id: null, name: fullName, first_name: first, last_name: last || first, alias: null,
        nationality: (r.country_of_citizenship ?? '').trim() || (r.country_of_birth ?? '').trim() || 'Unknown',
        birth_date: birth.value,
        height_cm: height.value !== null && height.value > 0 ? height.value : null,
        foot: mapFoot(r.foot ?? ''),
        position: mapPosition(r.sub_position ?? '', r.position ?? ''),
        national_team_id: null,
        analysis_available: false,
      },
    });
    return true;
  });
  finishTable('players');
  const countries = new Set<string>();
  for (const c of compRaw) if (c.country_name) countries.add(normaliseName(c.country_name));
  for (const p of players.values()) if (p.row.nationality !== 'Unknown') countries.add(normaliseName(p.row.nationality));

  // transfers
  interface TransferIn { row: TransferRow; tmPlayer: number; from: number | null; to: number | null; loanText: boolean }
  const transfers: TransferIn[] = [];
  const transferKeys = new Set<string>();
  let dataEnd = '0000-01-01';
  const transferClubIds = new Set<number>();
  await eachRow('transfers', files.get('transfers'), (item, r) => {
    const tm = parseId(r.player_id);
    if (tm === null) return reject('transfers', item, r.player_id ? 'bad_number' : 'missing_field', `player_id ${JSON.stringify(r.player_id ?? '')}`);
    const date = parseDate(r.transfer_date);
    if (!date.ok) return reject('transfers', item, 'bad_date', `transfer_date ${JSON.stringify(r.transfer_date)}`);
    if (date.value === null) return reject('transfers', item, 'missing_field', 'transfer_date');
    const fee = parseFee(r.transfer_fee);
    if (!fee.ok) return reject('transfers', item, 'bad_number', `transfer_fee ${JSON.stringify(r.transfer_fee)}`);
    if (fee.value.fee !== null && fee.value.fee < 0) return reject('transfers', item, 'bad_value', `negative transfer_fee ${r.transfer_fee}`);
    const mv = parseNumber(r.market_value_in_eur);
    if (!mv.ok) return reject('transfers', item, 'bad_number', `market_value_in_eur ${JSON.stringify(r.market_value_in_eur)}`);
    const ends: (number | null)[] = [];
    for (const side of ['from', 'to'] as const) {
      const idText = (r[`${side}_club_id`] ?? '').trim();
      const name = (r[`${side}_club_name`] ?? '').trim();
      if (isPseudoClub(name)) {
        ends.push(null);
        continue;
      }
      const club = parseId(idText);
      if (club === null) return reject('transfers', item, idText ? 'bad_number' : 'missing_field', `${side}_club_id ${JSON.stringify(idText)}`);
      if (!clubs.has(club) && !name) return reject('transfers', item, 'unknown_club', `${side}_club_id ${club} is not in clubs and has no name`);
      ends.push(club);
    }
    if (!players.has(tm)) return reject('transfers', item, 'unknown_player', `player_id ${tm}`);
    const key = `${tm}:${date.value}:${(r.from_club_id ?? '').trim()}:${(r.to_club_id ?? '').trim()}`;
    if (transferKeys.has(key)) return reject('transfers', item, 'duplicate', `player ${tm}, ${date.value}, ${r.from_club_id} -> ${r.to_club_id}`);
    transferKeys.add(key);
    for (const [i, side] of (['from', 'to'] as const).entries()) {
      const c = ends[i];
      if (c !== null) {
        addName(c, r[`${side}_club_name`] ?? '');
        transferClubIds.add(c);
      }
    }
    if (date.value > dataEnd) dataEnd = date.value;
    transfers.push({
      tmPlayer: tm, from: ends[0], to: ends[1], loanText: fee.value.loanText,
      row: {
        id: transferId(key), player_id: (players.get(tm) as PlayerIn).row.id, date: date.value, from_club_id: null, to_club_id: null, fee_eur: fee.value.fee,
        market_value_eur: mv.value, is_loan: false,
      },
    });
    return true;
  });
  finishTable('transfers');
  const mostUsedName = (tm: number) => [...(altNames.get(tm) ?? new Map<string, number>())].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0];
  const ensureClub = (tm: number): ClubRow | null => {
    const known = clubs.get(tm);
    if (known) return known;
    const name = mostUsedName(tm);
    if (!name) return null;
    const row: ClubRow = { id: clubId(tm), registry_a_id: tm, name, country: null, is_national_team: false };
    clubs.set(tm, row);
    return row;
  };
  for (const tm of transferClubIds) ensureClub(tm);
  for (const t of transfers) {
    t.row.from_club_id = t.from === null ? null : (clubs.get(t.from)?.id ?? null);
    t.row.to_club_id = t.to === null ? null : (clubs.get(t.to)?.id ?? null);
  }

  // player_valuations
  // Indexes into marketValues per player: their club is set from his career once it is built.
  const valuations = new Map<number, number[]>();
  /** The file's club per value row, to count where the career says otherwise. */
  const scrapeClub: (string | null)[] = [];
  const marketValues: MarketValueRow[] = [];
  const valueKeys = new Set<string>();
  await eachRow('player_valuations', files.get('player_valuations'), (item, r) => {
    const tm = parseId(r.player_id);
    if (tm === null) return reject('player_valuations', item, r.player_id ? 'bad_number' : 'missing_field', `player_id ${JSON.stringify(r.player_id ?? '')}`);
    const date = parseDate(r.date);
    if (!date.ok) return reject('player_valuations', item, 'bad_date', `date ${JSON.stringify(r.date)}`);
    if (date.value === null) return reject('player_valuations', item, 'missing_field', 'date');
    const value = parseNumber(r.market_value_in_eur);
    if (!value.ok) return reject('player_valuations', item, 'bad_number', `market_value_in_eur ${JSON.stringify(r.market_value_in_eur)}`);
    if (value.value === null) return reject('player_valuations', item, 'missing_field', 'market_value_in_eur');
    if (value.value < 0) return reject('player_valuations', item, 'bad_value', `negative market_value_in_eur ${value.value}`);
    const clubText = (r.current_club_id ?? '').trim();
    const clubTm = clubText ? parseId(clubText) : null;
    if (clubText && clubTm === null) return reject('player_valuations', item, 'bad_number', `current_club_id ${JSON.stringify(clubText)}`);
    if (!players.has(tm)) return reject('player_valuations', item, 'unknown_player', `player_id ${tm}`);
    const key = `${tm}:${date.value}`;
    if (valueKeys.has(key)) return reject('player_valuations', item, 'duplicate', `player ${tm} on ${date.value}`);
    valueKeys.add(key);
    let club: string | null = null;
    if (clubTm !== null) {
      club = ensureClub(clubTm)?.id ?? null;
      if (club === null) note('player_valuations', 'club_unknown_kept_without_club');
    }
    if (date.value > dataEnd) dataEnd = date.value;
    let list = valuations.get(tm);
    if (!list) valuations.set(tm, (list = []));
    list.push(marketValues.length);
    scrapeClub.push(club);
    marketValues.push({ player_id: (players.get(tm) as PlayerIn).row.id, date: date.value, value_eur: value.value, club_id: null });
    return true;
  });
  finishTable('player_valuations');

  // games (held until club_games may fill in missing scores)
  const games = new Map<number, GameIn>();
  await eachRow('games', files.get('games'), (item, r) => {
    const id = parseId(r.game_id);
    if (id === null) return reject('games', item, r.game_id ? 'bad_number' : 'missing_field', `game_id ${JSON.stringify(r.game_id ?? '')}`);
    const home = parseId(r.home_club_id);
    const away = parseId(r.away_club_id);
    if (home === null || away === null) return reject('games', item, 'missing_field', 'home_club_id/away_club_id');
    // Names first: even a game rejected below tells what a club is called.
    addName(home, r.home_club_name ?? '');
    addName(away, r.away_club_name ?? '');
    const date = parseDate(r.date);
    if (!date.ok) return reject('games', item, 'bad_date', `date ${JSON.stringify(r.date)}`);
    if (date.value === null) return reject('games', item, 'missing_field', 'date');
    const season = parseNumber(r.season);
    if (!season.ok || (season.value !== null && !Number.isInteger(season.value))) return reject('games', item, 'bad_number', `season ${JSON.stringify(r.season)}`);
    const hg = parseNumber(r.home_club_goals);
    const ag = parseNumber(r.away_club_goals);
    if (!hg.ok || !ag.ok) return reject('games', item, 'bad_number', `goals ${JSON.stringify(r.home_club_goals)}:${JSON.stringify(r.away_club_goals)}`);
    if (games.has(id)) return reject('games', item, 'duplicate', `game_id ${id}`);
    const comp = (r.competition_id ?? '').trim();
    if (!competitions.has(comp)) return reject('games', item, 'unknown_competition', `competition_id ${JSON.stringify(comp)}`);
    if (date.value > dataEnd) dataEnd = date.value;
    games.set(id, {
      id, line: item.line, raw: item.raw, competitionTm: comp, season: season.value ?? seasonOf(date.value), date: date.value, home, away,
      homeGoals: hg.value, awayGoals: ag.value,
    });
    return true;
  });
  const gamesSummary = tables.games;
  for (const g of games.values()) {
    if (!ensureClub(g.home) || !ensureClub(g.away)) {
      rejects.add('games', g.line, 'unknown_club', `club ${!clubs.has(g.home) ? g.home : g.away} is in no file with a name`, g.raw);
      games.delete(g.id);
      gamesSummary.loaded--;
    }
  }

  await eachRow('club_games', files.get('club_games'), (item, r) => {
    const game = parseId(r.game_id);
    const club = parseId(r.club_id);
    if (game === null || club === null) return reject('club_games', item, 'missing_field', 'game_id/club_id');
    const own = parseNumber(r.own_goals);
    const opp = parseNumber(r.opponent_goals);
    if (!own.ok || !opp.ok) return reject('club_games', item, 'bad_number', `goals ${JSON.stringify(r.own_goals)}:${JSON.stringify(r.opponent_goals)}`);
    const g = games.get(game);
    if (!g) return reject('club_games', item, 'unknown_game', `game_id ${game}`);
    if (club !== g.home && club !== g.away) return reject('club_games', item, 'unknown_club', `club ${club} did not play game ${game}`);
    // Fills a score games.csv lacks.
    const home = club === g.home;
    if (g.homeGoals === null && (home ? own.value : opp.value) !== null) {
      g.homeGoals = home ? own.value : opp.value;
      note('club_games', 'score_filled_in');
    }
    if (g.awayGoals === null && (home ? opp.value : own.value) !== null) g.awayGoals = home ? opp.value : own.value;
    return true;
  });
  finishTable('club_games');
  const matches: MatchRow[] = [];
  const clubSeasonKeys = new Set<string>();
  const clubSeasons: ClubSeasonRow[] = [];
  for (const g of games.values()) {
    const comp = competitions.get(g.competitionTm) as CompetitionRow;
    const home = clubs.get(g.home) as ClubRow;
    const away = clubs.get(g.away) as ClubRow;
    if (comp.type === 'DOMESTIC_LEAGUE') {
      for (const c of [home, away]) {
        const key = `${c.id}:${g.season}:${comp.id}`;
        if (!clubSeasonKeys.has(key)) {
          clubSeasonKeys.add(key);
          clubSeasons.push({ club_id: c.id, season: g.season, competition_id: comp.id });
        }
      }
    }
    if (g.homeGoals === null || g.awayGoals === null) {
      note('games', 'no_score_not_a_match');
      continue;
    }
    matches.push({
      id: `tm-game-${g.id}`, competition_id: comp.id, season: g.season, date: g.date, home_club_id: home.id, away_club_id: away.id,
      home_goals: g.homeGoals, away_goals: g.awayGoals,
    });
  }
  finishTable('games');

  // game_lineups: who started
  const starters = new Set<string>();
  const lineupKeys = new Set<string>();
  await eachRow('game_lineups', files.get('game_lineups'), (item, r) => {
    const game = parseId(r.game_id);
    const player = parseId(r.player_id);
    if (game === null || player === null) return reject('game_lineups', item, 'missing_field', 'game_id/player_id');
    if (!players.has(player)) return reject('game_lineups', item, 'unknown_player', `player_id ${player}`);
    if (files.has('games') && !games.has(game)) return reject('game_lineups', item, 'unknown_game', `game_id ${game}`);
    const key = `${game}:${player}`;
    if (lineupKeys.has(key)) return reject('game_lineups', item, 'duplicate', `player ${player} in game ${game}`);
    lineupKeys.add(key);
    if ((r.type ?? '').trim().toLowerCase() === 'starting_lineup') starters.add(key);
    return true;
  });
  finishTable('game_lineups');

  // appearances: per player, season, competition, club
  const appearanceAgg = new Map<string, AppearanceRow>();
  const appearanceIds = new Set<string>();
  const nationalTeamOf = new Map<number, { club: string; date: string }>();
  /** Career evidence: per player, club and season, the first and last game he played. */
  const playedBy = new Map<number, Map<string, Played>>();
  let nationalTeamUsed = false;
  await eachRow('appearances', files.get('appearances'), (item, r) => {
    const appId = (r.appearance_id ?? '').trim();
    if (!appId) return reject('appearances', item, 'missing_field', 'appearance_id');
    const game = parseId(r.game_id);
    const player = parseId(r.player_id);
    const clubTm = parseId(r.player_club_id);
    if (game === null || player === null || clubTm === null) return reject('appearances', item, 'missing_field', 'game_id/player_id/player_club_id');
    const date = parseDate(r.date);
    if (!date.ok || date.value === null) return reject('appearances', item, date.ok ? 'missing_field' : 'bad_date', `date ${JSON.stringify(r.date)}`);
    const minutes = parseNumber(r.minutes_played);
    if (!minutes.ok || (minutes.value !== null && (minutes.value < 0 || !Number.isInteger(minutes.value)))) {
      return reject('appearances', item, 'bad_number', `minutes_played ${JSON.stringify(r.minutes_played)}`);
    }
    if (appearanceIds.has(appId)) return reject('appearances', item, 'duplicate', `appearance_id ${appId}`);
    if (!players.has(player)) return reject('appearances', item, 'unknown_player', `player_id ${player}`);
    const club = ensureClub(clubTm);
    if (!club) return reject('appearances', item, 'unknown_club', `player_club_id ${clubTm}`);
    const compTm = (r.competition_id ?? '').trim();
    let compId = competitions.get(compTm)?.id;
    // A club named after a country, absent from clubs.csv, playing outside the known competitions: a senior national team.
    if (!compId && !clubsCsv.has(clubTm) && countries.has(normaliseName(club.name))) {
      club.is_national_team = true;
      club.country = club.name;
      compId = NATIONAL_TEAM_COMPETITION;
      nationalTeamUsed = true;
      const prev = nationalTeamOf.get(player);
      if (!prev || prev.date < date.value) nationalTeamOf.set(player, { club: club.id, date: date.value });
    }
    if (!compId) return reject('appearances', item, 'unknown_competition', `competition_id ${JSON.stringify(compTm)}`);
    appearanceIds.add(appId);
    const season = games.get(game)?.season ?? seasonOf(date.value);
    const pid = (players.get(player) as PlayerIn).row.id;
    const key = `${pid}:${season}:${compId}:${club.id}`;
    let agg = appearanceAgg.get(key);
    if (!agg) appearanceAgg.set(key, (agg = { player_id: pid, season, competition_id: compId, club_id: club.id, appearances: 0, starts: 0, minutes: 0 }));
    if ((minutes.value ?? 0) > 0) {
      if (compId !== NATIONAL_TEAM_COMPETITION) {
        let mine = playedBy.get(player);
        if (!mine) playedBy.set(player, (mine = new Map()));
        const k = `${club.id}:${season}`;
        const seen = mine.get(k);
        if (!seen) mine.set(k, { club: club.id, first: date.value, last: date.value });
        else {
          if (date.value < seen.first) seen.first = date.value;
          if (date.value > seen.last) seen.last = date.value;
        }
      }
      agg.appearances++;
      agg.minutes += minutes.value as number;
      if (starters.has(`${game}:${player}`)) agg.starts++;
    } else note('appearances', 'no_minutes_not_counted');
    return true;
  });
  finishTable('appearances');
  const appearances = [...appearanceAgg.values()].filter((a) => a.appearances > 0);
  if (nationalTeamUsed) {
    competitions.set(NATIONAL_TEAM_COMPETITION, { id: NATIONAL_TEAM_COMPETITION, name: 'National Team', country: null, type: 'NATIONAL_TEAM', tier: null, registry_a_code: null });
  }

  // careers, loans, contracts, values per player
  const transfersOf = new Map<number, { move: Move; t: TransferIn }[]>();
  transfers.forEach((t, ref) => {
    let list = transfersOf.get(t.tmPlayer);
    if (!list) transfersOf.set(t.tmPlayer, (list = []));
    list.push({ t, move: { ref, date: t.row.date, from: t.row.from_club_id, to: t.row.to_club_id, fee: t.row.fee_eur, loanText: t.loanText } });
  });
  const careerSteps: CareerStepRow[] = [];
  const contracts: ContractRow[] = [];
  const clubsDuring2023 = new Map<number, Set<string>>();
  const valueCount = new Map<string, number>();
  for (const mv of marketValues) valueCount.set(mv.player_id, (valueCount.get(mv.player_id) ?? 0) + 1);
  if (dataEnd === '0000-01-01') dataEnd = `${new Date().getUTCFullYear()}-06-30`;
  const currentSeason = options.asOf ? seasonOf(options.asOf) : Number.isFinite(maxLastSeason) ? maxLastSeason : seasonOf(dataEnd);
  if (Number.isFinite(maxLastSeason) && currentSeason > maxLastSeason) {
    reporter.info(
      `careers: players.csv reaches season ${seasonLabel(maxLastSeason)}, before the current season ${seasonLabel(currentSeason)} of the as-of date: nobody is in a current squad`,
    );
  }
  const careerRules: Record<string, number> = {};
  const countRule = (rule: CareerRule | 'no_career_without_evidence') => (careerRules[rule] = (careerRules[rule] ?? 0) + 1);
  for (const p of players.values()) {
    // The snapshot's club is his club in his last season; he is a current player only when that season is the current one (or later).
    const snapshotClub = p.currentClubTm !== null && p.lastSeason !== null ? (ensureClub(p.currentClubTm)?.id ?? null) : null;
    const currentClub = snapshotClub !== null && (p.lastSeason as number) >= currentSeason ? snapshotClub : null;
    const own = transfersOf.get(p.tmId) ?? [];
    const career = buildCareer({
      moves: own.map((o) => o.move), played: [...(playedBy.get(p.tmId)?.values() ?? [])], snapshotClub, lastSeason: p.lastSeason, currentSeason, dataEnd,
    });
    for (const o of own) if (career.loanRefs.has(o.move.ref)) o.t.row.is_loan = true;
    for (const s of career.steps) careerSteps.push({ player_id: p.row.id, ...s });
    for (const rule of career.rules) countRule(rule);
    if (career.steps.length === 0 && (valuations.get(p.tmId)?.length ?? 0) > 0) countRule('no_career_without_evidence');
    // A value's club is his club on its date by his career; the file's club column is the club at scrape time.
    for (const i of valuations.get(p.tmId) ?? []) {
      const mv = marketValues[i];
      const step = career.steps.findLast((s) => s.start_date <= mv.date);
      mv.club_id = step && (step.end_date === null || mv.date < step.end_date) ? step.club_id : null;
      if (mv.club_id !== scrapeClub[i]) note('player_valuations', mv.club_id === null ? 'club_none_on_that_date_by_career' : 'club_set_from_career');
    }
    const seen2023 = new Set<string>();
    for (const s of career.steps) if (s.start_date <= '2024-06-30' && (s.end_date === null || s.end_date >= '2023-07-01')) seen2023.add(s.club_id);
    if (currentClub) seen2023.add(currentClub);
    clubsDuring2023.set(p.tmId, seen2023);
    const last = career.steps[career.steps.length - 1];
    if (currentClub && last?.end_date === null) {
      // The contract is with the club of his running step (he may have left the snapshot's club); a loanee's with the club that lent him.
      const contractClub = last.is_loan && last.parent_club_id ? last.parent_club_id : last.club_id;
      const joined = [...career.steps].reverse().find((s) => s.club_id === contractClub && !s.is_loan);
      if (joined) {
        contracts.push({ player_id: p.row.id, club_id: contractClub, signed_date: joined.start_date, end_date: p.contractEnd, agency_name: p.agent });
      } else note('players', 'contract_without_join_date_skipped');
    }
    const nt = nationalTeamOf.get(p.tmId);
    if (nt) p.row.national_team_id = nt.club;
    p.row.analysis_available = p.row.birth_date !== null && p.row.position !== null && (valueCount.get(p.row.id) ?? 0) >= 2;
  }

  // EA calibration input
  const ratings: RatingRow[] = [];
  let ea: EaSummary | null = null;
  if (options.eaRatings || options.eaMapping) {
    const ea24: Ea24Row[] = [];
    const ea25: (Ea25Row & { ovr: number; position: string; line: number; raw: string })[] = [];
    const sofifaSeen = new Set<number>();
    if (options.eaRatings) {
      await eachRow('ea_ratings', fileAt('ea_ratings', options.eaRatings), (item, r) => {
        const url = (r.URL ?? '').trim().replace(/\/+$/, '');
        const sofifa = parseId(url.slice(url.lastIndexOf('/') + 1));
        if (sofifa === null) return reject('ea_ratings', item, url ? 'bad_number' : 'missing_field', `URL ${JSON.stringify(r.URL ?? '')}`);
        const age = parseNumber(r.Age);
        const overall = parseNumber(r.Overall);
        if (!age.ok || !overall.ok || age.value === null || overall.value === null) return reject('ea_ratings', item, 'bad_number', `Age/Overall ${r.Age}/${r.Overall}`);
        if (!(r.Name ?? '').trim()) return reject('ea_ratings', item, 'missing_field', 'Name');
        if (sofifaSeen.has(sofifa)) return reject('ea_ratings', item, 'duplicate', `EA id ${sofifa}`);
        sofifaSeen.add(sofifa);
        ea24.push({ line: item.line, sofifaId: sofifa, name: r.Name.trim(), club: (r.Club ?? '').trim(), age: age.value, overall: overall.value, position: (r.Position ?? '').trim(), attributes: eaAttributes(r), foot: r['Preferred foot'] ?? '' });
        return true;
      });
      finishTable('ea_ratings');
    }
    const mappedTm = new Set<number>();
    if (options.eaMapping) {
      await eachRow('ea_mapping', fileAt('ea_mapping', options.eaMapping), (item, r) => {
        const tm = parseId(r.player_id);
        if (tm === null) return reject('ea_mapping', item, r.player_id ? 'bad_number' : 'missing_field', `player_id ${JSON.stringify(r.player_id ?? '')}`);
        const ovr = parseNumber(r.OVR);
        const age = parseNumber(r.Age);
        if (!ovr.ok || ovr.value === null || !age.ok) return reject('ea_mapping', item, 'bad_number', `OVR/Age ${r.OVR}/${r.Age}`);
        if (!players.has(tm)) return reject('ea_mapping', item, 'unknown_player', `player_id ${tm}`);
        if (mappedTm.has(tm)) return reject('ea_mapping', item, 'duplicate', `player_id ${tm}`);
        mappedTm.add(tm);
        ea25.push({ tmId: tm, name: (r.name ?? '').trim(), age: age.value, team: (r.Team ?? '').trim(), ovr: ovr.value, position: (r.Position ?? '').trim(), line: item.line, raw: item.raw });
        return true;
      });
      finishTable('ea_mapping');
    }
    const namesByClub = new Map<string, string[]>();
    for (const c of clubs.values()) namesByClub.set(c.id, [c.name, ...(altNames.get(c.registry_a_id as number)?.keys() ?? [])]);
    const namesOf = (clubIdSet: Set<string>) => [...clubIdSet].flatMap((id) => namesByClub.get(id) ?? []);
    const byClubId = new Map<string, string[]>();
    const matchPlayers: MatchPlayer[] = [...players.values()].map((p) => {
      const set = clubsDuring2023.get(p.tmId) ?? new Set<string>();
      const key = [...set].sort().join(',');
      let names = byClubId.get(key);
      if (!names) byClubId.set(key, (names = namesOf(set)));
      return { id: p.row.id, tmId: p.tmId, name: p.row.name, lastName: p.row.last_name, birthYear: p.row.birth_date ? Number(p.row.birth_date.slice(0, 4)) : null, clubNames: names };
    });
    const matches24 = matchEa(matchPlayers, ea24, ea25);
    const roles24 = eaRoleBySofifaId(ea24);
    const roleOf24 = new Map<string, string>();
    const byPlayerId = new Map([...players.values()].map((p) => [p.row.id, p]));
    const byMethod: Partial<Record<MatchMethod, number>> = {};
    for (const m of matches24) {
      const p = byPlayerId.get(m.playerId) as PlayerIn;
      p.row.registry_b_id = m.row.sofifaId;
      byMethod[m.method] = (byMethod[m.method] ?? 0) + 1;
      const position = eaPosition(m.row.position) ?? p.row.position;
      const role = roles24.get(m.row.sofifaId) ?? (position ? firstRoleFor(position) : null);
      if (!position || !role) continue;
      roleOf24.set(p.row.id, role);
      ratings.push({ player_id: p.row.id, season: 2023, rating: m.row.overall, potential: m.row.overall, best_role: role, position, source: 'ea' });
    }
    let fc25Loaded = 0;
    for (const r of ea25) {
      const p = players.get(r.tmId) as PlayerIn;
      const position = eaPosition(r.position) ?? p.row.position;
      const role = position ? fc25Role(position, roleOf24.get(p.row.id)) : null;
      if (!position || role === null) {
        rejects.add('ea_mapping', r.line, 'bad_value', `no position for ${JSON.stringify(r.position)}`, r.raw);
        continue;
      }
      ratings.push({ player_id: p.row.id, season: 2024, rating: r.ovr, potential: r.ovr, best_role: role, position, source: 'ea' });
      fc25Loaded++;
    }
    if (tables.ea_mapping) {
      tables.ea_mapping.loaded = fc25Loaded;
      tables.ea_mapping.rejected = rejects.count('ea_mapping');
      tables.ea_mapping.reasons = rejects.reasons('ea_mapping');
    }
    ea = {
      fc24_rows: ea24.length,
      fc24_matched: matches24.length,
      match_rate: ea24.length ? Math.round((matches24.length / ea24.length) * 10_000) / 10_000 : 0,
      by_method: byMethod,
      fc25_rows: ea25.length,
      fc25_loaded: fc25Loaded,
    };
    reporter.info(`EA: ${matches24.length} of ${ea24.length} FC 24 players matched (${(ea.match_rate * 100).toFixed(1)}%), ${fc25Loaded} FC 25 ratings`);
  }

  const roles: RoleRow[] = ROLES.map((r) => ({ id: r.role, name: r.name, description: r.description, positions: [...r.positions] }));
  const world: WorldData = {
    roles,
    competitions: [...competitions.values()],
    clubs: [...clubs.values()],
    club_seasons: clubSeasons,
    players: [...players.values()].map((p) => p.row),
    contracts,
    career_steps: careerSteps,
    appearances,
    market_values: marketValues,
    transfers: transfers.map((t) => t.row),
    ratings,
    matches,
  };
  const worldCounts = Object.fromEntries(Object.entries(world).map(([k, v]) => [k, v.length])) as Record<keyof WorldTables, number>;
  const rejectedTotal = rejects.count();
  if (options.rejectsPath) await rejects.write(options.rejectsPath);
  reporter.info(`careers (${seasonLabel(currentSeason)} current): ${Object.entries(careerRules).map(([r, n]) => `${r} ${n}`).join(', ') || 'no rule applied'}`);
  const summary: ImportSummary = {
    status: 'imported', source: 'transfermarkt', source_hash: sourceHash, tables, world: worldCounts, ea, careers: careerRules,
    current_season: seasonLabel(currentSeason), rejected_total: rejectedTotal,
    rejects_file: options.rejectsPath ?? null, data_version: null, duration_ms: 0,
  };
  if (options.strict && rejectedTotal > 0) {
    reporter.info(`strict: ${rejectedTotal} rows rejected; nothing changed`);
    summary.status = 'strict_failed';
    summary.duration_ms = Math.round(performance.now() - started);
    return summary;
  }
  reporter.info('storing the new world in one transaction');
  summary.data_version = await replaceWorld(
    db,
    world,
    {
      source: 'transfermarkt', source_hash: sourceHash, source_dir: dir, importer: IMPORTER_VERSION, imported_at: new Date().toISOString(),
      ...(ea ? { ea_match_rate: String(ea.match_rate) } : {}),
    },
    (table, rows) => reporter.stored(table, rows),
  );
  summary.duration_ms = Math.round(performance.now() - started);
  return summary;
}

