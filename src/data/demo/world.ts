/**
 * The synthetic demo world, season by season from a burn-in: the clubs (clubs.ts), players (players.ts),
 * their moves and money (moves.ts, money.ts), squads and windows (squads.ts, windows.ts), results
 * (results.ts) and the rows emitted (rows.ts), all over one DemoState (state.ts).
 */
import { ROLES } from '../../domain/roles.js';
import type { RoleRow, WorldData } from '../../domain/world.js';
import { ymd } from '../../domain/days.js';
import { DemoState } from './state.js';
import { buildClubs, buildCompetitions } from './clubs.js';
import { ensureRated } from './players.js';
import { inWorld, shownAbroad } from './moves.js';
import { initialSquads } from './squads.js';
import { fillAndTrim, renewals, summer, summerLoans, windowRange, winter } from './windows.js';
import { endSeason, playSeason } from './results.js';
import { appearances, careerSteps, emitValues, nationalTeams } from './rows.js';

export class DemoWorld extends DemoState {
  generate(): WorldData {
    buildCompetitions(this);
    buildClubs(this);
    for (let s = this.start; s <= this.current; s++) {
      this.season = s;
      const window = windowRange(this, ymd(s, 7, 2), ymd(s, 8, 31));
      if (s === this.start) initialSquads(this, s);
      else summer(this, s, window);
      summerLoans(this, s, window);
      fillAndTrim(this, s, window);
      for (const p of this.players) if (inWorld(this, p) || shownAbroad(this, p)) ensureRated(this, p, s);
      playSeason(this, s);
      renewals(this, s);
      emitValues(this, ymd(s, 12, 1));
      winter(this, s);
      emitValues(this, ymd(s + 1, 6, 1));
      if (s < this.current) endSeason(this);
    }
    nationalTeams(this);
    const appearanceRows = appearances(this);
    // Players gone before the first shown season never appear, nor do their rows.
    const kept = this.players.filter((p) => p.ratings.size > 0);
    const keptIds = new Set(kept.map((p) => p.row.id));
    return {
      roles: ROLES.map((r): RoleRow => ({ id: r.role, name: r.name, description: r.description, positions: [...r.positions] })),
      competitions: this.competitions,
      clubs: this.clubs.map((c) => c.row),
      club_seasons: this.clubSeasons,
      players: kept.map((p) => p.row),
      contracts: this.contracts.filter((c) => keptIds.has(c.player_id)),
      career_steps: careerSteps(this, kept),
      appearances: appearanceRows,
      market_values: this.values,
      transfers: this.transfers.filter((t) => keptIds.has(t.player_id)),
      ratings: this.ratings,
      // The demo world has no external attribute profiles: similarity reads its ratings and roles.
      player_attributes: [],
      matches: this.matches,
    };
  }

  /**
   * The squads the generator holds once it is done (club id -> player ids, sorted), of the players its
   * output keeps: what the career steps must say, for tests.
   */
  squads(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const c of this.clubs) {
      const ids = [...c.team].filter((p) => p.ratings.size > 0).map((p) => p.row.id).sort();
      if (ids.length > 0) out.set(c.row.id, ids);
    }
    return out;
  }
}
