import type { Principal } from '../access/interface.js';
import { isClubCovered, isCompetitionCovered, isPlayerCovered } from '../access/plans.js';
import type { PlayerRow, ClubRow } from '../domain/world.js';
import type { Snapshot } from '../domain/snapshot.js';
import { playerFacts, type PlayerFacts } from '../domain/player-facts.js';
import { memoFor } from '../domain/memo.js';
import type { Scope } from '../discovery/scope.js';
import { forbidden, notFound } from './errors.js';

/** A club is covered by its league this season, or by the league it was named for in the analysis season. */
export function clubCovered(snapshot: Snapshot, principal: Principal, clubId: string | null): boolean {
  return isClubCovered(principal.coverage, clubId, (id) => snapshot.leagueOfClub.get(id)) ||
    isClubCovered(principal.coverage, clubId, (id) => snapshot.analysisLeagueOfClub.get(id));
}

export function competitionCovered(principal: Principal, competitionId: string): boolean {
  return isCompetitionCovered(principal.coverage, competitionId);
}

/** 404 for an unknown club, then 403 when it is outside the plan. */
export function requireClub(snapshot: Snapshot, principal: Principal, clubId: string): ClubRow {
  const club = snapshot.clubs.get(clubId);
  if (!club) throw notFound.club();
  if (!clubCovered(snapshot, principal, clubId)) throw forbidden.club();
  return club;
}

export function playerCovered(snapshot: Snapshot, principal: Principal, facts: PlayerFacts): boolean {
  return isPlayerCovered(principal.coverage, facts.currentTeamId, facts.owningClubId, (id) => snapshot.leagueOfClub.get(id));
}

/** 404 for an unknown player, then 403 outside coverage; `analysis` adds the analysis-data 403. */
export function requirePlayer(snapshot: Snapshot, principal: Principal, playerId: string, opts: { analysis?: boolean } = {}): PlayerFacts {
  const player: PlayerRow | undefined = snapshot.players.get(playerId);
  if (!player) throw notFound.player();
  const facts = playerFacts(snapshot, player);
  if (!playerCovered(snapshot, principal, facts)) throw forbidden.player();
  if (opts.analysis && !player.analysis_available) throw forbidden.analysis();
  return facts;
}

/** A player and a club together: 404 player, 404 club, 403 player coverage, 403 club coverage, 403 analysis. */
export function requirePlayerAndClub(snapshot: Snapshot, principal: Principal, playerId: string, clubId: string): PlayerFacts {
  if (!snapshot.players.has(playerId)) throw notFound.player();
  if (!snapshot.clubs.has(clubId)) throw notFound.club();
  requirePlayer(snapshot, principal, playerId);
  requireClub(snapshot, principal, clubId);
  return requirePlayer(snapshot, principal, playerId, { analysis: true });
}

/**
 * The caller's plan as the discovery indexes ask it, by access/'s rules; made once per plan
 * coverage and snapshot. `key` names the coverage, so the indexes can keep what a plan sees.
 */
export function scopeOf(snapshot: Snapshot, principal: Principal): { scope: Scope; key: string } {
  const coverage = principal.coverage;
  return memoFor([snapshot, coverage], 'scope', () => {
    const leagueOf = (id: string) => snapshot.leagueOfClub.get(id);
    const scope: Scope = {
      all: coverage.all,
      club: (clubId) => isClubCovered(coverage, clubId, leagueOf),
      competition: (competitionId) => isCompetitionCovered(coverage, competitionId),
      player: (team, owner) => isPlayerCovered(coverage, team, owner, leagueOf),
    };
    const key = coverage.all ? 'all' : `${[...coverage.competitions].sort().join(',')}|${[...coverage.clubs].sort().join(',')}`;
    return { scope, key };
  });
}

/**
 * The clubs the caller's plan covers, as a list a worker thread can take (null: every club); a player
 * is covered when his current team or owning club is in it, which is access/'s rule. Once per plan
 * coverage and snapshot.
 */
export function coveredClubsOf(snapshot: Snapshot, principal: Principal): { clubs: string[] | null; key: string } {
  return memoFor([snapshot, principal.coverage], 'covered clubs', () => {
    const { scope, key } = scopeOf(snapshot, principal);
    return { clubs: scope.all ? null : [...snapshot.clubs.keys()].filter((id) => scope.club(id)), key };
  });
}
