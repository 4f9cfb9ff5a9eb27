export interface Warning {
  readonly code: string;
  readonly message: string;
}

/** What an answer should be read with: each API warning as a note under a "Warnings" heading; nothing when none applies. */
export function Warnings({ warnings, level = 3 }: { warnings: readonly Warning[]; level?: 3 | 4 }) {
  // Two answers (fee and future value) may carry the same warning: shown once.
  const seen = new Set<string>();
  const unique = warnings.filter((w) => !seen.has(w.code + w.message) && Boolean(seen.add(w.code + w.message)));
  if (unique.length === 0) return null;
  const Heading = level === 3 ? 'h3' : 'h4';
  return (
    <div class="warnings">
      <Heading>Warnings</Heading>
      {unique.map((w) => (
        <p key={w.code + w.message} role="note" data-code={w.code}>
          {w.message}
        </p>
      ))}
    </div>
  );
}
