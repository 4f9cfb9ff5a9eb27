/** A timestamptz as PostgreSQL prints it ("2026-11-26 06:42:15.123+00"), read back as ISO 8601 UTC. */
export function isoOfTimestamp(at: string): string {
  return new Date(at.replace(' ', 'T').replace(/\+00$/, 'Z')).toISOString();
}
