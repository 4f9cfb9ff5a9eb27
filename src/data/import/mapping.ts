import type { CompetitionType, PlayerRow } from '../../domain/world.js';
import { ROLES } from '../../domain/roles.js';
import type { PositionCode } from '../../domain/positions.js';
import { isPositionCode } from '../../domain/positions.js';

/** Letters without diacritics, lower case; letters NFD does not decompose are spelled out. */
export function foldDiacritics(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .replace(/[øØ]/g, 'o')
    .replace(/[æÆ]/g, 'ae')
    .replace(/[œŒ]/g, 'oe')
    .replace(/[đĐð]/g, 'd')
    .replace(/[łŁ]/g, 'l')
    .replace(/ı/g, 'i')
    .replace(/[þÞ]/g, 'th');
}

/** Name key for matching: folded, lower case, letters and digits separated by single spaces. */
export function normaliseName(s: string): string {
  return foldDiacritics(s)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** `premier-league` -> `PREMIER_LEAGUE`. */
export function upperSnake(s: string): string {
  return normaliseName(s).replace(/ /g, '_').toUpperCase();
}

/** `premier-league` -> `Premier League`, `ligue-1` -> `Ligue 1`. */
export function displayName(slug: string): string {
  return slug
    .split(/[-_\s]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

export interface TmCompetition {
  competition_id: string;
  name: string;
  type: string;
  sub_type: string;
  country_name: string;
  is_major_national_league: string;
}

/** Our competition type and tier from Transfermarkt's type and sub_type. */
export function competitionKind(c: Pick<TmCompetition, 'type' | 'sub_type' | 'is_major_national_league'>): { type: CompetitionType; tier: number | null } {
  const type = c.type.trim().toLowerCase();
  const sub = c.sub_type.trim().toLowerCase();
  if (type === 'domestic_league') {
    const m = /^(first|second|third|fourth|fifth)_tier$/.exec(sub);
    const tiers: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4, fifth: 5 };
    const tier = c.is_major_national_league.toLowerCase() === 'true' ? 1 : m ? tiers[m[1]] : null;
    return { type: 'DOMESTIC_LEAGUE', tier };
  }
  if (sub === 'domestic_super_cup') return { type: 'DOMESTIC_SUPERCUP', tier: null };
  if (sub === 'uefa_super_cup' || sub === 'fifa_club_world_cup' || /super_cup|club_world_cup/.test(sub)) {
    return { type: 'INTERNATIONAL_SUPERCUP', tier: null };
  }
  // The League Cup (EFL Cup) is typed `other` upstream but is a domestic cup.
  if (type === 'domestic_cup' || sub === 'domestic_cup' || sub === 'league_cup') return { type: 'DOMESTIC_CUP', tier: null };
  if (type === 'international_cup') return { type: 'INTERNATIONAL_CUP', tier: null };
  return { type: 'OTHER', tier: null };
}

/**
 * Competition ids from names in upper snake case. Names shared by several competitions
 * (`premier-liga` in Russia and Ukraine) get the country appended to every one of them, so an id
 * does not depend on the order of the file; a remaining clash gets the Transfermarkt code.
 */
export function competitionIds(comps: Pick<TmCompetition, 'competition_id' | 'name' | 'country_name'>[]): Map<string, string> {
  const byBase = new Map<string, string[]>();
  for (const c of comps) {
    const base = upperSnake(c.name) || upperSnake(c.competition_id);
    byBase.set(base, [...(byBase.get(base) ?? []), c.competition_id]);
  }
  const out = new Map<string, string>();
  const taken = new Map<string, number>();
  for (const c of comps) {
    const base = upperSnake(c.name) || upperSnake(c.competition_id);
    const id = (byBase.get(base)?.length ?? 0) > 1 && c.country_name ? `${base}_${upperSnake(c.country_name)}` : base;
    out.set(c.competition_id, id);
    taken.set(id, (taken.get(id) ?? 0) + 1);
  }
  for (const c of comps) {
    const id = out.get(c.competition_id) as string;
    if ((taken.get(id) ?? 0) > 1) out.set(c.competition_id, `${id}_${upperSnake(c.competition_id)}`);
  }
  return out;
}

const SUB_POSITIONS: Record<string, PositionCode> = {
  goalkeeper: 'GK',
  'centre-back': 'CB',
  'left-back': 'LB',
  'right-back': 'RB',
  'defensive midfield': 'CDM',
  'central midfield': 'CM',
  'attacking midfield': 'CAM',
  'left midfield': 'LM',
  'right midfield': 'RM',
  'left winger': 'LW',
  'right winger': 'RW',
  'centre-forward': 'ST',
  'second striker': 'CF',
};
const MAIN_POSITIONS: Record<string, PositionCode> = { goalkeeper: 'GK', defender: 'CB', midfield: 'CM', attack: 'ST' };

/** One of the 17 codes from sub_position, else from position; null when neither is known. */
export function mapPosition(subPosition: string, position: string): PositionCode | null {
  return SUB_POSITIONS[subPosition.trim().toLowerCase()] ?? MAIN_POSITIONS[position.trim().toLowerCase()] ?? null;
}

export function mapFoot(foot: string): PlayerRow['foot'] {
  switch (foot.trim().toLowerCase()) {
    case 'right':
      return 'Right';
    case 'left':
      return 'Left';
    case 'both':
      return 'Both';
    default:
      return null;
  }
}

/** The first role of the catalogue that fits a position. */
export function firstRoleFor(position: string): string | null {
  return ROLES.find((r) => (r.positions as readonly string[]).includes(position))?.role ?? null;
}

export function eaPosition(s: string): PositionCode | null {
  const p = s.trim().toUpperCase();
  return isPositionCode(p) ? p : null;
}

const PSEUDO_CLUB = /^(without club|retired|career break|unknown|vereinslos|karriereende|pause|ban|suspended|own youth|no club|unattached)$/i;

/** "Without Club", "Retired", "Career break", "Unknown"...: places in the transfer list that are not clubs. */
export function isPseudoClub(name: string): boolean {
  return PSEUDO_CLUB.test(name.trim());
}

export type Parsed<T> = { ok: true; value: T } | { ok: false };

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T]00:00:00(?:\.0+)?Z?)?$/;
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** ISO date, accepting the ` 00:00:00` time suffix of some columns; empty -> null. Checked without Date objects: it runs for every row. */
export function parseDate(s: string | undefined): Parsed<string | null> {
  const v = (s ?? '').trim();
  if (v === '') return { ok: true, value: null };
  const m = ISO_DATE.exec(v);
  if (!m) return { ok: false };
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const max = month === 2 && !leap ? 28 : DAYS_IN_MONTH[month - 1];
  if (month < 1 || month > 12 || day < 1 || day > max || year < 1800) return { ok: false };
  return { ok: true, value: v.slice(0, 10) };
}

/** A number (plain, as the Parquet conversion wrote it); empty -> null. */
export function parseNumber(s: string | undefined): Parsed<number | null> {
  const v = (s ?? '').trim();
  if (v === '') return { ok: true, value: null };
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(v)) return { ok: false };
  const n = Number(v);
  return Number.isFinite(n) ? { ok: true, value: n } : { ok: false };
}

/** A positive whole Transfermarkt id; floats such as `123.0` from the Parquet conversion are accepted. */
export function parseId(s: string | undefined): number | null {
  const n = parseNumber(s);
  if (!n.ok || n.value === null || !Number.isInteger(n.value) || n.value <= 0 || n.value > 1e12) return null;
  return n.value;
}

/**
 * A transfer fee: a number, 0 (free or loan), empty (unknown, kept null), or a text: "loan"/"free"
 * texts give 0 and mark a loan where they say so. Anything else is not a fee.
 */
export function parseFee(s: string | undefined): Parsed<{ fee: number | null; loanText: boolean }> {
  const v = (s ?? '').trim();
  const n = parseNumber(v);
  if (n.ok) return { ok: true, value: { fee: n.value, loanText: false } };
  const t = v.toLowerCase();
  if (/loan/.test(t)) return { ok: true, value: { fee: 0, loanText: !/end of loan|loan return/.test(t) } };
  if (/free|ablösefrei/.test(t)) return { ok: true, value: { fee: 0, loanText: false } };
  if (/^(-|\?|unknown)$/.test(t)) return { ok: true, value: { fee: null, loanText: false } };
  return { ok: false };
}
