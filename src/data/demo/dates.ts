/** The generator's own calendar on day numbers (domain/days.ts): weekdays, match days, ages. */
import { isoOfDay } from '../../domain/days.js';

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
  const b = isoOfDay(birthDay);
  const o = isoOfDay(onDay);
  const years = Number(o.slice(0, 4)) - Number(b.slice(0, 4));
  return o.slice(5) >= b.slice(5) ? years : years - 1;
}
