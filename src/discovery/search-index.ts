/**
 * Search by name over players, clubs and competitions, built once per snapshot.
 *
 * MiniSearch's radix tree (SearchableMap) holds every folded name word and finds the words a query
 * word may mean: those it begins, and for a query word of five letters or more those one edit away.
 * Each word maps to the entries that carry it; every query word must match. The order is ours:
 * exact full-name match, then all words as prefixes, then typo matches; ties by the higher current
 * market value, then the name. (MiniSearch's own search scores every matching entry by BM25, which
 * took 170 ms for a two-letter query on the real data; see bench/discovery.ts.)
 */
import SearchableMap from 'minisearch/SearchableMap';
import { playerFacts } from '../domain/player-facts.js';
import type { Snapshot } from '../domain/snapshot.js';
import { clubAliases, competitionAliases, type Alias } from './aliases.js';
import { firstTeamName } from '../domain/club-sides.js';
import { compactName, foldName, foldWords } from './fold.js';
import { roundMoney } from '../money/convert.js';
import { latestValue } from './latest-value.js';
import { denseRanks, orderByKey } from './order.js';
import type { Scope } from './scope.js';

export type ResultType = 'player' | 'club' | 'competition';
export const RESULT_TYPES: readonly ResultType[] = ['player', 'club', 'competition'];

export interface PlayerResult {
  type: 'player';
  name: string;
  service_id: string;
  club_id: string | null;
  club_name: string | null;
  position: string;
  age: number | null;
  nationality: string;
  market_value_in_eur: number | null;
}

export interface ClubResult {
  type: 'club';
  name: string;
  service_id: string;
  registry_a_id: number | null;
  competition: string | null;
}

export interface CompetitionResult {
  type: 'competition';
  name: string;
  competition: string;
  competition_type: string;
  country: string | null;
}

export type SearchResult = PlayerResult | ClubResult | CompetitionResult;

interface Entry {
  readonly result: SearchResult;
  readonly tokens: readonly string[];
  /** The name's words joined (debruyne, kevindebruyne): found only by query words of JOINED_MIN letters or more. */
  readonly joined: readonly string[];
  /** What typed whole is an exact match: the name, and a first team's or competition's aliases. */
  readonly exact: readonly string[];
  /** A youth or reserve side: after the first teams among equals. */
  readonly side: boolean;
  /** Market value for ties: a player's latest, a club's squad total, a competition's clubs' total. */
  readonly valueEur: number | null;
  readonly sortName: string;
  /** Coverage: a player's current team and owning club; a club's id; a competition's id. */
  readonly teamId: string | null;
  readonly ownerId: string | null;
}

export interface SearchQuery {
  readonly q: string;
  readonly types: readonly ResultType[];
  readonly limit: number;
  readonly scope: Scope;
}

/** A word of this many letters may carry one typo. */
export const TYPO_MIN_LENGTH = 5;

const EXACT = 0;
const PREFIX = 1;
const TYPO = 2;
/** A bit of the first word's marks: the entry is named exactly by the whole query. */
const NAMED = 4;
/** A bit of a word's marks: the entry has the word typed whole, not only a word it begins. */
const WHOLE = 8;
/** How many times better known than every exact match a whole-word match must be to rank with them. */
const FAMOUS_RATIO = 10;


export class SearchIndex {
  /** Folded name word -> the entries that carry it, ascending. */
  private readonly words: SearchableMap<Int32Array>;
  /** Joined name words -> the entries that carry them (a separate tree: short query words never walk it). */
  private readonly joinedWords: SearchableMap<Int32Array>;
  /** A name or alias typed whole (letters and digits only) -> the entries it names exactly. */
  private readonly exact = new Map<string, number[]>();
  /** Each entry's place in the tie order (higher value, then name), and the entry at each place. */
  private readonly tieOrder: Int32Array;
  private readonly byTieOrder: Int32Array;
  private readonly marks: Uint8Array[] = [];
  private readonly keys: Float64Array;

  private constructor(private readonly entries: readonly Entry[]) {
    const postings = new Map<string, number[]>();
    const joined = new Map<string, number[]>();
    const add = (map: Map<string, number[]>, key: string, i: number) => {
      const list = map.get(key);
      if (list) list.push(i);
      else map.set(key, [i]);
    };
    entries.forEach((e, i) => {
      for (const t of e.tokens) add(postings, t, i);
      for (const t of e.joined) add(joined, t, i);
      for (const k of e.exact) add(this.exact, k, i);
    });
    this.words = new SearchableMap<Int32Array>();
    for (const [word, list] of postings) this.words.set(word, Int32Array.from(list));
    this.joinedWords = new SearchableMap<Int32Array>();
    for (const [word, list] of joined) this.joinedWords.set(word, Int32Array.from(list));
    // Ties: first teams before youth and reserve sides, the higher value first (none last), then the name, then the entry's place.
    const values = denseRanks(entries.map((e) => e.valueEur));
    const sortNames = denseRanks(entries.map((e) => e.sortName));
    const tieKeys = entries.map((e, i) => {
      const r = values.ranks[i];
      const byValue = (r === -1 ? values.distinct : values.distinct - 1 - r) * sortNames.distinct + sortNames.ranks[i];
      return (e.side ? (values.distinct + 1) * sortNames.distinct : 0) + byValue;
    });
    const order = orderByKey(tieKeys);
    this.byTieOrder = order;
    this.tieOrder = new Int32Array(entries.length);
    this.keys = new Float64Array(entries.length);
    order.forEach((entryIdx, place) => (this.tieOrder[entryIdx] = place));
  }

  static build(snapshot: Snapshot): SearchIndex {
    const entries: Entry[] = [];
    const clubValue = new Map<string, number>();
    for (const player of snapshot.players.values()) {
      const f = playerFacts(snapshot, player);
      const value = latestValue(snapshot, player.id)?.value_eur ?? null;
      const club = f.currentTeamId !== null ? snapshot.clubs.get(f.currentTeamId) : undefined;
      entries.push(entry(
        {
          type: 'player',
          name: player.name,
          service_id: player.id,
          club_id: club?.id ?? null,
          club_name: club?.name ?? null,
          position: f.position,
          age: f.age,
          nationality: player.nationality,
          market_value_in_eur: value === null ? null : roundMoney(value),
        },
        value,
        f.currentTeamId,
        f.owningClubId,
      ));
    }
    for (const [clubId, squad] of snapshot.squads) {
      let total = 0;
      for (const id of squad) total += latestValue(snapshot, id)?.value_eur ?? 0;
      clubValue.set(clubId, total);
    }
    for (const club of snapshot.clubs.values()) {
      const first = firstTeamName(club.name);
      entries.push(entry(
        { type: 'club', name: club.name, service_id: club.id, registry_a_id: club.registry_a_id, competition: snapshot.leagueOfClub.get(club.id) ?? null },
        clubValue.get(club.id) ?? null,
        club.id,
        club.id,
        // A youth side is found by its first team's aliases, but only the first team is named by one exactly.
        first === null ? { aliases: clubAliases(club.name), exact: true, side: false } : { aliases: clubAliases(first), exact: false, side: true },
      ));
    }
    for (const c of snapshot.competitions.values()) {
      const clubs = snapshot.clubsOfCompetition.get(c.id) ?? [];
      const total = clubs.reduce((sum, id) => sum + (clubValue.get(id) ?? 0), 0);
      entries.push(entry(
        { type: 'competition', name: c.name, competition: c.id, competition_type: c.type, country: c.country },
        clubs.length > 0 ? total : null,
        c.id,
        c.id,
        { aliases: competitionAliases(c.name, c.id), exact: true, side: false },
      ));
    }
    return new SearchIndex(entries);
  }

  get size(): number {
    return this.entries.length;
  }

  search(query: SearchQuery): SearchResult[] {
    const words = [...new Set(foldWords(query.q))];
    if (words.length === 0) return [];
    const n = this.entries.length;
    // Per query word: 1 where an entry has a word it begins, 2 where only a word one typo away.
    const marks = words.map((w, k) => this.matchWord(w, k));
    const types = new Set(query.types);
    const scope = query.scope;
    const compact = compactName(query.q);
    const keys = this.keys;
    let found = 0;
    const first = marks[0];
    let exactValue = -1;
    const famous: number[] = [];
    // Named exactly (a full name or an alias typed whole, with or without its spaces), whatever the words matched.
    const named = this.exact.get(compact) ?? [];
    for (const i of named) first[i] |= NAMED;
    for (let i = 0; i < n; i++) {
      if (first[i] === 0) continue;
      if (first[i] & NAMED) {
        const e = this.entries[i];
        if (!types.has(e.result.type) || !visible(e, scope)) continue;
        if (e.result.type === 'player') exactValue = Math.max(exactValue, e.valueEur ?? 0);
        keys[found++] = EXACT * n + this.tieOrder[i];
        continue;
      }
      let rank = (first[i] & 3) === 1 ? PREFIX : TYPO;
      let whole = (first[i] & WHOLE) !== 0;
      let all = true;
      for (let k = 1; k < marks.length; k++) {
        const m = marks[k][i];
        if (m === 0) {
          all = false;
          break;
        }
        if ((m & 3) === 2) rank = TYPO;
        if ((m & WHOLE) === 0) whole = false;
      }
      if (!all) continue;
      const e = this.entries[i];
      if (!types.has(e.result.type) || !visible(e, scope)) continue;
      if (rank === PREFIX && whole && e.result.type === 'player' && e.valueEur !== null) {
        famous.push(found);
      }
      keys[found++] = rank * n + this.tieOrder[i];
    }
    // The famous player of a common name: a player carrying every word typed whole, and far better known than
    // every player whose full name it is (vinicius: Vinícius Júnior before the players called just Vinícius).
    if (exactValue >= 0) {
      for (const at of famous) {
        const i = this.byTieOrder[keys[at] % n];
        if (this.entries[i].valueEur! >= FAMOUS_RATIO * Math.max(exactValue, 1)) keys[at] = EXACT * n + (keys[at] % n);
      }
    }
    const top = keys.subarray(0, found).sort().subarray(0, query.limit);
    return Array.from(top, (k) => this.entries[this.byTieOrder[k % n]].result);
  }

  private matchWord(word: string, slot: number): Uint8Array {
    // Scratch arrays are reused: a query allocates next to nothing, so it never waits on the collector.
    const marks = (this.marks[slot] ??= new Uint8Array(this.entries.length)).fill(0);
    if (word.length >= TYPO_MIN_LENGTH) {
      for (const [list] of this.words.fuzzyGet(word, 1).values()) for (const i of list) marks[i] = 2;
    }
    if (word.length >= JOINED_MIN) for (const list of this.joinedWords.atPrefix(word).values()) for (const i of list) marks[i] = 1;
    for (const list of this.words.atPrefix(word).values()) for (const i of list) marks[i] = 1;
    const whole = this.words.get(word);
    if (whole) for (const i of whole) marks[i] = 1 | WHOLE;
    return marks;
  }
}

function visible(e: Entry, scope: Scope): boolean {
  if (scope.all) return true;
  if (e.result.type === 'player') return scope.player(e.teamId, e.ownerId);
  if (e.result.type === 'club') return scope.club(e.teamId);
  return scope.competition(e.teamId!);
}

interface Known {
  readonly aliases: readonly Alias[];
  /** The aliases typed whole name this entry exactly. */
  readonly exact: boolean;
  readonly side: boolean;
}

const PLAIN: Known = { aliases: [], exact: false, side: false };
/** Runs of this many consecutive name words are also kept joined (debruyne, vandijk, terstegen). */
const JOINED_MAX = 4;
/** A query word this long may be a name written without its spaces (the shortest, dejong, has six letters). */
const JOINED_MIN = 5;

function entry(result: SearchResult, valueEur: number | null, teamId: string | null, ownerId: string | null, known: Known = PLAIN): Entry {
  const f = foldName(result.name);
  const tokens = new Set(f.tokens);
  // A name written without its spaces: every run of 2-4 consecutive words joined, and the whole name.
  const joined = new Set<string>();
  const words = f.folded.split(/\s+/).map((w) => compactName(w)).filter((w) => w !== '');
  for (let a = 0; a < words.length; a++) {
    for (let b = a + 2; b <= Math.min(words.length, a + JOINED_MAX); b++) joined.add(words.slice(a, b).join(''));
  }
  if (words.length > 1) joined.add(f.compact);
  for (const t of tokens) joined.delete(t);
  const exact = [f.compact];
  for (const alias of known.aliases) {
    for (const w of alias.words) tokens.add(w);
    if (known.exact && !exact.includes(alias.compact)) exact.push(alias.compact);
  }
  return { result, tokens: [...tokens], joined: [...joined], exact, side: known.side, valueEur, sortName: `${f.folded}\u0000${result.name}`, teamId, ownerId };
}
