import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from './db.js';
import { dropKeysForBulkLoad } from './bulk-keys.js';
import { WORLD_TABLE_ORDER, type WorldData, type WorldTables } from '../domain/world.js';

type ColumnTypes<T> = { [K in keyof T]-?: string };

/**
 * Which copy of the world a call reads or writes: the live tables every server answers from, or
 * the staging copy an update fills and trains on before swapping it in (src/data/staging.ts).
 */
export type WorldSet = 'live' | 'staging';
/** The staging copy's schema: the world tables and a meta table of its own. */
export const STAGING_SCHEMA = 'touchline_staging';

/** The qualified name of a world (or meta) table of the set. */
const tableName = (table: string, set: WorldSet = 'live') => (set === 'staging' ? `${STAGING_SCHEMA}.${table}` : table);
/** A world (or meta) table of the set, for raw SQL. */
export const tableOf = (table: string, set: WorldSet = 'live') => sql.table(tableName(table, set));
/** The query builder on the set's tables (meta included). */
const builderOf = (db: Db, set: WorldSet): Db => (set === 'staging' ? db.withSchema(STAGING_SCHEMA) : db);

/** PostgreSQL type of every world column, for array-parameter bulk inserts. */
const COLUMNS: { [T in keyof WorldTables]: ColumnTypes<WorldTables[T]> } = {
  roles: { id: 'text', name: 'text', description: 'text', positions: 'text[]' },
  competitions: { id: 'text', name: 'text', country: 'text', type: 'text', tier: 'int4', registry_a_code: 'text' },
  clubs: { id: 'text', registry_a_id: 'int8', name: 'text', country: 'text', is_national_team: 'bool' },
  club_seasons: { club_id: 'text', season: 'int4', competition_id: 'text' },
  players: {
    id: 'text', registry_a_id: 'int8', registry_b_id: 'int8', name: 'text', first_name: 'text', last_name: 'text',
    alias: 'text', nationality: 'text', birth_date: 'date', height_cm: 'float4', foot: 'text', position: 'text',
    national_team_id: 'text', analysis_available: 'bool',
  },
  contracts: { player_id: 'text', club_id: 'text', signed_date: 'date', end_date: 'date', agency_name: 'text' },
  career_steps: { player_id: 'text', club_id: 'text', start_date: 'date', end_date: 'date', is_loan: 'bool', parent_club_id: 'text' },
  appearances: { player_id: 'text', season: 'int4', competition_id: 'text', club_id: 'text', appearances: 'int4', starts: 'int4', minutes: 'int4' },
  market_values: { player_id: 'text', date: 'date', value_eur: 'float8', club_id: 'text' },
  transfers: {
    id: 'text', player_id: 'text', date: 'date', from_club_id: 'text', to_club_id: 'text', fee_eur: 'float8',
    market_value_eur: 'float8', is_loan: 'bool',
  },
  ratings: { player_id: 'text', season: 'int4', rating: 'float4', potential: 'float4', best_role: 'text', position: 'text', source: 'text', basis: 'text' },
  player_attributes: { player_id: 'text', season: 'int4', source: 'text', attributes: 'text' },
  matches: {
    id: 'text', competition_id: 'text', season: 'int4', date: 'date', home_club_id: 'text', away_club_id: 'text',
    home_goals: 'int4', away_goals: 'int4',
  },
};

/** Every reference between world tables (column -> table whose id it names), checked in bulk by replaceWorld. */
const REFERENCES: ReadonlyArray<readonly [keyof WorldTables, string, 'clubs' | 'competitions' | 'players']> = [
  ['club_seasons', 'club_id', 'clubs'], ['club_seasons', 'competition_id', 'competitions'],
  ['players', 'national_team_id', 'clubs'],
  ['contracts', 'player_id', 'players'], ['contracts', 'club_id', 'clubs'],
  ['career_steps', 'player_id', 'players'], ['career_steps', 'club_id', 'clubs'], ['career_steps', 'parent_club_id', 'clubs'],
  ['appearances', 'player_id', 'players'], ['appearances', 'competition_id', 'competitions'], ['appearances', 'club_id', 'clubs'],
  ['market_values', 'player_id', 'players'], ['market_values', 'club_id', 'clubs'],
  ['transfers', 'player_id', 'players'], ['transfers', 'from_club_id', 'clubs'], ['transfers', 'to_club_id', 'clubs'],
  ['ratings', 'player_id', 'players'], ['player_attributes', 'player_id', 'players'],
  ['matches', 'competition_id', 'competitions'], ['matches', 'home_club_id', 'clubs'], ['matches', 'away_club_id', 'clubs'],
];

/** Fails (so the transaction rolls back) naming each reference to a row the world does not hold. */
async function checkReferences(db: Db, tables: ReadonlyArray<keyof WorldTables>, set: WorldSet): Promise<void> {
  const checked = REFERENCES.filter(([table]) => tables.includes(table));
  if (checked.length === 0) return;
  const counts = sql.join(
    checked.map(([table, column, target]) =>
      sql`(select count(*)::int from ${tableOf(table, set)} r where r.${sql.ref(column)} is not null and not exists (select 1 from ${tableOf(target, set)} t where t.id = r.${sql.ref(column)}))`),
  );
  const { rows } = await sql<{ counts: number[] }>`select array[${counts}] as counts`.execute(db);
  const dangling = checked.map(([table, column, target], i) => ({ what: `${table}.${column} -> ${target}`, n: rows[0].counts[i] })).filter((d) => d.n > 0);
  if (dangling.length > 0) throw new Error(`The world names rows it does not hold: ${dangling.map((d) => `${d.n} in ${d.what}`).join(', ')}`);
}

const BATCH = 20_000;

async function bulkInsert<T extends keyof WorldTables>(db: Db, table: T, rows: WorldTables[T][], set: WorldSet): Promise<void> {
  const types = COLUMNS[table] as Record<string, string>;
  const cols = Object.keys(types);
  for (let start = 0; start < rows.length; start += BATCH) {
    const batch = rows.slice(start, start + BATCH) as unknown as Record<string, unknown>[];
    const arrays = cols.map((c) => batch.map((r) => r[c] ?? null));
    // Array columns (text[]) cannot go through unnest as a 2-D array of ragged rows: insert them one by one.
    if (cols.some((c) => types[c].endsWith('[]'))) {
      for (const r of batch) {
        await builderOf(db, set).insertInto(table as never).values(r as never).execute();
      }
      continue;
    }
    const unnestArgs = sql.join(cols.map((c, i) => sql`${sql.val(arrays[i])}::${sql.raw(types[c])}[]`));
    await sql`insert into ${tableOf(table, set)} (${sql.join(cols.map((c) => sql.ref(c)))}) select * from unnest(${unnestArgs})`.execute(db);
  }
}

export interface ReplaceProgress {
  (table: keyof WorldTables, rows: number): void;
}

/**
 * Keys of `meta` that describe the world in force (restored with it by a rollback); versions and the
 * update flag are not among them. A new world replaces all of them: one it does not give is removed.
 */
export const WORLD_META_KEYS = [
  'source', 'source_hash', 'source_dir', 'importer', 'imported_at', 'data_as_of', 'as_of', 'seed', 'ea_match_rate', 'ea_ratings_file', 'ea_mapping_file',
] as const;

/**
 * Replaces the whole world of a set in one transaction: readers see the old world until it commits,
 * and a failure (or a killed process) leaves the old world whole. Bumps the set's data version.
 */
export async function replaceWorld(db: Db, data: WorldData, meta: Record<string, string>, onTable?: ReplaceProgress, set: WorldSet = 'live'): Promise<string> {
  const version = worldVersion(data);
  // The same world again changes nothing (and keeps the models trained on it valid).
  if ((await readMeta(db, set)).data_version === version) return version;
  await db.transaction().execute(async (trx) => {
    const tables = [...WORLD_TABLE_ORDER].reverse();
    await sql`truncate ${sql.join(tables.map((t) => tableOf(t, set)))} cascade`.execute(trx);
    // Keys are built once over the loaded rows; the reference check below needs them back.
    const rebuildKeys = await dropKeysForBulkLoad(trx, tables.map((t) => tableName(t, set)));
    for (const table of WORLD_TABLE_ORDER) {
      await bulkInsert(trx, table, data[table] as never, set);
      onTable?.(table, data[table].length);
    }
    await rebuildKeys();
    await checkReferences(trx, WORLD_TABLE_ORDER, set);
    // A new world has no model ratings until the next training, and nothing of the old one's description
    // (an import's data_as_of would otherwise outrank the demo world's as_of).
    await builderOf(trx, set).deleteFrom('meta').where('key', 'in', [...WORLD_META_KEYS, 'ratings_version']).execute();
    await setMeta(trx, { ...meta, data_version: version }, set);
  });
  return version;
}

/** The data version is derived from the content, so equal worlds have equal versions. */
export function worldVersion(data: WorldData): string {
  const h = createHash('sha256');
  for (const table of WORLD_TABLE_ORDER) {
    // Our own ratings are derived data with a version of their own.
    // (`basis` belongs to our own ratings: an external row read back with basis null is the same row.)
    const rows = table === 'ratings' ? data.ratings.filter((r) => r.source !== 'model').map(({ basis: _, ...r }) => r) : data[table];
    // A world without attribute profiles keeps the version it had before the table existed.
    if (table === 'player_attributes' && rows.length === 0) continue;
    h.update(table);
    for (let i = 0; i < rows.length; i += 10_000) h.update(JSON.stringify(rows.slice(i, i + 10_000)));
  }
  return h.digest('hex').slice(0, 20);
}

/** Replaces our own ratings (source 'model') with a training's output, in one transaction. */
export async function replaceModelRatings(db: Db, rows: WorldTables['ratings'][], ratingsVersion: string, set: WorldSet = 'live'): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await builderOf(trx, set).deleteFrom('ratings').where('source', '=', 'model').execute();
    await bulkInsert(trx, 'ratings', rows, set);
    await checkReferences(trx, ['ratings'], set);
    await setMeta(trx, { ratings_version: ratingsVersion }, set);
  });
}

export async function setMeta(db: Db, entries: Record<string, string>, set: WorldSet = 'live'): Promise<void> {
  for (const [key, value] of Object.entries(entries)) {
    await builderOf(db, set)
      .insertInto('meta')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  }
}

export async function readMeta(db: Db, set: WorldSet = 'live'): Promise<Record<string, string>> {
  const rows = await builderOf(db, set).selectFrom('meta').selectAll().execute();
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}

export async function isWorldEmpty(db: Db): Promise<boolean> {
  const row = await db.selectFrom('players').select(sql<number>`count(*)::int`.as('n')).executeTakeFirst();
  return (row?.n ?? 0) === 0;
}

/** Reads the whole world back as plain rows; the read model filters by the as-of date. */
export async function loadWorld(db: Db, set: WorldSet = 'live'): Promise<WorldData> {
  const out = {} as Record<keyof WorldTables, unknown[]>;
  for (const table of WORLD_TABLE_ORDER) {
    const cols = sql.join(Object.keys(COLUMNS[table]).map((c) => sql.ref(c)));
    // One JSON text per table: parsing it is 2-3x faster than the drivers' row-by-row decoding, which
    // dominated every start. JSON keeps the shapes the rows had (dates as YYYY-MM-DD, int8 as numbers).
    const { rows } = await sql<{ rows: string | null }>`select json_agg(t)::text as rows from (select ${cols} from ${tableOf(table, set)}) t`.execute(db);
    out[table] = rows[0].rows === null ? [] : (JSON.parse(rows[0].rows) as unknown[]);
  }
  return out as WorldData;
}
