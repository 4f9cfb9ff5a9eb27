import { createHash } from 'node:crypto';
import type { TransferRow } from '../../domain/world.js';
import { isPseudoClub, parseDate, parseFee, parseId, parseNumber } from './mapping.js';
import { laterDate, type TableReader } from './table-reader.js';
import type { ClubBook } from './tm-clubs.js';
import type { PlayerIn } from './tm-players.js';

export interface TransferIn { row: TransferRow; tmPlayer: number; from: number | null; to: number | null; loanText: boolean }

const transferId = (key: string) => `T${createHash('sha256').update(`tm:transfer:${key}`).digest('hex').slice(0, 26).toUpperCase()}`;

/** transfers.csv; adds the clubs it names that clubs.csv lacks. `dataEnd`: its latest date. */
export async function readTransfers(rd: TableReader, book: ClubBook, players: ReadonlyMap<number, PlayerIn>): Promise<{ transfers: TransferIn[]; dataEnd: string }> {
  const transfers: TransferIn[] = [];
  const transferKeys = new Set<string>();
  let dataEnd = '0000-01-01';
  const transferClubIds = new Set<number>();
  await rd.eachRow('transfers', rd.files.get('transfers'), (item, r) => {
    const tm = parseId(r.player_id);
    if (tm === null) return rd.reject('transfers', item, r.player_id ? 'bad_number' : 'missing_field', `player_id ${JSON.stringify(r.player_id ?? '')}`);
    const date = parseDate(r.transfer_date);
    if (!date.ok) return rd.reject('transfers', item, 'bad_date', `transfer_date ${JSON.stringify(r.transfer_date)}`);
    if (date.value === null) return rd.reject('transfers', item, 'missing_field', 'transfer_date');
    const fee = parseFee(r.transfer_fee);
    if (!fee.ok) return rd.reject('transfers', item, 'bad_number', `transfer_fee ${JSON.stringify(r.transfer_fee)}`);
    if (fee.value.fee !== null && fee.value.fee < 0) return rd.reject('transfers', item, 'bad_value', `negative transfer_fee ${r.transfer_fee}`);
    const mv = parseNumber(r.market_value_in_eur);
    if (!mv.ok) return rd.reject('transfers', item, 'bad_number', `market_value_in_eur ${JSON.stringify(r.market_value_in_eur)}`);
    const ends: (number | null)[] = [];
    for (const side of ['from', 'to'] as const) {
      const idText = (r[`${side}_club_id`] ?? '').trim();
      const name = (r[`${side}_club_name`] ?? '').trim();
      if (isPseudoClub(name)) {
        ends.push(null);
        continue;
      }
      const club = parseId(idText);
      if (club === null) return rd.reject('transfers', item, idText ? 'bad_number' : 'missing_field', `${side}_club_id ${JSON.stringify(idText)}`);
      if (!book.clubs.has(club) && !name) return rd.reject('transfers', item, 'unknown_club', `${side}_club_id ${club} is not in clubs and has no name`);
      ends.push(club);
    }
    if (!players.has(tm)) return rd.reject('transfers', item, 'unknown_player', `player_id ${tm}`);
    const key = `${tm}:${date.value}:${(r.from_club_id ?? '').trim()}:${(r.to_club_id ?? '').trim()}`;
    if (transferKeys.has(key)) return rd.reject('transfers', item, 'duplicate', `player ${tm}, ${date.value}, ${r.from_club_id} -> ${r.to_club_id}`);
    transferKeys.add(key);
    for (const [i, side] of (['from', 'to'] as const).entries()) {
      const c = ends[i];
      if (c !== null) {
        book.addName(c, r[`${side}_club_name`] ?? '');
        transferClubIds.add(c);
      }
    }
    dataEnd = laterDate(dataEnd, date.value);
    transfers.push({
      tmPlayer: tm, from: ends[0], to: ends[1], loanText: fee.value.loanText,
      row: {
        id: transferId(key), player_id: (players.get(tm) as PlayerIn).row.id, date: date.value, from_club_id: null, to_club_id: null, fee_eur: fee.value.fee,
        market_value_eur: mv.value, is_loan: false,
      },
    });
    return true;
  });
  rd.finish('transfers');
  for (const tm of transferClubIds) book.ensure(tm);
  for (const t of transfers) {
    t.row.from_club_id = t.from === null ? null : (book.clubs.get(t.from)?.id ?? null);
    t.row.to_club_id = t.to === null ? null : (book.clubs.get(t.to)?.id ?? null);
  }
  return { transfers, dataEnd };
}
