/**
 * A timestamptz as PostgreSQL prints it ("2026-11-26 06:42:15.123+00", any whole-hour offset) or as a
 * driver hands it over (a Date), read back as ISO 8601 UTC.
 */
export function isoOfTimestamp(at: string | Date): string {
  if (at instanceof Date) return at.toISOString();
  return new Date(at.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')).toISOString();
}
