import type { PlayerRow } from '../../domain/world.js';
import { stableId } from '../../domain/ids.js';
import { mapFoot, mapPosition, normaliseName, parseDate, parseId, parseNumber } from './mapping.js';
import type { TableReader } from './table-reader.js';

export interface PlayerIn {
  tmId: number;
  row: PlayerRow;
  lastSeason: number | null;
  currentClubTm: number | null;
  contractEnd: string | null;
  agent: string | null;
}

const playerId = (tmId: number) => stableId('P', `tm:player:${tmId}`);

/** Some upstream rows carry a league code (`GB1`) as agent name: that is no agency. */
function agentName(raw: string | undefined, competitionCodes: Set<string>, onCode: () => void): string | null {
  const v = (raw ?? '').trim();
  if (!v) return null;
  if (competitionCodes.has(v)) {
    onCode();
    return null;
  }
  return v;
}

export interface Players {
  byTm: Map<number, PlayerIn>;
  /** The latest last_season of the file (-Infinity when none). */
  maxLastSeason: number;
  /** Normalised country names (of leagues and of players), to tell a national team by its name. */
  countries: Set<string>;
}

/** players.csv. */
export async function readPlayers(rd: TableReader, competitionCodes: Set<string>, countryOfLeague: ReadonlyMap<string, string>): Promise<Players> {
  const players = new Map<number, PlayerIn>();
  let maxLastSeason = -Infinity;
  await rd.eachRow('players', rd.files.get('players'), (item, r) => {
    const tm = parseId(r.player_id);
    if (tm === null) return rd.reject('players', item, r.player_id ? 'bad_number' : 'missing_field', `player_id ${JSON.stringify(r.player_id ?? '')}`);
    if (players.has(tm)) return rd.reject('players', item, 'duplicate', `player_id ${tm}`);
    const first = (r.first_name ?? '').trim();
    const last = (r.last_name ?? '').trim() || (first ? '' : (r.name ?? '').trim());
    if (!last && !first) return rd.reject('players', item, 'missing_field', 'name');
    const birth = parseDate(r.date_of_birth);
    if (!birth.ok) return rd.reject('players', item, 'bad_date', `date_of_birth ${JSON.stringify(r.date_of_birth)}`);
    const contract = parseDate(r.contract_expiration_date);
    if (!contract.ok) return rd.reject('players', item, 'bad_date', `contract_expiration_date ${JSON.stringify(r.contract_expiration_date)}`);
    const height = parseNumber(r.height_in_cm);
    if (!height.ok) return rd.reject('players', item, 'bad_number', `height_in_cm ${JSON.stringify(r.height_in_cm)}`);
    const lastSeason = parseNumber(r.last_season);
    if (!lastSeason.ok) return rd.reject('players', item, 'bad_number', `last_season ${JSON.stringify(r.last_season)}`);
    const current = (r.current_club_id ?? '').trim();
    const currentTm = current ? parseId(current) : null;
    if (current && currentTm === null) return rd.reject('players', item, 'bad_number', `current_club_id ${JSON.stringify(current)}`);
    const fullName = first ? (last ? `${first} ${last}` : first) : last;
    if (lastSeason.value !== null) maxLastSeason = Math.max(maxLastSeason, lastSeason.value);
    players.set(tm, {
      tmId: tm,
      lastSeason: lastSeason.value,
      currentClubTm: currentTm,
      contractEnd: contract.value,
      agent: agentName(r.agent_name, competitionCodes, () => rd.note('players', 'agent_name_was_a_competition_code')),
      row: {
        id: playerId(tm), registry_a_id: tm, registry_b_id: null, name: fullName, first_name: first, last_name: last || first, alias: null,
        nationality: (r.country_of_citizenship ?? '').trim() || (r.country_of_birth ?? '').trim() || 'Unknown',
        birth_date: birth.value,
        height_cm: height.value !== null && height.value > 0 ? height.value : null,
        foot: mapFoot(r.foot ?? ''),
        position: mapPosition(r.sub_position ?? '', r.position ?? ''),
        national_team_id: null,
        analysis_available: false,
      },
    });
    return true;
  });
  rd.finish('players');
  const countries = new Set<string>();
  for (const country of countryOfLeague.values()) countries.add(normaliseName(country));
  for (const p of players.values()) if (p.row.nationality !== 'Unknown') countries.add(normaliseName(p.row.nationality));
  return { byTm: players, maxLastSeason, countries };
}
