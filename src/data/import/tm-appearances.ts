import type { AppearanceRow, CompetitionRow } from '../../domain/world.js';
import { seasonOf } from '../../domain/season.js';
import type { Played } from './careers.js';
import { normaliseName, parseDate, parseId, parseNumber } from './mapping.js';
import type { TableReader } from './table-reader.js';
import type { ClubBook } from './tm-clubs.js';
import type { GameIn } from './tm-games.js';
import type { PlayerIn } from './tm-players.js';

export const NATIONAL_TEAM_COMPETITION = 'NATIONAL_TEAM';

export interface Appearances {
  /** Per player, season, competition and club, with at least one game played. */
  rows: AppearanceRow[];
  /** Career evidence: per player, club and season, the first and last game he played. */
  playedBy: Map<number, Map<string, Played>>;
  /** Per player, the senior national team he played for last. */
  nationalTeamOf: Map<number, { club: string; date: string }>;
}

/**
 * game_lineups.csv (who started), then appearances.csv. A club named after a country, absent from
 * clubs.csv, playing outside the known competitions is a senior national team: its competition is
 * added to `competitions`.
 */
export async function readAppearances(
  rd: TableReader, book: ClubBook, players: ReadonlyMap<number, PlayerIn>, games: ReadonlyMap<number, GameIn>,
  competitions: Map<string, CompetitionRow>, clubsCsv: ReadonlySet<number>, countries: ReadonlySet<string>,
): Promise<Appearances> {
  const starters = new Set<string>();
  const lineupKeys = new Set<string>();
  await rd.eachRow('game_lineups', rd.files.get('game_lineups'), (item, r) => {
    const game = parseId(r.game_id);
    const player = parseId(r.player_id);
    if (game === null || player === null) return rd.reject('game_lineups', item, 'missing_field', 'game_id/player_id');
    if (!players.has(player)) return rd.reject('game_lineups', item, 'unknown_player', `player_id ${player}`);
    if (rd.files.has('games') && !games.has(game)) return rd.reject('game_lineups', item, 'unknown_game', `game_id ${game}`);
    const key = `${game}:${player}`;
    if (lineupKeys.has(key)) return rd.reject('game_lineups', item, 'duplicate', `player ${player} in game ${game}`);
    lineupKeys.add(key);
    if ((r.type ?? '').trim().toLowerCase() === 'starting_lineup') starters.add(key);
    return true;
  });
  rd.finish('game_lineups');

  // appearances: per player, season, competition, club
  const appearanceAgg = new Map<string, AppearanceRow>();
  const appearanceIds = new Set<string>();
  const nationalTeamOf = new Map<number, { club: string; date: string }>();
  /** Career evidence: per player, club and season, the first and last game he played. */
  const playedBy = new Map<number, Map<string, Played>>();
  let nationalTeamUsed = false;
  await rd.eachRow('appearances', rd.files.get('appearances'), (item, r) => {
    const appId = (r.appearance_id ?? '').trim();
    if (!appId) return rd.reject('appearances', item, 'missing_field', 'appearance_id');
    const game = parseId(r.game_id);
    const player = parseId(r.player_id);
    const clubTm = parseId(r.player_club_id);
    if (game === null || player === null || clubTm === null) return rd.reject('appearances', item, 'missing_field', 'game_id/player_id/player_club_id');
    const date = parseDate(r.date);
    if (!date.ok || date.value === null) return rd.reject('appearances', item, date.ok ? 'missing_field' : 'bad_date', `date ${JSON.stringify(r.date)}`);
    const minutes = parseNumber(r.minutes_played);
    if (!minutes.ok || (minutes.value !== null && (minutes.value < 0 || !Number.isInteger(minutes.value)))) {
      return rd.reject('appearances', item, 'bad_number', `minutes_played ${JSON.stringify(r.minutes_played)}`);
    }
    if (appearanceIds.has(appId)) return rd.reject('appearances', item, 'duplicate', `appearance_id ${appId}`);
    if (!players.has(player)) return rd.reject('appearances', item, 'unknown_player', `player_id ${player}`);
    const club = book.ensure(clubTm);
    if (!club) return rd.reject('appearances', item, 'unknown_club', `player_club_id ${clubTm}`);
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
    if (!compId) return rd.reject('appearances', item, 'unknown_competition', `competition_id ${JSON.stringify(compTm)}`);
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
    } else rd.note('appearances', 'no_minutes_not_counted');
    return true;
  });
  rd.finish('appearances');
  const appearances = [...appearanceAgg.values()].filter((a) => a.appearances > 0);
  if (nationalTeamUsed) {
    competitions.set(NATIONAL_TEAM_COMPETITION, { id: NATIONAL_TEAM_COMPETITION, name: 'National Team', country: null, type: 'NATIONAL_TEAM', tier: null, registry_a_code: null });
  }
  return { rows: appearances, playedBy, nationalTeamOf };
}
