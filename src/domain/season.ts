/** Seasons run 1 July to 30 June; a season is named by its start year internally and `YYYY/YYYY` outside. */
export function seasonOf(isoDate: string): number {
  const year = Number(isoDate.slice(0, 4));
  const month = Number(isoDate.slice(5, 7));
  return month >= 7 ? year : year - 1;
}

export function seasonLabel(startYear: number): string {
  return `${startYear}/${startYear + 1}`;
}

/** Parses `YYYY/YYYY` where the second year follows the first; null when it is not such a label. */
export function parseSeasonLabel(label: string): number | null {
  const m = /^(\d{4})\/(\d{4})$/.exec(label);
  if (!m) return null;
  const a = Number(m[1]);
  return Number(m[2]) === a + 1 ? a : null;
}

export function seasonStart(startYear: number): string {
  return `${startYear}-07-01`;
}

export function seasonEnd(startYear: number): string {
  return `${startYear + 1}-06-30`;
}

/** Whole years between a birth date and a date, both ISO. */
export function ageOn(birthDate: string, onDate: string): number {
  const by = Number(birthDate.slice(0, 4));
  const oy = Number(onDate.slice(0, 4));
  const hadBirthday = onDate.slice(5) >= birthDate.slice(5);
  return oy - by - (hadBirthday ? 0 : 1);
}

/** Age in fractional years, for models. */
export function ageYears(birthDate: string, onDate: string): number {
  return (Date.parse(onDate) - Date.parse(birthDate)) / (365.2425 * 86_400_000);
}

export function daysBetween(fromIso: string, toIso: string): number {
  return Math.round((Date.parse(toIso) - Date.parse(fromIso)) / 86_400_000);
}

export function isIsoDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const t = Date.parse(`${s}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === s;
}
