import type { ClubRow, ClubSeasonRow, CompetitionRow, MatchRow } from '../../domain/world.js';
import { seasonOf } from '../../domain/season.js';
import { parseDate, parseId, parseNumber } from './mapping.js';
import { laterDate, type TableReader } from './table-reader.js';
import type { ClubBook } from './tm-clubs.js';

export interface GameIn {
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

export interface Games {
  /** By game id: the games kept, for the lineups and appearances. */
  byId: Map<number, GameIn>;
  matches: MatchRow[];
  clubSeasons: ClubSeasonRow[];
  dataEnd: string;
}

/** games.csv, then club_games.csv (which fills in missing scores): the matches and who played in which league. */
export async function readGames(rd: TableReader, book: ClubBook, competitions: ReadonlyMap<string, CompetitionRow>): Promise<Games> {
  let dataEnd = '0000-01-01';
  const games = new Map<number, GameIn>();
  await rd.eachRow('games', rd.files.get('games'), (item, r) => {
    const id = parseId(r.game_id);
    if (id === null) return rd.reject('games', item, r.game_id ? 'bad_number' : 'missing_field', `game_id ${JSON.stringify(r.game_id ?? '')}`);
    const home = parseId(r.home_club_id);
    const away = parseId(r.away_club_id);
    if (home === null || away === null) return rd.reject('games', item, 'missing_field', 'home_club_id/away_club_id');
    // Names first: even a game rejected below tells what a club is called.
    book.addName(home, r.home_club_name ?? '');
    book.addName(away, r.away_club_name ?? '');
    const date = parseDate(r.date);
    if (!date.ok) return rd.reject('games', item, 'bad_date', `date ${JSON.stringify(r.date)}`);
    if (date.value === null) return rd.reject('games', item, 'missing_field', 'date');
    const season = parseNumber(r.season);
    if (!season.ok || (season.value !== null && !Number.isInteger(season.value))) return rd.reject('games', item, 'bad_number', `season ${JSON.stringify(r.season)}`);
    const hg = parseNumber(r.home_club_goals);
    const ag = parseNumber(r.away_club_goals);
    if (!hg.ok || !ag.ok) return rd.reject('games', item, 'bad_number', `goals ${JSON.stringify(r.home_club_goals)}:${JSON.stringify(r.away_club_goals)}`);
    if (games.has(id)) return rd.reject('games', item, 'duplicate', `game_id ${id}`);
    const comp = (r.competition_id ?? '').trim();
    if (!competitions.has(comp)) return rd.reject('games', item, 'unknown_competition', `competition_id ${JSON.stringify(comp)}`);
    dataEnd = laterDate(dataEnd, date.value);
    games.set(id, {
      id, line: item.line, raw: item.raw, competitionTm: comp, season: season.value ?? seasonOf(date.value), date: date.value, home, away,
      homeGoals: hg.value, awayGoals: ag.value,
    });
    return true;
  });
  const gamesSummary = rd.tables.games;
  for (const g of games.values()) {
    if (!book.ensure(g.home) || !book.ensure(g.away)) {
      rd.rejects.add('games', g.line, 'unknown_club', `club ${!book.clubs.has(g.home) ? g.home : g.away} is in no file with a name`, g.raw);
      games.delete(g.id);
      gamesSummary.loaded--;
    }
  }

  await rd.eachRow('club_games', rd.files.get('club_games'), (item, r) => {
    const game = parseId(r.game_id);
    const club = parseId(r.club_id);
    if (game === null || club === null) return rd.reject('club_games', item, 'missing_field', 'game_id/club_id');
    const own = parseNumber(r.own_goals);
    const opp = parseNumber(r.opponent_goals);
    if (!own.ok || !opp.ok) return rd.reject('club_games', item, 'bad_number', `goals ${JSON.stringify(r.own_goals)}:${JSON.stringify(r.opponent_goals)}`);
    const g = games.get(game);
    if (!g) return rd.reject('club_games', item, 'unknown_game', `game_id ${game}`);
    if (club !== g.home && club !== g.away) return rd.reject('club_games', item, 'unknown_club', `club ${club} did not play game ${game}`);
    // Fills a score games.csv lacks.
    const home = club === g.home;
    if (g.homeGoals === null && (home ? own.value : opp.value) !== null) {
      g.homeGoals = home ? own.value : opp.value;
      rd.note('club_games', 'score_filled_in');
    }
    if (g.awayGoals === null && (home ? opp.value : own.value) !== null) g.awayGoals = home ? opp.value : own.value;
    return true;
  });
  rd.finish('club_games');
  const matches: MatchRow[] = [];
  const clubSeasonKeys = new Set<string>();
  const clubSeasons: ClubSeasonRow[] = [];
  for (const g of games.values()) {
    const comp = competitions.get(g.competitionTm) as CompetitionRow;
    const home = book.clubs.get(g.home) as ClubRow;
    const away = book.clubs.get(g.away) as ClubRow;
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
      rd.note('games', 'no_score_not_a_match');
      continue;
    }
    matches.push({
      id: `tm-game-${g.id}`, competition_id: comp.id, season: g.season, date: g.date, home_club_id: home.id, away_club_id: away.id,
      home_goals: g.homeGoals, away_goals: g.awayGoals,
    });
  }
  rd.finish('games');
  return { byId: games, matches, clubSeasons, dataEnd };
}
