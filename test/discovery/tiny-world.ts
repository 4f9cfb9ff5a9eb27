import { stableId } from '../../src/domain/ids.js';
import type { WorldData } from '../../src/domain/world.js';

/** A small hand-made world for the discovery indexes: two leagues, a few clubs, named players. */
export interface TinyPlayer {
  name: string;
  club: 'A1' | 'A2' | 'B1' | 'X';
  value?: number | null;
  nationality?: string;
  position?: string;
}

export const AS_OF = '2026-06-30';
export const clubId = (key: string) => stableId('C', `tiny:${key}`);
export const playerId = (name: string) => stableId('P', `tiny:${name}`);

export function tinyWorld(players: readonly TinyPlayer[]): WorldData {
  const clubs = [
    { key: 'A1', name: 'Real Sociedad', league: 'LEAGUE_A' },
    { key: 'A2', name: 'Malmö FF', league: 'LEAGUE_A' },
    { key: 'B1', name: 'Bayern Munich', league: 'LEAGUE_B' },
    { key: 'X', name: 'Unattached FC', league: null },
  ];
  return {
    roles: [],
    competitions: [
      { id: 'LEAGUE_A', name: 'League Alpha', country: 'Spain', type: 'DOMESTIC_LEAGUE', tier: 1, registry_a_code: null },
      { id: 'LEAGUE_B', name: 'Bundesliga Beta', country: 'Germany', type: 'DOMESTIC_LEAGUE', tier: 1, registry_a_code: null },
    ],
    clubs: clubs.map((c, i) => ({ id: clubId(c.key), registry_a_id: i + 1, name: c.name, country: null, is_national_team: false })),
    club_seasons: clubs.filter((c) => c.league !== null).map((c) => ({ club_id: clubId(c.key), season: 2025, competition_id: c.league! })),
    players: players.map((p, i) => ({
      id: playerId(p.name),
      registry_a_id: i + 1,
      registry_b_id: null,
      name: p.name,
      first_name: p.name.split(' ')[0],
      last_name: p.name.split(' ').slice(1).join(' '),
      alias: null,
      nationality: p.nationality ?? 'Spain',
      birth_date: '2000-01-01',
      height_cm: null,
      foot: 'Right',
      position: p.position ?? 'CM',
      national_team_id: null,
      analysis_available: true,
    })),
    contracts: [],
    career_steps: players.map((p) => ({ player_id: playerId(p.name), club_id: clubId(p.club), start_date: '2024-07-01', end_date: null, is_loan: false, parent_club_id: null })),
    appearances: [],
    market_values: players.flatMap((p) => [
      { player_id: playerId(p.name), date: '2025-01-01', value_eur: 1_000_000, club_id: clubId(p.club) },
      ...(p.value === null ? [] : [{ player_id: playerId(p.name), date: '2026-01-01', value_eur: p.value ?? 1_000_000, club_id: clubId(p.club) }]),
      // After the as-of date: never seen.
      { player_id: playerId(p.name), date: '2026-12-01', value_eur: 999_000_000, club_id: clubId(p.club) },
    ]).filter((v) => !(players.find((p) => playerId(p.name) === v.player_id)?.value === null)),
    transfers: [],
    ratings: [],
    player_attributes: [],
    matches: [],
  };
}
