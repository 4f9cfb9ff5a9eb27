import type { Db } from './db.js';
import type { SeasonClubsRow } from '../domain/snapshot.js';
import { setMeta } from './world-store.js';

/** Row of `season_clubs` (migration 004); kept here so schema.ts need not know it. */
interface SeasonClubsTable {
  competition_id: string;
  season: number;
  club_id: string;
}

function membershipDb(db: Db) {
  return db.withTables<{ season_clubs: SeasonClubsTable }>();
}

/**
 * Makes `clubIds` the whole membership of the league in the season, in one transaction, and bumps
 * the membership version so every instance re-reads it. A club named here leaves any other league it
 * was set in for that season (a club plays in one domestic league); returns those leagues.
 */
export async function saveSeasonClubs(db: Db, competitionId: string, season: number, clubIds: readonly string[]): Promise<{ movedFrom: string[] }> {
  const clubs = [...new Set(clubIds)];
  return membershipDb(db)
    .transaction()
    .execute(async (trx) => {
      const others = clubs.length === 0 ? [] : await trx
        .deleteFrom('season_clubs')
        .where('season', '=', season)
        .where('competition_id', '<>', competitionId)
        .where('club_id', 'in', clubs)
        .returning('competition_id')
        .execute();
      await trx.deleteFrom('season_clubs').where('competition_id', '=', competitionId).where('season', '=', season).execute();
      if (clubs.length > 0) {
        await trx.insertInto('season_clubs').values(clubs.map((club_id) => ({ competition_id: competitionId, season, club_id }))).execute();
      }
      await setMeta(trx as unknown as Db, { membership_version: `${competitionId}@${season}@${Date.now()}` });
      return { movedFrom: [...new Set(others.map((o) => o.competition_id))].sort() };
    });
}

/** Every stored membership row, in a stable order. */
export async function loadSeasonClubs(db: Db): Promise<SeasonClubsRow[]> {
  const rows = await membershipDb(db).selectFrom('season_clubs').selectAll().orderBy('competition_id').orderBy('season').orderBy('club_id').execute();
  return rows.map((r) => ({ competition_id: r.competition_id, season: Number(r.season), club_id: r.club_id }));
}
