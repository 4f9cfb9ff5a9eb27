import { findRole } from '../../domain/roles.js';
import type { PlayerAttribute } from '../../domain/world.js';
import { eaRoles, type EaAttributes } from './ea-roles.js';
import { eaPosition, firstRoleFor, normaliseName } from './mapping.js';

/** What the EA matcher needs to know of one of our players. */
export interface MatchPlayer {
  id: string;
  tmId: number;
  name: string;
  lastName: string;
  birthYear: number | null;
  /** Names of the clubs he was at during 2023/24 (all spellings known). */
  clubNames: string[];
}

export interface Ea24Row {
  line: number;
  sofifaId: number;
  name: string;
  club: string;
  age: number;
  overall: number;
  position: string;
  /** Detailed attributes for the role (null when the row lacks one). */
  roleAttributes?: EaAttributes | null;
  foot?: string;
  /** The attribute profile the row gives (PLAYER_ATTRIBUTES names), stored for a matched player. */
  attributes: Partial<Record<PlayerAttribute, number>>;
}

/** FC 24 columns (their truncated header names) -> our attribute names. */
const FC24_COLUMNS: ReadonlyArray<readonly [string, PlayerAttribute]> = [
  ['Pace', 'pace'], ['Shooting', 'shooting'], ['Passing', 'passing'], ['Dribbling', 'dribbling'], ['Defending', 'defending'],
  ['Physicality', 'physicality'], ['Acceleration', 'acceleration'], ['Sprint', 'sprint_speed'], ['Positioning', 'positioning'],
  ['Finishing', 'finishing'], ['Shot', 'shot_power'], ['Long', 'long_shots'], ['Volleys', 'volleys'], ['Penalties', 'penalties'],
  ['Vision', 'vision'], ['Crossing', 'crossing'], ['Free', 'free_kick'], ['Curve', 'curve'], ['Agility', 'agility'],
  ['Balance', 'balance'], ['Reactions', 'reactions'], ['Ball', 'ball_control'], ['Composure', 'composure'],
  ['Interceptions', 'interceptions'], ['Heading', 'heading'], ['Def', 'defensive_awareness'], ['Standing', 'standing_tackle'],
  ['Sliding', 'sliding_tackle'], ['Jumping', 'jumping'], ['Stamina', 'stamina'], ['Strength', 'strength'],
  ['Aggression', 'aggression'], ['Weak foot', 'weak_foot'], ['Skill moves', 'skill_moves'],
];
/** FC 25 mapping columns: the six face stats only. */
const FC25_COLUMNS: ReadonlyArray<readonly [string, PlayerAttribute]> = [
  ['PAC', 'pace'], ['SHO', 'shooting'], ['PAS', 'passing'], ['DRI', 'dribbling'], ['DEF', 'defending'], ['PHY', 'physicality'],
];
const WORK_RATE: Readonly<Record<string, number>> = { low: 1, medium: 2, high: 3 };

function readColumns(r: Record<string, string>, columns: ReadonlyArray<readonly [string, PlayerAttribute]>): Partial<Record<PlayerAttribute, number>> {
  const out: Partial<Record<PlayerAttribute, number>> = {};
  for (const [column, name] of columns) {
    const text = (r[column] ?? '').trim();
    const v = text === '' ? NaN : Number(text);
    // A blank or malformed attribute is left out of the profile, not the whole row.
    if (Number.isFinite(v) && v >= 0 && v <= 99) out[name] = v;
  }
  return out;
}

/** The attribute profile of an FC 24 row (work rates High/Medium/Low as 3/2/1). */
export function fc24Attributes(r: Record<string, string>): Partial<Record<PlayerAttribute, number>> {
  const out = readColumns(r, FC24_COLUMNS);
  const att = WORK_RATE[(r['Att work rate'] ?? '').trim().toLowerCase()];
  const def = WORK_RATE[(r['Def work rate'] ?? '').trim().toLowerCase()];
  if (att !== undefined) out.attacking_work_rate = att;
  if (def !== undefined) out.defensive_work_rate = def;
  return out;
}

/** The face stats of an FC 25 mapping row. */
export function fc25Attributes(r: Record<string, string>): Partial<Record<PlayerAttribute, number>> {
  return readColumns(r, FC25_COLUMNS);
}

export interface Ea25Row {
  tmId: number;
  name: string;
  age: number | null;
  team: string;
}

export type MatchMethod = 'mapping' | 'name_birth_year' | 'last_name_club';

export interface EaMatch {
  playerId: string;
  row: Ea24Row;
  method: MatchMethod;
}

/** FC 24 ages are taken in its season: born in (2023 - age) give or take a year. */
const FC24_SEASON_YEAR = 2023;
export const CLUB_SIMILARITY_MIN = 0.5;

const GENERIC_CLUB_WORDS = new Set([
  'fc', 'cf', 'ac', 'sc', 'afc', 'sv', 'fk', 'sk', 'nk', 'cd', 'ud', 'rc', 'as', 'ss', 'us', 'club', 'football', 'futbol', 'calcio',
  'de', 'del', 'la', 'le', 'the', 'of', 'jk', 'bk', 'if', 'vfl', 'vfb', 'tsg', 'kv', 'krc', 'rsc', 'pfc', 'spor', 'sad',
]);

function clubKey(name: string): string {
  return normaliseName(name)
    .split(' ')
    .filter((w) => w && !GENERIC_CLUB_WORDS.has(w))
    .join('');
}

function bigrams(s: string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) {
    const g = s.slice(i, i + 2);
    m.set(g, (m.get(g) ?? 0) + 1);
  }
  return m;
}

/** Dice coefficient on letter pairs of the names without generic words (FC, Calcio, ...): 0..1. */
export function clubSimilarity(a: string, b: string): number {
  const ka = clubKey(a);
  const kb = clubKey(b);
  if (!ka || !kb) return 0;
  if (ka === kb || ka.includes(kb) || kb.includes(ka)) return 1;
  const ga = bigrams(ka);
  const gb = bigrams(kb);
  let common = 0;
  for (const [g, n] of ga) common += Math.min(n, gb.get(g) ?? 0);
  const total = ka.length - 1 + (kb.length - 1);
  return total > 0 ? (2 * common) / total : 0;
}

function bestClubSimilarity(eaClub: string, names: string[]): number {
  let best = 0;
  for (const n of names) best = Math.max(best, clubSimilarity(eaClub, n));
  return best;
}

const birthYearFits = (p: MatchPlayer, age: number) => p.birthYear !== null && Math.abs(p.birthYear - (FC24_SEASON_YEAR - age)) <= 1;

/**
 * Links FC 24 rows to our players, one to one, only where the link is confident:
 * 1. through the Transfermarkt -> FC 25 mapping: the FC 25 name of a mapped player equals the FC 24
 *    name and the ages agree (FC 25 age - 1, give or take a year);
 * 2. normalised full name and birth year (2023 - age, give or take a year) point to one player,
 *    and his 2023/24 club resembles the EA club (or no other player anywhere carries the name);
 * 3. last name and birth year, with a club similarity of at least CLUB_SIMILARITY_MIN, point to one player.
 * An EA row or a player claimed twice is left unmatched.
 */
export function matchEa(players: MatchPlayer[], ea24: Ea24Row[], ea25: Ea25Row[]): EaMatch[] {
  const byTm = new Map(players.map((p) => [p.tmId, p]));
  const byName = new Map<string, MatchPlayer[]>();
  const byLast = new Map<string, MatchPlayer[]>();
  const add = (m: Map<string, MatchPlayer[]>, k: string, p: MatchPlayer) => {
    if (!k) return;
    const list = m.get(k);
    if (list) {
      if (!list.includes(p)) list.push(p);
    } else m.set(k, [p]);
  };
  for (const p of players) {
    add(byName, normaliseName(p.name), p);
    const last = normaliseName(p.lastName).split(' ');
    add(byLast, last[last.length - 1], p);
  }
  const bridge = new Map<string, { player: MatchPlayer; age: number | null }[]>();
  for (const r of ea25) {
    const p = byTm.get(r.tmId);
    if (!p) continue;
    const k = normaliseName(r.name);
    bridge.set(k, [...(bridge.get(k) ?? []), { player: p, age: r.age }]);
  }

  const proposals: EaMatch[] = [];
  for (const row of ea24) {
    const key = normaliseName(row.name);
    const viaMapping = (bridge.get(key) ?? []).filter((b) => b.age === null || Math.abs(b.age - 1 - row.age) <= 1);
    if (viaMapping.length === 1) {
      proposals.push({ playerId: viaMapping[0].player.id, row, method: 'mapping' });
      continue;
    }
    const named = byName.get(key) ?? [];
    const sameName = named.filter((p) => birthYearFits(p, row.age));
    const clubFit = sameName.filter((p) => bestClubSimilarity(row.club, p.clubNames) >= CLUB_SIMILARITY_MIN);
    if (clubFit.length === 1) {
      proposals.push({ playerId: clubFit[0].id, row, method: 'name_birth_year' });
      continue;
    }
    if (clubFit.length === 0 && sameName.length === 1 && named.length === 1) {
      proposals.push({ playerId: sameName[0].id, row, method: 'name_birth_year' });
      continue;
    }
    const tokens = key.split(' ');
    const byLastName = (byLast.get(tokens[tokens.length - 1]) ?? []).filter(
      (p) => birthYearFits(p, row.age) && bestClubSimilarity(row.club, p.clubNames) >= CLUB_SIMILARITY_MIN,
    );
    if (byLastName.length === 1) proposals.push({ playerId: byLastName[0].id, row, method: 'last_name_club' });
  }

  const perPlayer = new Map<string, number>();
  const perRow = new Map<number, number>();
  for (const m of proposals) {
    perPlayer.set(m.playerId, (perPlayer.get(m.playerId) ?? 0) + 1);
    perRow.set(m.row.sofifaId, (perRow.get(m.row.sofifaId) ?? 0) + 1);
  }
  return proposals.filter((m) => perPlayer.get(m.playerId) === 1 && perRow.get(m.row.sofifaId) === 1);
}

/** The role each FC 24 row's attributes give (ea-roles.ts), standardised over the whole file; rows without one are left out. */
export function eaRoleBySofifaId(rows: readonly Ea24Row[]): Map<number, string> {
  const roles = eaRoles(rows.map((r) => ({ position: eaPosition(r.position) ?? '', attributes: r.roleAttributes ?? null, foot: r.foot ?? '' })));
  const out = new Map<number, string>();
  rows.forEach((r, i) => {
    if (roles[i]) out.set(r.sofifaId, roles[i]);
  });
  return out;
}

/**
 * An FC 25 row's role: the file has no detailed attributes, so his FC 24 role where it fits the FC 25
 * position, else '' (none known: our rating then decides); null when the position has no role at all.
 */
export function fc25Role(position: string, fc24Role: string | undefined): string | null {
  if (firstRoleFor(position) === null) return null;
  return fc24Role && (findRole(fc24Role)?.positions as readonly string[] | undefined)?.includes(position) ? fc24Role : '';
}
