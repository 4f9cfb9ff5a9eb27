/**
 * The names people use for clubs and competitions, kept as data in aliases.json: a group names the
 * club or competition (any of several spellings, or a competition's id) and the aliases typed for it.
 */
import table from './aliases.json' with { type: 'json' };
import { compactName, foldWords } from './fold.js';

interface Group {
  readonly names: readonly string[];
  readonly aliases: readonly string[];
}

export interface Alias {
  /** The alias's folded words, found by prefix like a name's. */
  readonly words: readonly string[];
  /** The alias typed whole (letters and digits only): an exact match. */
  readonly compact: string;
}

function byName(groups: readonly Group[]): Map<string, Alias[]> {
  const out = new Map<string, Alias[]>();
  for (const g of groups) {
    const aliases = g.aliases.map((a) => ({ words: foldWords(a), compact: compactName(a) }));
    for (const n of g.names) {
      const key = compactName(n);
      out.set(key, [...(out.get(key) ?? []), ...aliases]);
    }
  }
  return out;
}

const CLUBS = byName(table.clubs);
const COMPETITIONS = byName(table.competitions);

/** The aliases of a club by its name (a youth side: pass its first team's name). */
export function clubAliases(name: string): readonly Alias[] {
  return CLUBS.get(compactName(name)) ?? [];
}

/** The aliases of a competition by its name or its id. */
export function competitionAliases(name: string, id: string): readonly Alias[] {
  const a = COMPETITIONS.get(compactName(name)) ?? [];
  const b = COMPETITIONS.get(compactName(id)) ?? [];
  return a === b ? a : [...new Set([...a, ...b])];
}
