/**
 * Folding names and queries to what a person types: lower case, no accents, letters that do not
 * decompose (ø, æ, ß, ł, đ, ı…) spelled out in plain Latin, punctuation gone. Apostrophes join
 * (N'Golo -> ngolo), hyphens and every other mark split (Wright-Phillips -> wright phillips).
 */

/** Letters Unicode decomposition leaves alone, and their usual plain Latin spelling. */
const SPELLED: Readonly<Record<string, string>> = {
  ø: 'o', æ: 'ae', œ: 'oe', ß: 'ss', ẞ: 'ss', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i', ħ: 'h', ŧ: 't', ŋ: 'ng', ſ: 's', ĸ: 'k',
  // Greek capitals that look like Latin ones turn up in scraped names.
  α: 'a', β: 'b', ε: 'e', ι: 'i', κ: 'k', ν: 'n', ο: 'o', ρ: 'p', τ: 't', χ: 'x', υ: 'y',
};

const APOSTROPHES = /['\u2018\u2019\u02BC\u02B9\u0060\u00B4\u2032]/g;
const PLAIN = /^[\x20-\x7e]*$/;
const UMLAUT = /[äöüÄÖÜ]/;
const UMLAUTS = /[äöüÄÖÜ]/g;
const GERMAN: Readonly<Record<string, string>> = { ä: 'ae', ö: 'oe', ü: 'ue', Ä: 'Ae', Ö: 'Oe', Ü: 'Ue' };
const COMBINING = /[\u0300-\u036f]/g;
const NOT_WORD = /[^a-z0-9]+/;

function spellOut(s: string): string {
  let out = '';
  for (const ch of s) out += SPELLED[ch] ?? ch;
  return out;
}

/** Lower case, accents off, special letters spelled out; every mark still there. */
function base(text: string): string {
  const lower = text.toLowerCase();
  // Most names are plain ASCII: nothing to spell out or strip.
  if (PLAIN.test(lower)) return lower;
  // İ lower-cases to i + a combining dot, which the accent strip then removes.
  return spellOut(lower).normalize('NFD').replace(COMBINING, '');
}

/** Lower case, accents off, special letters spelled out, apostrophes dropped; other marks left for splitting. */
export function foldText(text: string): string {
  return base(text).replace(APOSTROPHES, '');
}

/** The words of a text as a query sees them, in order. */
export function foldWords(text: string): string[] {
  return foldText(text).split(NOT_WORD).filter((w) => w !== '');
}

/**
 * The words a name is found by: its folded words, and for a word written with hyphens or
 * apostrophes both its parts and the whole (Jean-Philippe: jean, philippe, jeanphilippe;
 * N'Golo: ngolo, n, golo), so a person may type it either way.
 */
export function nameTokens(name: string): string[] {
  return foldName(name).tokens;
}

export interface FoldedName {
  readonly tokens: string[];
  /** compactName of the name. */
  readonly compact: string;
  /** foldText of the name: sorts names as a person reads them. */
  readonly folded: string;
}

/** Everything the search index keeps of a name, from one fold. */
export function foldName(name: string): FoldedName {
  const b = base(name);
  const tokens = new Set<string>();
  for (const chunk of b.split(/\s+/)) {
    const parts = chunk.split(NOT_WORD).filter((w) => w !== '');
    if (parts.length > 1) tokens.add(parts.join(''));
    for (const part of parts) tokens.add(part);
  }
  // German spelling without umlauts: Müller is also found as mueller.
  if (UMLAUT.test(name)) for (const t of foldName(name.replace(UMLAUTS, (u) => GERMAN[u])).tokens) tokens.add(t);
  const folded = b.replace(APOSTROPHES, '');
  return { tokens: [...tokens], compact: folded.split(NOT_WORD).join(''), folded };
}

/** A name or query with nothing but its letters and digits: how an exact full-name match is judged. */
export function compactName(text: string): string {
  return foldWords(text).join('');
}
