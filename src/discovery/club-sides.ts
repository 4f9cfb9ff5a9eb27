/**
 * Youth and reserve sides (`Paris Saint-Germain U19`, `FC Barcelona B`, `Bayern Munich II`,
 * `Real Madrid Juvenil A`, `Inter Milan Primavera`, `Jong Ajax`) and the first team each belongs to,
 * read from the name: the data marks them no other way.
 */
const SUFFIX =
  /\s+(?:u-?\d{2}|sub-?\d{2}|under-?\d{2}|b|c|ii|iii|2|res\.?|reserves?|youth|yth\.?|academy|juvenil(?:\s+[abc])?|primavera|castilla|atletic|jgd\.?|jugend|amateure|am\.?|akademie|next\s*gen|b\s+team|(?:u-?\d{2}|ii|b)\s+\(?[a-z]+\)?)$/i;
const PREFIX = /^jong\s+/i;

/** The first team's name when `name` is one of its youth or reserve sides, else null. */
export function firstTeamName(name: string): string | null {
  const trimmed = name.trim();
  if (PREFIX.test(trimmed)) return trimmed.replace(PREFIX, '');
  const m = SUFFIX.exec(trimmed);
  return m && m.index > 0 ? trimmed.slice(0, m.index) : null;
}

export function isYouthOrReserveSide(name: string): boolean {
  return firstTeamName(name) !== null;
}
