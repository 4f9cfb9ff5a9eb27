import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('meta')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('roles')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('positions', sql`text[]`, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('competitions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('country', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('tier', 'integer')
    .addColumn('registry_a_code', 'text')
    .execute();
  await db.schema
    .createTable('clubs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('registry_a_id', 'bigint', (c) => c.unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('country', 'text')
    .addColumn('is_national_team', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema
    .createTable('club_seasons')
    .addColumn('club_id', 'text', (c) => c.notNull().references('clubs.id').onDelete('cascade'))
    .addColumn('season', 'integer', (c) => c.notNull())
    .addColumn('competition_id', 'text', (c) => c.notNull().references('competitions.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('club_seasons_pk', ['club_id', 'season', 'competition_id'])
    .execute();
  await db.schema
    .createTable('players')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('registry_a_id', 'bigint', (c) => c.unique())
    .addColumn('registry_b_id', 'bigint')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('alias', 'text')
    .addColumn('nationality', 'text', (c) => c.notNull())
    .addColumn('birth_date', 'date')
    .addColumn('height_cm', 'real')
    .addColumn('foot', 'text')
    .addColumn('position', 'text')
    .addColumn('national_team_id', 'text', (c) => c.references('clubs.id').onDelete('set null'))
    .addColumn('analysis_available', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute();
  await db.schema.createIndex('players_registry_b_idx').on('players').column('registry_b_id').execute();
  await db.schema
    .createTable('contracts')
    .addColumn('player_id', 'text', (c) => c.notNull().references('players.id').onDelete('cascade'))
    .addColumn('club_id', 'text', (c) => c.notNull().references('clubs.id').onDelete('cascade'))
    .addColumn('signed_date', 'date', (c) => c.notNull())
    .addColumn('end_date', 'date')
    .addColumn('agency_name', 'text')
    .addPrimaryKeyConstraint('contracts_pk', ['player_id', 'signed_date', 'club_id'])
    .execute();
  await db.schema
    .createTable('career_steps')
    .addColumn('player_id', 'text', (c) => c.notNull().references('players.id').onDelete('cascade'))
    .addColumn('club_id', 'text', (c) => c.notNull().references('clubs.id').onDelete('cascade'))
    .addColumn('start_date', 'date', (c) => c.notNull())
    .addColumn('end_date', 'date')
    .addColumn('is_loan', 'boolean', (c) => c.notNull())
    .addColumn('parent_club_id', 'text', (c) => c.references('clubs.id').onDelete('set null'))
    .addPrimaryKeyConstraint('career_steps_pk', ['player_id', 'start_date', 'club_id'])
    .execute();
  await db.schema
    .createTable('appearances')
    .addColumn('player_id', 'text', (c) => c.notNull().references('players.id').onDelete('cascade'))
    .addColumn('season', 'integer', (c) => c.notNull())
    .addColumn('competition_id', 'text', (c) => c.notNull().references('competitions.id').onDelete('cascade'))
    .addColumn('club_id', 'text', (c) => c.notNull().references('clubs.id').onDelete('cascade'))
    .addColumn('appearances', 'integer', (c) => c.notNull())
    .addColumn('starts', 'integer', (c) => c.notNull())
    .addColumn('minutes', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('appearances_pk', ['player_id', 'season', 'competition_id', 'club_id'])
    .execute();
  await db.schema
    .createTable('market_values')
    .addColumn('player_id', 'text', (c) => c.notNull().references('players.id').onDelete('cascade'))
    .addColumn('date', 'date', (c) => c.notNull())
    .addColumn('value_eur', 'double precision', (c) => c.notNull())
    .addColumn('club_id', 'text', (c) => c.references('clubs.id').onDelete('set null'))
    .addPrimaryKeyConstraint('market_values_pk', ['player_id', 'date'])
    .execute();
  await db.schema
    .createTable('transfers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('player_id', 'text', (c) => c.notNull().references('players.id').onDelete('cascade'))
    .addColumn('date', 'date', (c) => c.notNull())
    .addColumn('from_club_id', 'text', (c) => c.references('clubs.id').onDelete('set null'))
    .addColumn('to_club_id', 'text', (c) => c.references('clubs.id').onDelete('set null'))
    .addColumn('fee_eur', 'double precision')
    .addColumn('market_value_eur', 'double precision')
    .addColumn('is_loan', 'boolean', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('ratings')
    .addColumn('player_id', 'text', (c) => c.notNull().references('players.id').onDelete('cascade'))
    .addColumn('season', 'integer', (c) => c.notNull())
    .addColumn('rating', 'real', (c) => c.notNull())
    .addColumn('potential', 'real', (c) => c.notNull())
    .addColumn('best_role', 'text', (c) => c.notNull())
    .addColumn('position', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('ratings_pk', ['player_id', 'season', 'source'])
    .execute();
  await db.schema
    .createTable('matches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('competition_id', 'text', (c) => c.notNull().references('competitions.id').onDelete('cascade'))
    .addColumn('season', 'integer', (c) => c.notNull())
    .addColumn('date', 'date', (c) => c.notNull())
    .addColumn('home_club_id', 'text', (c) => c.notNull().references('clubs.id').onDelete('cascade'))
    .addColumn('away_club_id', 'text', (c) => c.notNull().references('clubs.id').onDelete('cascade'))
    .addColumn('home_goals', 'integer', (c) => c.notNull())
    .addColumn('away_goals', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['matches', 'ratings', 'transfers', 'market_values', 'appearances', 'career_steps', 'contracts', 'players', 'club_seasons', 'clubs', 'competitions', 'roles', 'meta']) {
    await db.schema.dropTable(t).execute();
  }
}
