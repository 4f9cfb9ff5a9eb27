/**
 * What a simulation assumed about its season, as warnings: which season's clubs it plays
 * (`season_clubs_assumed` when the operator has not named the analysis season's clubs of the league)
 * and how thin a simulated club's squad is (`thin_squad`: fewer than 18 players with analysis data,
 * and what the rest was filled with).
 */
import { seasonLabel } from '../../domain/season.js';
import type { Snapshot } from '../../domain/snapshot.js';
import { fillRating, newlyNamed, promotedStrength, squadEvidence, THIN_SQUAD } from './club-squad.js';
import { promotedLevel } from '../league/promoted.js';
import type { ImpactArtifact } from './model.js';

export type SeasonWarningCode = 'season_clubs_assumed' | 'thin_squad';

export interface SeasonWarning {
  code: SeasonWarningCode;
  /** one plain sentence with the numbers in it */
  message: string;
}

const nameOf = (snapshot: Snapshot, club: string) => snapshot.clubs.get(club)?.name ?? club;
const leagueName = (snapshot: Snapshot, league: string) => snapshot.competitions.get(league)?.name ?? league;

/** `season_clubs_assumed` when the league's analysis-season clubs were not named; else nothing. */
export function seasonClubsWarnings(snapshot: Snapshot, league: string): SeasonWarning[] {
  if (snapshot.declaredLeagues.has(league)) return [];
  const clubs = snapshot.analysisClubsOfLeague.get(league)?.length ?? 0;
  return [{
    code: 'season_clubs_assumed',
    message: `The ${seasonLabel(snapshot.analysisSeason)} clubs of ${leagueName(snapshot, league)} were not named (touchline leagues set-clubs), ` +
      `so its ${clubs} clubs of ${seasonLabel(snapshot.currentSeason)} are simulated.`,
  }];
}

/** How a newly named club's place was set (the promoted blend), as the end of the thin_squad sentence. */
function placedAt(artifact: ImpactArtifact, snapshot: Snapshot, club: string, league: string): string {
  const p = promotedStrength(artifact, snapshot, club);
  if (!p) return '';
  const n = snapshot.analysisClubsOfLeague.get(league)?.length ?? 2;
  const at = (share: number) => (1 + share * (n - 1)).toFixed(1);
  return `; blending the rank its squad gives (${at(p.squadPlace)}) with where promoted clubs finish ` +
    `(squad weight ${artifact.settings.promotedBlend.squadWeight.toFixed(2)}), its strength is set so that it ranks about ${at(p.blendedPlace)} of ${n}`;
}

/**
 * `thin_squad` when the club is simulated with fewer than 18 players with analysis data: `players`
 * is how many (its actual squad's when not given, a custom squad's size otherwise).
 */
export function thinSquadWarnings(artifact: ImpactArtifact, snapshot: Snapshot, club: string, players?: number): SeasonWarning[] {
  const evidence = squadEvidence(artifact, snapshot, club);
  const n = players ?? evidence.players;
  if (n >= THIN_SQUAD) return [];
  const who = `${nameOf(snapshot, club)} is simulated with ${n} player${n === 1 ? '' : 's'} with analysis data (fewer than ${THIN_SQUAD})`;
  const league = snapshot.analysisLeagueOfClub.get(club);
  const level = newlyNamed(snapshot, club) && league ? fillRating(artifact, league) : null;
  if (level !== null && league) {
    const prior = promotedLevel(artifact.promoted, league);
    const place = 1 + prior.finish * ((snapshot.analysisClubsOfLeague.get(league)?.length ?? 2) - 1);
    return [{
      code: 'thin_squad',
      message: `${who}; the rest of a full squad of 22 is filled with stand-ins rated ${level.toFixed(1)}, the level at which promoted clubs of ` +
        `${leagueName(snapshot, league)} played their first season in the data (${prior.clubs} such clubs, mean finish ${place.toFixed(1)})${placedAt(artifact, snapshot, club, league)}.`,
    }];
  }
  return [{
    code: 'thin_squad',
    message: `${who}; every empty place in its match-day XI and bench is filled by a youth stand-in rated ${artifact.settings.replacementRating}.`,
  }];
}

/** The club's league's season warning, then its squad's. */
export function clubSeasonWarnings(artifact: ImpactArtifact, snapshot: Snapshot, club: string, players?: number): SeasonWarning[] {
  const league = snapshot.analysisLeagueOfClub.get(club);
  return [...(league ? seasonClubsWarnings(snapshot, league) : []), ...thinSquadWarnings(artifact, snapshot, club, players)];
}

/** A league forecast's warnings: the season's, then every thin club's, in the league's order. */
export function forecastWarnings(artifact: ImpactArtifact, snapshot: Snapshot, league: string): SeasonWarning[] {
  const clubs = snapshot.analysisClubsOfLeague.get(league) ?? [];
  return [...seasonClubsWarnings(snapshot, league), ...clubs.flatMap((c) => thinSquadWarnings(artifact, snapshot, c))];
}
