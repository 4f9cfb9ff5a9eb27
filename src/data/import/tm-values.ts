import type { MarketValueRow } from '../../domain/world.js';
import { parseDate, parseId, parseNumber } from './mapping.js';
import { laterDate, type TableReader } from './table-reader.js';
import type { ClubBook } from './tm-clubs.js';
import type { PlayerIn } from './tm-players.js';

export interface Values {
  marketValues: MarketValueRow[];
  /** Indexes into marketValues per player: their club is set from his career once it is built. */
  valuations: Map<number, number[]>;
  /** The file's club per value row, to count where the career says otherwise. */
  scrapeClub: (string | null)[];
  /** Per player: the file's club (at scrape time, after the players snapshot) on his latest value row; null = a club we cannot name. */
  laterClub: Map<number, { date: string; club: string | null }>;
  dataEnd: string;
}

/** player_valuations.csv. */
export async function readValues(rd: TableReader, book: ClubBook, players: ReadonlyMap<number, PlayerIn>): Promise<Values> {
  let dataEnd = '0000-01-01';
  const valuations = new Map<number, number[]>();
  /** The file's club per value row, to count where the career says otherwise. */
  const scrapeClub: (string | null)[] = [];
  const laterClub = new Map<number, { date: string; club: string | null }>();
  const marketValues: MarketValueRow[] = [];
  const valueKeys = new Set<string>();
  await rd.eachRow('player_valuations', rd.files.get('player_valuations'), (item, r) => {
    const tm = parseId(r.player_id);
    if (tm === null) return rd.reject('player_valuations', item, r.player_id ? 'bad_number' : 'missing_field', `player_id ${JSON.stringify(r.player_id ?? '')}`);
    const date = parseDate(r.date);
    if (!date.ok) return rd.reject('player_valuations', item, 'bad_date', `date ${JSON.stringify(r.date)}`);
    if (date.value === null) return rd.reject('player_valuations', item, 'missing_field', 'date');
    const value = parseNumber(r.market_value_in_eur);
    if (!value.ok) return rd.reject('player_valuations', item, 'bad_number', `market_value_in_eur ${JSON.stringify(r.market_value_in_eur)}`);
    if (value.value === null) return rd.reject('player_valuations', item, 'missing_field', 'market_value_in_eur');
    if (value.value < 0) return rd.reject('player_valuations', item, 'bad_value', `negative market_value_in_eur ${value.value}`);
    const clubText = (r.current_club_id ?? '').trim();
    const clubTm = clubText ? parseId(clubText) : null;
    if (clubText && clubTm === null) return rd.reject('player_valuations', item, 'bad_number', `current_club_id ${JSON.stringify(clubText)}`);
    if (!players.has(tm)) return rd.reject('player_valuations', item, 'unknown_player', `player_id ${tm}`);
    const key = `${tm}:${date.value}`;
    if (valueKeys.has(key)) return rd.reject('player_valuations', item, 'duplicate', `player ${tm} on ${date.value}`);
    valueKeys.add(key);
    let club: string | null = null;
    if (clubTm !== null) {
      club = book.ensure(clubTm)?.id ?? null;
      if (club === null) rd.note('player_valuations', 'club_unknown_kept_without_club');
    }
    dataEnd = laterDate(dataEnd, date.value);
    let list = valuations.get(tm);
    if (!list) valuations.set(tm, (list = []));
    list.push(marketValues.length);
    scrapeClub.push(club);
    if (clubTm !== null && !((laterClub.get(tm)?.date ?? '') > date.value)) laterClub.set(tm, { date: date.value, club });
    marketValues.push({ player_id: (players.get(tm) as PlayerIn).row.id, date: date.value, value_eur: value.value, club_id: null });
    return true;
  });
  rd.finish('player_valuations');
  return { marketValues, valuations, scrapeClub, laterClub, dataEnd };
}
