/** Calendar arithmetic on whole UTC days (days since 1970-01-01), which is all the generator needs. */
const MS_PER_DAY = 86_400_000;

export function dayOf(iso: string): number {
  return Math.round(Date.parse(`${iso}T00:00:00Z`) / MS_PER_DAY);
}

export function ymd(year: number, month: number, day: number): number {
  return Math.round(Date.UTC(year, month - 1, day) / MS_PER_DAY);
}

const ISO_CACHE = new Map<number, string>();
export function isoOf(day: number): string {
  let s = ISO_CACHE.get(day);
  if (s === undefined) {
    s = new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
    ISO_CACHE.set(day, s);
  }
  return s;
}

/** 0 = Sunday ... 6 = Saturday (1970-01-01 was a Thursday). */
export function weekday(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

/** The first Saturday on or after `day`. */
export function saturdayOnOrAfter(day: number): number {
  return day + ((6 - weekday(day) + 7) % 7);
}

/** Age in fractional years. */
export function yearsBetween(fromDay: number, toDay: number): number {
  return (toDay - fromDay) / 365.2425;
}

/** Whole years of age on a day (birthday counted on its calendar date). */
export function wholeAge(birthDay: number, onDay: number): number {
  const b = isoOf(birthDay);
  const o = isoOf(onDay);
  const years = Number(o.slice(0, 4)) - Number(b.slice(0, 4));
  return o.slice(5) >= b.slice(5) ? years : years - 1;
}
