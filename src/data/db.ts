import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, Migrator, type Migration, type MigrationProvider } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';
import { SerialPGliteDialect } from './pglite-dialect.js';
import { ownerOnly } from './owner-only.js';
import * as m001 from './migrations/001_world.js';
import * as m002 from './migrations/002_access.js';
import * as m003 from './migrations/003_rates.js';
import * as m004 from './migrations/004_season_clubs.js';
import * as m005 from './migrations/005_plan_rate_limit.js';
import * as m006 from './migrations/006_world_references_in_bulk.js';
import * as m007 from './migrations/007_login_throttle.js';
import * as m008 from './migrations/008_player_attributes.js';
import * as m009 from './migrations/009_rating_basis.js';
import * as m010 from './migrations/010_shortlists.js';
import * as m011 from './migrations/011_staging_copy.js';
import * as m012 from './migrations/012_organisations.js';
import * as m013 from './migrations/013_webhooks.js';

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  readonly db: Db;
  readonly kind: 'embedded' | 'postgres';
  /** Only for the embedded database: the PGlite instance, e.g. to dump it. */
  readonly pglite?: PGlite;
  close(): Promise<void>;
}

const DATE_OID = 1082;
const TIMESTAMP_OID = 1114;
const TIMESTAMPTZ_OID = 1184;
const INT8_OID = 20;
const keepText = (v: string) => v;

export interface OpenOptions {
  /** postgres:// URL of a server; unset uses the embedded database. */
  url?: string;
  /** Folder of the embedded database; unset with no url keeps it in memory. */
  dataDir?: string;
  /** A dump (from `dumpEmbedded`) to start an in-memory embedded database from. */
  loadDataDir?: Blob | File;
}

export async function openDatabase(opts: OpenOptions): Promise<DatabaseHandle> {
  if (opts.url) {
    pg.types.setTypeParser(INT8_OID, (v) => Number(v));
    pg.types.setTypeParser(DATE_OID, keepText);
    pg.types.setTypeParser(TIMESTAMP_OID, keepText);
    pg.types.setTypeParser(TIMESTAMPTZ_OID, keepText);
    const pool = new pg.Pool({ connectionString: opts.url, max: 10, connectionTimeoutMillis: 5_000 });
    // A client losing its server (restart, failover) must not crash the process: idle ones report
    // through the pool, checked-out ones through themselves; the query in flight fails (a 500) and the
    // pool drops the broken client when it is released.
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  // Owner only (0700 / 0600), also for a folder an older version or another umask left readable.
  if (opts.dataDir) ownerOnly(opts.dataDir);
  const pglite = new PGlite({
    dataDir: opts.dataDir,
    loadDataDir: opts.loadDataDir,
    parsers: { [DATE_OID]: keepText, [TIMESTAMP_OID]: keepText, [TIMESTAMPTZ_OID]: keepText },
  });
  await pglite.waitReady;
  // What PGlite wrote while starting follows the process umask: made owner-only here too.
  if (opts.dataDir) ownerOnly(opts.dataDir);
  const db = new Kysely<Database>({ dialect: new SerialPGliteDialect(pglite) });
  return {
    db,
    kind: 'embedded',
    pglite,
    close: async () => {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}

const MIGRATIONS: Record<string, Migration> = {
  '001_world': m001,
  '002_access': m002,
  '003_rates': m003,
  '004_season_clubs': m004,
  '005_plan_rate_limit': m005,
  '006_world_references_in_bulk': m006,
  '007_login_throttle': m007,
  '008_player_attributes': m008,
  '009_rating_basis': m009,
  '010_shortlists': m010,
  '011_staging_copy': m011,
  '012_organisations': m012,
  '013_webhooks': m013,
};

class InlineMigrations implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return MIGRATIONS;
  }
}

/** Brings the schema to the latest version; throws with the failing migration's name. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  // Unordered: migrations written side by side (012 and 013) may reach a database in either order.
  const migrator = new Migrator({ db, provider: new InlineMigrations(), allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).map((r) => r.migrationName);
}

/** Brings the schema up (or down) to the named migration: for tests of a migration's data move. */
export async function migrateTo(db: Db, name: string): Promise<void> {
  const { error } = await new Migrator({ db, provider: new InlineMigrations() }).migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
