/**
 * How newly promoted clubs actually did, learned from the seasons in the data: a club in a league's
 * season that was not in its previous season (both seasons in the data) is promoted. Per promoted
 * club we read its first season's goals scored and conceded per game against the league's average
 * per game, and its final place. In a double round robin everybody meets everybody twice, so
 * log(goals per game / league average) is the Poisson attack of the club (and minus the same for
 * goals conceded its defence), in the units of the simulation's strengths, without a schedule fit.
 *
 * A league's figures are its own promoted clubs' means shrunk towards the pooled mean of every
 * league (`shrink` clubs' worth of the pooled mean), so a league with few promotions in the data
 * leans on the others. Only seasons complete by the as-of date are read.
 */
import type { MatchRow } from '../../domain/world.js';

export interface PromotedLevel {
  /** mean attack and defence of promoted clubs in their first season, against their league's mean (0) */
  attack: number;
  defence: number;
  /** mean final place of promoted clubs as a share of the league: (place - 1) / (clubs - 1), 0 first, 1 last */
  finish: number;
  /** promoted club-seasons behind the league's own means */
  clubs: number;
}

export interface PromotedPrior {
  pooled: PromotedLevel;
  leagues: Record<string, PromotedLevel>;
  shrink: number;
}

interface Line { club: string; pts: number; gd: number; gf: number; ga: number; games: number }

/** The season's table: points, goal difference, goals scored, then club id. */
export function seasonTable(games: readonly MatchRow[]): Line[] {
  const rows = new Map<string, Line>();
  const line = (c: string) => {
    let r = rows.get(c);
    if (!r) rows.set(c, (r = { club: c, pts: 0, gd: 0, gf: 0, ga: 0, games: 0 }));
    return r;
  };
  for (const g of games) {
    const h = line(g.home_club_id), a = line(g.away_club_id);
    h.games++; a.games++;
    h.gf += g.home_goals; h.ga += g.away_goals; a.gf += g.away_goals; a.ga += g.home_goals;
    h.gd += g.home_goals - g.away_goals; a.gd += g.away_goals - g.home_goals;
    if (g.home_goals > g.away_goals) h.pts += 3;
    else if (g.home_goals < g.away_goals) a.pts += 3;
    else { h.pts++; a.pts++; }
  }
  return [...rows.values()].sort((x, y) => y.pts - x.pts || y.gd - x.gd || y.gf - x.gf || (x.club < y.club ? -1 : 1));
}

/** One promoted club's first season. */
export interface PromotedSeason { league: string; season: number; club: string; attack: number; defence: number; finish: number; place: number; clubs: number }

/**
 * Every promoted club-season of the leagues given, from their matches: seasons whose last game is on
 * or before `asOf` and whose previous season is in the data.
 */
export function promotedSeasons(matches: readonly MatchRow[], leagues: ReadonlySet<string>, asOf: string): PromotedSeason[] {
  const bySeason = new Map<string, MatchRow[]>();
  for (const m of matches) {
    if (!leagues.has(m.competition_id)) continue;
    const key = `${m.competition_id}|${m.season}`;
    const list = bySeason.get(key);
    if (list) list.push(m); else bySeason.set(key, [m]);
  }
  const out: PromotedSeason[] = [];
  for (const [key, games] of [...bySeason].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const [league, s] = key.split('|');
    const season = Number(s);
    if (games.some((g) => g.date > asOf)) continue;
    // a season still being played is not a finish: every club must have met every other twice
    const table = seasonTable(games);
    const n = table.length;
    if (n < 4 || table.some((l) => l.games < 2 * (n - 1))) continue;
    const previous = bySeason.get(`${league}|${season - 1}`);
    if (!previous) continue;
    const before = new Set(previous.flatMap((g) => [g.home_club_id, g.away_club_id]));
    const goals = table.reduce((a, l) => a + l.gf, 0);
    const perGame = goals / table.reduce((a, l) => a + l.games, 0);
    if (!(perGame > 0)) continue;
    table.forEach((l, i) => {
      if (before.has(l.club) || l.games === 0) return;
      // half a goal keeps a goalless season finite
      out.push({
        league, season, club: l.club,
        attack: Math.log(Math.max(0.5, l.gf) / l.games / perGame),
        defence: -Math.log(Math.max(0.5, l.ga) / l.games / perGame),
        finish: i / (n - 1), place: i + 1, clubs: n,
      });
    });
  }
  return out;
}

const mean = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0) / Math.max(1, xs.length);

/** Learns the level of promoted clubs per league (see the header). */
export function fitPromotedPrior(matches: readonly MatchRow[], leagues: ReadonlySet<string>, asOf: string, shrink = 8): PromotedPrior {
  const rows = promotedSeasons(matches, leagues, asOf);
  const pooled: PromotedLevel = {
    attack: mean(rows.map((r) => r.attack)), defence: mean(rows.map((r) => r.defence)), finish: rows.length ? mean(rows.map((r) => r.finish)) : 0.75, clubs: rows.length,
  };
  const leaguesOut: Record<string, PromotedLevel> = {};
  for (const league of [...new Set(rows.map((r) => r.league))].sort()) {
    const own = rows.filter((r) => r.league === league);
    const w = own.length / (own.length + shrink);
    const blend = (f: (r: PromotedSeason) => number, p: number) => w * mean(own.map(f)) + (1 - w) * p;
    leaguesOut[league] = { attack: blend((r) => r.attack, pooled.attack), defence: blend((r) => r.defence, pooled.defence), finish: blend((r) => r.finish, pooled.finish), clubs: own.length };
  }
  return { pooled, leagues: leaguesOut, shrink };
}

/** The level of a promoted club in `league`: its own (shrunk) figures, else the pooled ones. */
export function promotedLevel(prior: PromotedPrior, league: string): PromotedLevel {
  return prior.leagues[league] ?? prior.pooled;
}
