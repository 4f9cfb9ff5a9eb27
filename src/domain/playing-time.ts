import type { Snapshot } from './snapshot.js';

/** The competition types playing_time shows, in the order it shows them (SPEC rules 2 and 4). */
export const SHOWN_TYPES = ['DOMESTIC_LEAGUE', 'DOMESTIC_CUP', 'INTERNATIONAL_CUP', 'INTERNATIONAL_SUPERCUP', 'NATIONAL_TEAM'] as const;
export type ShownType = (typeof SHOWN_TYPES)[number];

export interface CompetitionEntry {
  competition: string;
  competition_name: string;
  competition_type: ShownType;
  club_id: string;
  club_name: string;
  minutes_played: number;
  appearances: number;
  starting_xi_count: number;
}

export interface SeasonEntry {
  season: number;
  competitions: CompetitionEntry[];
}

/**
 * A player's playing time, newest season first: matches not played are left out (rule 1), youth,
 * friendlies, reserves and domestic supercups are omitted (rule 2), one entry per club (rule 3),
 * entries ordered by type, competition id, club name (rule 4), national team as the club (rule 5).
 */
export function playingTime(snapshot: Snapshot, playerId: string, onlySeason: number | null): SeasonEntry[] {
  const bySeason = new Map<number, CompetitionEntry[]>();
  for (const a of snapshot.appearances.get(playerId) ?? []) {
    if (a.appearances <= 0) continue;
    if (onlySeason !== null && a.season !== onlySeason) continue;
    const comp = snapshot.competitions.get(a.competition_id);
    const type = comp?.type as ShownType | undefined;
    if (!comp || !type || !SHOWN_TYPES.includes(type)) continue;
    const list = bySeason.get(a.season) ?? [];
    list.push({
      competition: comp.id,
      competition_name: comp.name,
      competition_type: type,
      club_id: a.club_id,
      club_name: snapshot.clubs.get(a.club_id)?.name ?? '',
      minutes_played: a.minutes,
      appearances: a.appearances,
      starting_xi_count: a.starts,
    });
    bySeason.set(a.season, list);
  }
  const rank = (t: ShownType) => SHOWN_TYPES.indexOf(t);
  return [...bySeason.entries()]
    .sort((a, b) => b[0] - a[0])
    .map(([season, competitions]) => ({
      season,
      competitions: competitions.sort(
        (x, y) =>
          rank(x.competition_type) - rank(y.competition_type) ||
          (x.competition < y.competition ? -1 : x.competition > y.competition ? 1 : 0) ||
          x.club_name.localeCompare(y.club_name),
      ),
    }));
}
