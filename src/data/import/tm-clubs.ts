import type { ClubRow } from '../../domain/world.js';
import { stableId } from '../../domain/ids.js';
import { parseId } from './mapping.js';
import type { TableReader } from './table-reader.js';

export const clubId = (tm: number) => stableId('C', `tm:club:${tm}`);

/**
 * The clubs: clubs.csv first; transfers, values, games and appearances add the clubs it lacks, by
 * the names they carry (the most used one).
 */
export class ClubBook {
  readonly clubs = new Map<number, ClubRow>();
  readonly altNames = new Map<number, Map<string, number>>();

  addName(tm: number, name: string): void {
    const n = name.trim();
    if (!n) return;
    let m = this.altNames.get(tm);
    if (!m) this.altNames.set(tm, (m = new Map()));
    m.set(n, (m.get(n) ?? 0) + 1);
  }

  private mostUsedName(tm: number): string | undefined {
    return [...(this.altNames.get(tm) ?? new Map<string, number>())].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0];
  }

  /** The club of a Transfermarkt id, added under its most used name when clubs.csv lacks it; null when no file names it. */
  ensure(tm: number): ClubRow | null {
    const known = this.clubs.get(tm);
    if (known) return known;
    const name = this.mostUsedName(tm);
    if (!name) return null;
    const row: ClubRow = { id: clubId(tm), registry_a_id: tm, name, country: null, is_national_team: false };
    this.clubs.set(tm, row);
    return row;
  }
}

/** clubs.csv; returns the ids it holds (a club absent from it may be a national team). */
export async function readClubs(rd: TableReader, book: ClubBook, countryOfLeague: ReadonlyMap<string, string>): Promise<Set<number>> {
  await rd.eachRow('clubs', rd.files.get('clubs'), (item, r) => {
    const tm = parseId(r.club_id);
    if (tm === null) return rd.reject('clubs', item, r.club_id ? 'bad_number' : 'missing_field', `club_id ${JSON.stringify(r.club_id ?? '')}`);
    const name = (r.name ?? '').trim();
    if (!name) return rd.reject('clubs', item, 'missing_field', 'name');
    if (book.clubs.has(tm)) return rd.reject('clubs', item, 'duplicate', `club_id ${tm}`);
    book.clubs.set(tm, { id: clubId(tm), registry_a_id: tm, name, country: countryOfLeague.get((r.domestic_competition_id ?? '').trim()) ?? null, is_national_team: false });
    book.addName(tm, name);
    return true;
  });
  rd.finish('clubs');
  return new Set(book.clubs.keys());
}
