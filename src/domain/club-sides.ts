/**
 * A club's youth and reserve sides (`Arsenal U21`, `FC Barcelona B`, `Bayern Munich II`, `Real Madrid
 * Castilla`, `West Ham Yth.`, `Jong Ajax`): the data links them to their first team by name only, so
 * they are told by name, in one place for search (a first team ranks above its sides) and for
 * recommend_signings (a club's own sides are never candidates).
 *
 * A side's name is a first team's name plus a side word (or `Jong` before it). Which first team:
 * the side's words, without legal forms (FC, SC, ...), must be a run of the first team's words
 * (`Bayern II` of `Bayern Munich`, `Leverkusen U19` of `Bayer 04 Leverkusen`), never words the first
 * team's name lacks (`Arsenal Tula U19` is not Arsenal's); of the first teams it could name, the one
 * it names best (all words, then the first ones, then any run): `Barcelona B` is FC Barcelona's, not
 * RCD Espanyol Barcelona's.
 */
import type { Snapshot } from './snapshot.js';
import { memoTable } from './memo.js';

/**
 * The side word at the end of a folded name, after a space, dot or hyphen (`Akron-2`, `Ross
 * Cou.U18`). Not `Juniors` (Boca Juniors is a first team) and not a word before other words
 * (Willem II Tilburg is a first team).
 */
const SIDE_WORD =
  /[\s.-]+(?:u[\s-]?\d{2}|sub[\s-]?\d{2}|under[\s-]?\d{2}|b|c|ii|iii|2|res|reserves?|youth|yth|academy|akademie|juvenil(?:\s+[abc])?|primavera|promesas|castilla|atletic|jgd|jugend|amateure|am|next\s*gen|b\s+team)\.?$/;
const JONG = /^jong\s+/;

/** Lower case without accents, one character for one (so a match's index is the name's). */
function foldInPlace(name: string): string {
  let out = '';
  for (const ch of name) {
    const base = ch.normalize('NFKD').replace(/\p{M}/gu, '');
    out += (base.length === 1 ? base : ch).toLowerCase();
  }
  return out.length === name.length ? out : name.toLowerCase();
}

/** The first team's name as the side's name gives it (`Paris SG` of `Paris SG U19`), else null: not a youth or reserve side. */
export function firstTeamName(name: string): string | null {
  const trimmed = name.trim();
  const folded = foldInPlace(trimmed);
  const jong = JONG.exec(folded);
  if (jong) return trimmed.slice(jong[0].length);
  const m = SIDE_WORD.exec(folded);
  return m && m.index > 0 ? trimmed.slice(0, m.index) : null;
}

export function isYouthOrReserveSide(name: string): boolean {
  return firstTeamName(name) !== null;
}

/** Words of a club's legal form, which short names leave out. */
const FORM = new Set(['fc', 'cf', 'afc', 'ac', 'sc', 'sv', 'ssc', 'as', 'us', 'cd', 'rc', 'rcd', 'ud', 'sd', 'ca', 'club', 'de', 'futbol', 'football', 'calcio', 'tsg', 'vfl', 'vfb', '1', 'ogc', 'olympique', 'stade', 'ss', 'acf', 'hsc', 'losc']);
/** Short names the data gives sides of clubs whose name is spelled out. */
const ALIASES: [RegExp, string][] = [
  [/^man utd$/, 'manchester united'], [/^man city$/, 'manchester city'], [/^rm$/, 'real madrid'], [/^b munchen$/, 'bayern munich'],
];

function words(name: string): string[] {
  let s = name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
  for (const [re, to] of ALIASES) s = s.replace(re, to);
  return s.split(' ').filter((w) => w !== '' && !FORM.has(w));
}

interface NameFacts {
  /** the club's name words without its legal form */
  core: string[];
  /** for a side: its first team's words as its name gives them; null for a first team */
  sideOf: string[] | null;
}

function nameFacts(snapshot: Snapshot, clubId: string): NameFacts | null {
  const table = memoTable<NameFacts | null>(snapshot, 'club-sides.names');
  if (table.has(clubId)) return table.get(clubId)!;
  const club = snapshot.clubs.get(clubId);
  let facts: NameFacts | null = null;
  if (club) {
    const first = firstTeamName(club.name);
    facts = { core: words(club.name), sideOf: first === null ? null : words(first) };
  }
  table.set(clubId, facts);
  return facts;
}

/** A side's word names a first team's word: the same, or an abbreviation of up to 3 letters (`Bor.`, `A.`). */
const sameWord = (side: string, club: string) => side === club || (side.length <= 3 && club.startsWith(side));

/** How well a side's words name a first team: 3 all its words, 2 its first ones, 1 a run of them, 0 not. */
function match(side: readonly string[], club: readonly string[]): number {
  if (side.length === 0 || side.length > club.length) return 0;
  for (let start = 0; start + side.length <= club.length; start++) {
    if (side.every((w, i) => sameWord(w, club[start + i]))) return start > 0 ? 1 : side.length === club.length ? 3 : 2;
  }
  return 0;
}

/** The first teams a side's name names best; once per side and snapshot. */
function parentsOf(snapshot: Snapshot, sideId: string, side: readonly string[]): Set<string> {
  const table = memoTable<Set<string>>(snapshot, 'club-sides.parents');
  let found = table.get(sideId);
  if (found) return found;
  let best = 0;
  found = new Set();
  for (const id of snapshot.clubs.keys()) {
    const facts = nameFacts(snapshot, id);
    if (!facts || facts.sideOf !== null) continue;
    const score = match(side, facts.core);
    if (score === 0 || score < best) continue;
    if (score > best) {
      best = score;
      found.clear();
    }
    found.add(id);
  }
  table.set(sideId, found);
  return found;
}

/** Whether `otherId` is the club itself or one of its youth or reserve sides. */
export function isSideOf(snapshot: Snapshot, clubId: string, otherId: string | null): boolean {
  if (otherId === null) return false;
  if (otherId === clubId) return true;
  const side = nameFacts(snapshot, otherId)?.sideOf;
  if (!side || side.length === 0) return false;
  return parentsOf(snapshot, otherId, side).has(clubId);
}
