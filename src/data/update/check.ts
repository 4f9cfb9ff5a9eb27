import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { findTableFile } from '../import/csv-source.js';
import { UpdateError } from './source.js';

/** The columns the importer reads, per table of the dataset; `required` tables must be there. */
export const NEEDED: ReadonlyArray<{ table: string; required: boolean; columns: readonly string[] }> = [
  { table: 'competitions', required: true, columns: ['competition_id', 'name', 'type', 'sub_type', 'country_name', 'is_major_national_league'] },
  { table: 'clubs', required: true, columns: ['club_id', 'name', 'domestic_competition_id'] },
  {
    table: 'players', required: true,
    columns: ['player_id', 'first_name', 'last_name', 'name', 'last_season', 'current_club_id', 'country_of_birth', 'country_of_citizenship', 'date_of_birth', 'sub_position', 'position', 'foot', 'height_in_cm', 'contract_expiration_date', 'agent_name'],
  },
  { table: 'player_valuations', required: true, columns: ['player_id', 'date', 'market_value_in_eur', 'current_club_id'] },
  { table: 'transfers', required: true, columns: ['player_id', 'transfer_date', 'from_club_id', 'to_club_id', 'transfer_fee', 'market_value_in_eur'] },
  { table: 'games', required: true, columns: ['game_id', 'competition_id', 'season', 'date', 'home_club_id', 'away_club_id', 'home_club_goals', 'away_club_goals', 'home_club_name', 'away_club_name'] },
  { table: 'club_games', required: false, columns: ['game_id', 'club_id', 'own_goals', 'opponent_goals'] },
  { table: 'game_lineups', required: false, columns: ['game_id', 'player_id', 'type'] },
  { table: 'appearances', required: false, columns: ['appearance_id', 'game_id', 'player_id', 'player_club_id', 'date', 'competition_id', 'minutes_played'] },
];

/** The header line of a `.csv` or `.csv.gz` file. */
async function headerOf(path: string, gzip: boolean): Promise<string[]> {
  const stream = gzip ? createReadStream(path).pipe(createGunzip()) : createReadStream(path);
  let text = '';
  try {
    for await (const chunk of stream) {
      text += (chunk as Buffer).toString('utf8');
      if (text.includes('\n') || text.length > 64 * 1024) break;
    }
  } catch (err) {
    throw new UpdateError(`${path} cannot be read: ${(err as Error).message}`);
  } finally {
    stream.destroy();
  }
  return text.split(/\r?\n/)[0].replace(/^\uFEFF/, '').split(',').map((c) => c.trim().replace(/^"|"$/g, ''));
}

/** Checks every table and column the import needs, before anything is touched; names the first problem. */
export async function checkLayout(dir: string): Promise<string[]> {
  const present: string[] = [];
  for (const need of NEEDED) {
    let file;
    try {
      file = findTableFile(dir, need.table);
    } catch (err) {
      throw new UpdateError((err as Error).message);
    }
    if (!file) {
      if (need.required) throw new UpdateError(`table ${need.table} is missing (no ${need.table}.csv or ${need.table}.csv.gz in the source)`);
      continue;
    }
    const header = new Set(await headerOf(file.path, file.gzip));
    const missing = need.columns.filter((c) => !header.has(c));
    if (missing.length > 0) throw new UpdateError(`table ${need.table} lacks column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
    present.push(need.table);
  }
  return present;
}
