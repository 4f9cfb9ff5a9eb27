/**
 * What one caller may see, as the discovery indexes ask it. http/ builds it from the caller's plan
 * with access/'s rules, so the indexes never judge coverage themselves.
 */
export interface Scope {
  /** The plan covers everything: no question needs asking. */
  readonly all: boolean;
  club(clubId: string | null): boolean;
  competition(competitionId: string): boolean;
  player(currentTeamId: string | null, owningClubId: string | null): boolean;
}

export const EVERYTHING: Scope = Object.freeze({ all: true, club: () => true, competition: () => true, player: () => true });
