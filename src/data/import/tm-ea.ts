import type { PlayerAttribute, PlayerAttributesRow, RatingRow } from '../../domain/world.js';
import { fileAt } from './csv-source.js';
import { eaAttributes } from './ea-roles.js';
import { eaRoleBySofifaId, fc24Attributes, fc25Attributes, fc25Role, matchEa, type Ea24Row, type Ea25Row, type MatchMethod, type MatchPlayer } from './ea.js';
import { eaPosition, firstRoleFor, parseId, parseNumber } from './mapping.js';
import type { TableReader } from './table-reader.js';
import type { ClubBook } from './tm-clubs.js';
import type { PlayerIn } from './tm-players.js';

/** FC 25's ages are counted in 2024. */
const FC25_SEASON_YEAR = 2024;

export interface EaSummary {
  fc24_rows: number;
  fc24_matched: number;
  /** Matched share of the FC 24 rows, 0..1. */
  match_rate: number;
  by_method: Partial<Record<MatchMethod, number>>;
  fc25_rows: number;
  fc25_loaded: number;
}

/**
 * The EA calibration input: FC 24 ratings matched to our players (season 2023) and the FC 25
 * ratings mapped by Transfermarkt id (season 2024); no file given, no ratings.
 */
export async function readEa(
  rd: TableReader, options: { eaRatings?: string; eaMapping?: string }, book: ClubBook, players: ReadonlyMap<number, PlayerIn>,
  clubsDuring2023: ReadonlyMap<number, Set<string>>,
): Promise<{ ratings: RatingRow[]; attributes: PlayerAttributesRow[]; ea: EaSummary | null }> {
  const ratings: RatingRow[] = [];
  const attributes: PlayerAttributesRow[] = [];
  let ea: EaSummary | null = null;
  if (options.eaRatings || options.eaMapping) {
    const ea24: Ea24Row[] = [];
    const ea25: (Ea25Row & { ovr: number; position: string; line: number; raw: string; attributes: Partial<Record<PlayerAttribute, number>> })[] = [];
    const sofifaSeen = new Set<number>();
    if (options.eaRatings) {
      await rd.eachRow('ea_ratings', fileAt('ea_ratings', options.eaRatings), (item, r) => {
        const url = (r.URL ?? '').trim().replace(/\/+$/, '');
        const sofifa = parseId(url.slice(url.lastIndexOf('/') + 1));
        if (sofifa === null) return rd.reject('ea_ratings', item, url ? 'bad_number' : 'missing_field', `URL ${JSON.stringify(r.URL ?? '')}`);
        const age = parseNumber(r.Age);
        const overall = parseNumber(r.Overall);
        if (!age.ok || !overall.ok || age.value === null || overall.value === null) return rd.reject('ea_ratings', item, 'bad_number', `Age/Overall ${r.Age}/${r.Overall}`);
        if (!(r.Name ?? '').trim()) return rd.reject('ea_ratings', item, 'missing_field', 'Name');
        if (sofifaSeen.has(sofifa)) return rd.reject('ea_ratings', item, 'duplicate', `EA id ${sofifa}`);
        sofifaSeen.add(sofifa);
        ea24.push({ line: item.line, sofifaId: sofifa, name: r.Name.trim(), club: (r.Club ?? '').trim(), age: age.value, overall: overall.value, position: (r.Position ?? '').trim(), attributes: fc24Attributes(r), roleAttributes: eaAttributes(r), foot: r['Preferred foot'] ?? '' });
        return true;
      });
      rd.finish('ea_ratings');
    }
    const mappedTm = new Set<number>();
    if (options.eaMapping) {
      await rd.eachRow('ea_mapping', fileAt('ea_mapping', options.eaMapping), (item, r) => {
        const tm = parseId(r.player_id);
        if (tm === null) return rd.reject('ea_mapping', item, r.player_id ? 'bad_number' : 'missing_field', `player_id ${JSON.stringify(r.player_id ?? '')}`);
        const ovr = parseNumber(r.OVR);
        const age = parseNumber(r.Age);
        if (!ovr.ok || ovr.value === null || !age.ok) return rd.reject('ea_mapping', item, 'bad_number', `OVR/Age ${r.OVR}/${r.Age}`);
        if (!players.has(tm)) return rd.reject('ea_mapping', item, 'unknown_player', `player_id ${tm}`);
        if (mappedTm.has(tm)) return rd.reject('ea_mapping', item, 'duplicate', `player_id ${tm}`);
        // The mapping file links some ids to a namesake (Granada's Mario González, 20, to Famalicão's, 28):
        // a row whose age does not fit the player's birth year is someone else's rating.
        const born = players.get(tm)!.row.birth_date;
        if (born && age.value !== null && Math.abs(FC25_SEASON_YEAR - age.value - Number(born.slice(0, 4))) > 1) {
          return rd.reject('ea_mapping', item, 'age_mismatch', `age ${age.value} in FC 25, born ${born.slice(0, 10)}`);
        }
        mappedTm.add(tm);
        ea25.push({ tmId: tm, name: (r.name ?? '').trim(), age: age.value, team: (r.Team ?? '').trim(), ovr: ovr.value, position: (r.Position ?? '').trim(), line: item.line, raw: item.raw, attributes: fc25Attributes(r) });
        return true;
      });
      rd.finish('ea_mapping');
    }
    const namesByClub = new Map<string, string[]>();
    for (const c of book.clubs.values()) namesByClub.set(c.id, [c.name, ...(book.altNames.get(c.registry_a_id as number)?.keys() ?? [])]);
    const namesOf = (clubIdSet: Set<string>) => [...clubIdSet].flatMap((id) => namesByClub.get(id) ?? []);
    const byClubId = new Map<string, string[]>();
    const matchPlayers: MatchPlayer[] = [...players.values()].map((p) => {
      const set = clubsDuring2023.get(p.tmId) ?? new Set<string>();
      const key = [...set].sort().join(',');
      let names = byClubId.get(key);
      if (!names) byClubId.set(key, (names = namesOf(set)));
      return { id: p.row.id, tmId: p.tmId, name: p.row.name, lastName: p.row.last_name, birthYear: p.row.birth_date ? Number(p.row.birth_date.slice(0, 4)) : null, clubNames: names };
    });
    const matches24 = matchEa(matchPlayers, ea24, ea25);
    const roles24 = eaRoleBySofifaId(ea24);
    const roleOf24 = new Map<string, string>();
    const byPlayerId = new Map([...players.values()].map((p) => [p.row.id, p]));
    const byMethod: Partial<Record<MatchMethod, number>> = {};
    for (const m of matches24) {
      const p = byPlayerId.get(m.playerId) as PlayerIn;
      p.row.registry_b_id = m.row.sofifaId;
      byMethod[m.method] = (byMethod[m.method] ?? 0) + 1;
      const position = eaPosition(m.row.position) ?? p.row.position;
      const role = roles24.get(m.row.sofifaId) ?? (position ? firstRoleFor(position) : null);
      if (!position || !role) continue;
      roleOf24.set(p.row.id, role);
      ratings.push({ player_id: p.row.id, season: 2023, rating: m.row.overall, potential: m.row.overall, best_role: role, position, source: 'ea' });
      if (Object.keys(m.row.attributes).length > 0) attributes.push({ player_id: p.row.id, season: 2023, source: 'ea', attributes: JSON.stringify(m.row.attributes) });
    }
    let fc25Loaded = 0;
    for (const r of ea25) {
      const p = players.get(r.tmId) as PlayerIn;
      const position = eaPosition(r.position) ?? p.row.position;
      const role = position ? fc25Role(position, roleOf24.get(p.row.id)) : null;
      if (!position || role === null) {
        rd.rejects.add('ea_mapping', r.line, 'bad_value', `no position for ${JSON.stringify(r.position)}`, r.raw);
        continue;
      }
      ratings.push({ player_id: p.row.id, season: 2024, rating: r.ovr, potential: r.ovr, best_role: role, position, source: 'ea' });
      if (Object.keys(r.attributes).length > 0) attributes.push({ player_id: p.row.id, season: 2024, source: 'ea', attributes: JSON.stringify(r.attributes) });
      fc25Loaded++;
    }
    if (rd.tables.ea_mapping) {
      rd.tables.ea_mapping.loaded = fc25Loaded;
      rd.tables.ea_mapping.rejected = rd.rejects.count('ea_mapping');
      rd.tables.ea_mapping.reasons = rd.rejects.reasons('ea_mapping');
    }
    ea = {
      fc24_rows: ea24.length,
      fc24_matched: matches24.length,
      match_rate: ea24.length ? Math.round((matches24.length / ea24.length) * 10_000) / 10_000 : 0,
      by_method: byMethod,
      fc25_rows: ea25.length,
      fc25_loaded: fc25Loaded,
    };
    rd.reporter.info(`EA: ${matches24.length} of ${ea24.length} FC 24 players matched (${(ea.match_rate * 100).toFixed(1)}%), ${fc25Loaded} FC 25 ratings`);
  }
  return { ratings, attributes, ea };
}
