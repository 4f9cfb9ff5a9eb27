/**
 * When each yearly edition of an external rating became public. A rating is known from its release
 * on, never before: a rating as of a date may only start from an edition released on or before it.
 *
 * EA Sports FC editions: the ratings are public from the early-access launch of the game (FC 24 on
 * 22 September 2023, FC 25 on 20 September 2024; the full launches followed a week later). An
 * edition not listed, and the demo world's yearly ratings, which play EA's part there, are taken
 * as released on 22 September of their season's first year.
 */
export const RATING_RELEASES: Readonly<Record<string, Readonly<Record<number, string>>>> = {
  ea: { 2023: '2023-09-22', 2024: '2024-09-20' },
};

const DEFAULT_RELEASE_DAY = '09-22';

/** Release date of the `source` edition rating season `season` (its first year). */
export function ratingReleaseDate(source: string, season: number): string {
  return RATING_RELEASES[source]?.[season] ?? `${season}-${DEFAULT_RELEASE_DAY}`;
}
