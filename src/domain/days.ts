/**
 * Day numbers: whole UTC days since 1970-01-01, the one calendar arithmetic the models and the demo
 * world use. Dates repeat across players and requests, so conversions are kept (a table of dates,
 * bounded by the calendar the data spans).
 */
export const DAY_MS = 86_400_000;

const dayOfIso = new Map<string, number>();
const isoOfDayNumber = new Map<number, string>();

/** The day number of an ISO date (a longer timestamp is read to its date). */
export function dayOf(iso: string): number {
  let day = dayOfIso.get(iso);
  if (day === undefined) {
    day = Math.floor(Date.parse(`${iso.slice(0, 10)}T00:00:00Z`) / DAY_MS);
    dayOfIso.set(iso, day);
  }
  return day;
}

/** The ISO date (YYYY-MM-DD) of a day number. */
export function isoOfDay(day: number): string {
  let iso = isoOfDayNumber.get(day);
  if (iso === undefined) {
    iso = new Date(day * DAY_MS).toISOString().slice(0, 10);
    isoOfDayNumber.set(day, iso);
  }
  return iso;
}

/** The day number of a calendar date (month 1-12). */
export function ymd(year: number, month: number, day: number): number {
  return Math.round(Date.UTC(year, month - 1, day) / DAY_MS);
}

export function addDays(iso: string, days: number): string {
  return isoOfDay(dayOf(iso) + days);
}

/** Same calendar day `years` later (29 February becomes 28 February). */
export function addYears(iso: string, years: number): string {
  const y = Number(iso.slice(0, 4)) + years;
  const md = iso.slice(5, 10) === '02-29' ? '02-28' : iso.slice(5, 10);
  return `${String(y).padStart(4, '0')}-${md}`;
}
