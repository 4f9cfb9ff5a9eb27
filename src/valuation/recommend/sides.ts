/**
 * A club's youth and reserve sides (`Arsenal U21`, `Barcelona B`, `Bayern II`, `Real Madrid
 * Castilla`): the data links them to their club by name only, so they are told by name. A side's
 * name is words of its club's name plus a side word (`Bayern II` of `Bayern Munich`, `Leverkusen
 * U19` of `Bayer 04 Leverkusen`), never words the club's name lacks (`Arsenal Tula U21` is not
 * Arsenal's); of the first teams it could name, the one it names best (all words, then the first
 * ones, then any run).
 */
import type { Snapshot } from '../../domain/snapshot.js';
import { memoTable } from '../../domain/memo.js';

/** The words a youth or reserve side's name ends with. */
const SIDE_WORD = /\s(u\s?\d{2}|sub\s?\d{2}|b|c|ii|iii|2|youth|juniors?|jugend|jgd|reserves?|academy|castilla|next gen|primavera|promesas|amateure)$/;
/** Words of a club's legal form, which short names leave out. */
const FORM = new Set(['fc', 'cf', 'afc', 'ac', 'sc', 'sv', 'ssc', 'as', 'us', 'cd', 'rc', 'rcd', 'ud', 'sd', 'ca', 'club', 'de', 'futbol', 'football', 'calcio', 'tsg', 'vfl', 'vfb', '1', 'ogc', 'olympique', 'stade', 'ss', 'acf', 'hsc', 'losc']);
/** Short names the data uses for sides whose club's name is spelled out. */
const ALIASES: [RegExp, string][] = [[/^man utd\b/, 'manchester united'], [/^man city\b/, 'manchester city'], [/^rm castilla$/, 'real madrid castilla']];

function fold(name: string): string {
  let s = name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
  for (const [re, to] of ALIASES) s = s.replace(re, to);
  return s;
}

const core = (folded: string): string[] => folded.split(' ').filter((w) => w !== '' && !FORM.has(w));

interface NameFacts {
  /** the club's name words without its legal form */
  core: string[];
  /** for a side: its club's words as its name gives them; null for a first team */
  sideOf: string[] | null;
}

function nameFacts(snapshot: Snapshot, clubId: string): NameFacts | null {
  const table = memoTable<NameFacts | null>(snapshot, 'recommend.club-names');
  if (table.has(clubId)) return table.get(clubId)!;
  const club = snapshot.clubs.get(clubId);
  let facts: NameFacts | null = null;
  if (club) {
    const folded = fold(club.name);
    const m = SIDE_WORD.exec(folded);
    facts = { core: core(folded), sideOf: m ? core(folded.slice(0, m.index)) : null };
  }
  table.set(clubId, facts);
  return facts;
}

/** How well a side's words name a first team: 3 all its words, 2 its first ones, 1 a run of them, 0 not. */
function match(side: readonly string[], club: readonly string[]): number {
  if (side.length === 0 || side.length > club.length) return 0;
  for (let start = 0; start + side.length <= club.length; start++) {
    if (side.every((w, i) => w === club[start + i])) return start > 0 ? 1 : side.length === club.length ? 3 : 2;
  }
  return 0;
}

/** The first teams a side's name names best (Barcelona B is FC Barcelona's, not RCD Espanyol Barcelona's); once per side and snapshot. */
function parentsOf(snapshot: Snapshot, sideId: string, side: readonly string[]): Set<string> {
  const table = memoTable<Set<string>>(snapshot, 'recommend.side-parents');
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
