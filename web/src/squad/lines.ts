/** Position codes of the catalogue grouped into the lines a coach draws. */
export const LINES: ReadonlyArray<{ readonly name: string; readonly positions: readonly string[] }> = [
  { name: 'Goalkeepers', positions: ['GK'] },
  { name: 'Defence', positions: ['LWB', 'LB', 'CB', 'RB', 'RWB'] },
  { name: 'Midfield', positions: ['CDM', 'LM', 'CM', 'RM', 'CAM'] },
  { name: 'Attack', positions: ['LF', 'CF', 'RF', 'LW', 'ST', 'RW'] },
];

export const POSITIONS: readonly string[] = LINES.flatMap((l) => l.positions);

/** Entries by line, in catalogue order within a line; unknown codes go last under "Other". */
export function byLine<T extends { readonly position: string }>(entries: readonly T[]): Array<{ name: string; entries: T[] }> {
  const order = (p: string) => POSITIONS.indexOf(p);
  const groups = LINES.map((l) => ({ name: l.name, entries: entries.filter((e) => l.positions.includes(e.position)) }));
  const other = entries.filter((e) => order(e.position) < 0);
  if (other.length) groups.push({ name: 'Other', entries: other });
  for (const g of groups) g.entries.sort((a, b) => order(a.position) - order(b.position));
  return groups;
}
