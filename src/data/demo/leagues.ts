import type { CompetitionRow } from '../../domain/world.js';

export interface LeagueDef {
  readonly id: string;
  readonly name: string;
  readonly code: string;
  readonly country: string;
  readonly tier: 1 | 2;
  readonly size: number;
  /** Rating level (best-XI scale) of a mid-table club, and the spread from bottom to top. */
  readonly base: number;
  readonly spread: number;
  /** Log-value premium of playing in the league (revenue and visibility). */
  readonly valueAdj: number;
  readonly foreignShare: number;
  /** Places in the international cups from the previous season's table. */
  readonly championsPlaces: number;
  readonly challengePlaces: number;
  /** Month and day of the first weekend and of the last round. */
  readonly opening: readonly [number, number];
  readonly closing: readonly [number, number];
}

export const LEAGUES: readonly LeagueDef[] = [
  { id: 'PREMIER_DIVISION', name: 'Premier Division', code: 'ENG1', country: 'England', tier: 1, size: 20, base: 76, spread: 11, valueAdj: 0.35, foreignShare: 0.6, championsPlaces: 4, challengePlaces: 2, opening: [8, 10], closing: [5, 20] },
  { id: 'FIRST_DIVISION', name: 'First Division', code: 'ENG2', country: 'England', tier: 2, size: 20, base: 67, spread: 6, valueAdj: -0.5, foreignShare: 0.3, championsPlaces: 0, challengePlaces: 0, opening: [8, 3], closing: [5, 6] },
  { id: 'PRIMERA_LIGA', name: 'Primera Liga', code: 'ESP1', country: 'Spain', tier: 1, size: 20, base: 75, spread: 11, valueAdj: 0.1, foreignShare: 0.38, championsPlaces: 4, challengePlaces: 2, opening: [8, 15], closing: [5, 25] },
  { id: 'ERSTE_LIGA', name: 'Erste Liga', code: 'GER1', country: 'Germany', tier: 1, size: 18, base: 74.5, spread: 10, valueAdj: 0.05, foreignShare: 0.5, championsPlaces: 3, challengePlaces: 2, opening: [8, 20], closing: [5, 18] },
  { id: 'SERIE_NAZIONALE', name: 'Serie Nazionale', code: 'ITA1', country: 'Italy', tier: 1, size: 20, base: 74.5, spread: 10, valueAdj: 0.05, foreignShare: 0.55, championsPlaces: 3, challengePlaces: 2, opening: [8, 18], closing: [5, 26] },
  { id: 'DIVISION_ELITE', name: 'Division Élite', code: 'FRA1', country: 'France', tier: 1, size: 18, base: 73, spread: 10, valueAdj: -0.1, foreignShare: 0.45, championsPlaces: 2, challengePlaces: 2, opening: [8, 14], closing: [5, 19] },
];

/** Clubs going down from tier 1 and up from tier 2 in a country with two tiers. */
export const PROMOTION_PLACES = 3;

export interface CountryCups {
  readonly country: string;
  readonly cup: CompetitionRow;
  readonly supercup: CompetitionRow;
}

const cup = (id: string, name: string, country: string, code: string): CompetitionRow => ({ id, name, country, type: 'DOMESTIC_CUP', tier: null, registry_a_code: code });
const supercup = (id: string, name: string, country: string, code: string): CompetitionRow => ({ id, name, country, type: 'DOMESTIC_SUPERCUP', tier: null, registry_a_code: code });

export const COUNTRY_CUPS: readonly CountryCups[] = [
  { country: 'England', cup: cup('ASSOCIATION_CUP', 'Association Cup', 'England', 'ENGC'), supercup: supercup('CHAMPIONS_SHIELD', 'Champions Shield', 'England', 'ENGS') },
  { country: 'Spain', cup: cup('COPA_NACIONAL', 'Copa Nacional', 'Spain', 'ESPC'), supercup: supercup('SUPERCOPA_NACIONAL', 'Supercopa Nacional', 'Spain', 'ESPS') },
  { country: 'Germany', cup: cup('VEREINSPOKAL', 'Vereinspokal', 'Germany', 'GERC'), supercup: supercup('LIGA_SUPERPOKAL', 'Liga-Superpokal', 'Germany', 'GERS') },
  { country: 'Italy', cup: cup('COPPA_NAZIONALE', 'Coppa Nazionale', 'Italy', 'ITAC'), supercup: supercup('SUPERCOPPA_NAZIONALE', 'Supercoppa Nazionale', 'Italy', 'ITAS') },
  { country: 'France', cup: cup('COUPE_NATIONALE', 'Coupe Nationale', 'France', 'FRAC'), supercup: supercup('TROPHEE_NATIONAL', 'Trophée National', 'France', 'FRAS') },
];

export const CHAMPIONS_CUP: CompetitionRow = { id: 'CONTINENTAL_CHAMPIONS_CUP', name: 'Continental Champions Cup', country: null, type: 'INTERNATIONAL_CUP', tier: null, registry_a_code: 'CCC' };
export const CHALLENGE_CUP: CompetitionRow = { id: 'CONTINENTAL_CHALLENGE_CUP', name: 'Continental Challenge Cup', country: null, type: 'INTERNATIONAL_CUP', tier: null, registry_a_code: 'CHC' };
export const SUPER_CUP: CompetitionRow = { id: 'CONTINENTAL_SUPER_CUP', name: 'Continental Super Cup', country: null, type: 'INTERNATIONAL_SUPERCUP', tier: null, registry_a_code: 'CSC' };
export const NATIONAL_MATCHES: CompetitionRow = { id: 'INTERNATIONAL_MATCHES', name: 'International Matches', country: null, type: 'NATIONAL_TEAM', tier: null, registry_a_code: 'INT' };

export function leagueCompetition(l: LeagueDef): CompetitionRow {
  return { id: l.id, name: l.name, country: l.country, type: 'DOMESTIC_LEAGUE', tier: l.tier, registry_a_code: l.code };
}
