/** PREMIER_DIVISION -> Premier Division: competition ids are upper-case words joined by underscores. */
export function competitionName(id: string): string {
  return id
    .split('_')
    .map((w) => (w.length <= 3 && /\d/.test(w) ? w : w.charAt(0) + w.slice(1).toLowerCase()))
    .join(' ');
}
