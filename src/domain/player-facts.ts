import { findRole, ROLES } from '../domain/roles.js';
import { ageOn } from '../domain/season.js';
import type { CareerStepRow, PlayerRow, RatingRow } from './world.js';
import type { Snapshot } from './snapshot.js';
import { memoTable } from './memo.js';

/** Derived facts about one player at the snapshot's as-of date. */
export interface PlayerFacts {
  readonly player: PlayerRow;
  readonly currentStep: CareerStepRow | null;
  readonly currentTeamId: string | null;
  /**
   * At a club at the as-of date (a running career step). Players the data lost track of (retired, or gone to
   * leagues it does not follow) are not: reference lookups still find them, but lists of players to sign do not.
   */
  readonly inWorldNow: boolean;
  readonly owningClubId: string | null;
  readonly lastActiveClubId: string | null;
  readonly position: string;
  readonly role: string;
  readonly latestRating: RatingRow | null;
  readonly age: number | null;
}

const DEFAULT_POSITION = 'CM';

export function defaultRoleFor(position: string): string {
  return (ROLES.find((r) => (r.positions as readonly string[]).includes(position)) ?? ROLES[0]).role;
}

/** The club where he played the most minutes in his latest season with minutes, national teams aside. */
function lastActiveClub(snapshot: Snapshot, playerId: string): string | null {
  const rows = (snapshot.appearances.get(playerId) ?? []).filter((a) => a.minutes > 0 && !snapshot.clubs.get(a.club_id)?.is_national_team);
  if (rows.length === 0) return null;
  const season = Math.max(...rows.map((r) => r.season));
  const minutesByClub = new Map<string, number>();
  for (const r of rows) if (r.season === season) minutesByClub.set(r.club_id, (minutesByClub.get(r.club_id) ?? 0) + r.minutes);
  return [...minutesByClub].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0][0];
}

/** Facts never change within a snapshot: computed once per player and snapshot. */
export function playerFacts(snapshot: Snapshot, player: PlayerRow): PlayerFacts {
  const cache = memoTable<PlayerFacts>(snapshot.dataIdentity, 'player-facts');
  let facts = cache.get(player.id);
  if (!facts) cache.set(player.id, (facts = computeFacts(snapshot, player)));
  return facts;
}

function computeFacts(snapshot: Snapshot, player: PlayerRow): PlayerFacts {
  const steps = snapshot.careers.get(player.id) ?? [];
  const last = steps.length > 0 ? steps[steps.length - 1] : null;
  const currentStep = last && last.end_date === null ? last : null;
  // No running step, no current team: a market value's club says nothing about today (values go stale, and the
  // imported ones carry no dated club of their own).
  const currentTeamId = currentStep?.club_id ?? null;
  const owningClubId = currentStep?.is_loan && currentStep.parent_club_id ? currentStep.parent_club_id : currentTeamId;
  const ratings = snapshot.ratings.get(player.id);
  const latestRating = ratings && ratings.length > 0 ? ratings[ratings.length - 1] : null;
  const position = latestRating?.position ?? player.position ?? DEFAULT_POSITION;
  const role = latestRating && findRole(latestRating.best_role) ? latestRating.best_role : defaultRoleFor(position);
  return {
    player,
    currentStep,
    currentTeamId,
    inWorldNow: currentStep !== null,
    owningClubId,
    lastActiveClubId: lastActiveClub(snapshot, player.id) ?? last?.club_id ?? null,
    position,
    role,
    latestRating,
    age: player.birth_date ? ageOn(player.birth_date, snapshot.asOf) : null,
  };
}
