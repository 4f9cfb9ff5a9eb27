import type { CompetitionRow } from '../../domain/world.js';
import type { CsvItem } from './csv-source.js';
import { competitionIds, competitionKind, displayName, type TmCompetition } from './mapping.js';
import type { TableReader } from './table-reader.js';

export interface Competitions {
  /** Competition codes as the file spells them (`GB1`). */
  codes: Set<string>;
  /** By code. */
  byCode: Map<string, CompetitionRow>;
  /** Code -> country, for the leagues that name one. */
  countryOfLeague: Map<string, string>;
}

/** competitions.csv: our competition rows, keyed by the file's codes. */
export async function readCompetitions(rd: TableReader): Promise<Competitions> {
  const compRaw: (TmCompetition & { item: CsvItem })[] = [];
  const codes = new Set<string>();
  await rd.eachRow('competitions', rd.files.get('competitions'), (item, r) => {
    const code = (r.competition_id ?? '').trim();
    if (!code || !(r.name ?? '').trim()) return rd.reject('competitions', item, 'missing_field', !code ? 'competition_id' : 'name');
    if (codes.has(code)) return rd.reject('competitions', item, 'duplicate', `competition_id ${code}`);
    codes.add(code);
    compRaw.push({
      competition_id: code, name: r.name.trim(), type: r.type ?? '', sub_type: r.sub_type ?? '', country_name: (r.country_name ?? '').trim(),
      is_major_national_league: r.is_major_national_league ?? '', item,
    });
    return true;
  });
  rd.finish('competitions');
  const compIds = competitionIds(compRaw);
  const competitions = new Map<string, CompetitionRow>();
  const countryOfLeague = new Map<string, string>();
  for (const c of compRaw) {
    const kind = competitionKind(c);
    competitions.set(c.competition_id, {
      id: compIds.get(c.competition_id) as string, name: displayName(c.name), country: c.country_name || null, type: kind.type, tier: kind.tier,
      registry_a_code: c.competition_id,
    });
    if (c.country_name) countryOfLeague.set(c.competition_id, c.country_name);
  }
  return { codes, byCode: competitions, countryOfLeague };
}
