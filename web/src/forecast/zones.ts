export type Zone = 'Title' | 'European places' | 'Relegation' | null;

/**
 * The usual zones of a domestic league by final place: the champion, the next places that lead to
 * Europe (five in a league of 18 or more, else three), and the bottom three (two in a smaller league).
 * The API does not name each league's own rules, so these are the common ones, said so on the page.
 */
export function zoneOf(place: number, clubs: number): Zone {
  if (place === 1) return 'Title';
  const europe = clubs >= 18 ? 6 : 4;
  const relegated = clubs >= 18 ? 3 : 2;
  if (place <= europe) return 'European places';
  if (place > clubs - relegated) return 'Relegation';
  return null;
}
