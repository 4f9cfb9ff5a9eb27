import type { CareerStepRow, ContractRow } from '../../domain/world.js';
import { buildCareer, type CareerRule, type Move, type Played } from './careers.js';
import type { TableReader } from './table-reader.js';
import type { ClubBook } from './tm-clubs.js';
import type { PlayerIn } from './tm-players.js';
import type { TransferIn } from './tm-transfers.js';
import type { Values } from './tm-values.js';

export interface Careers {
  careerSteps: CareerStepRow[];
  contracts: ContractRow[];
  /** Per player, the clubs of his career in 2023-24 (to match him with the EA ratings by club name). */
  clubsDuring2023: Map<number, Set<string>>;
  /** Players each career rule of docs/import.md changed. */
  careerRules: Record<string, number>;
}

export interface CareerInputs {
  players: ReadonlyMap<number, PlayerIn>;
  transfers: TransferIn[];
  values: Values;
  playedBy: ReadonlyMap<number, Map<string, Played>>;
  nationalTeamOf: ReadonlyMap<number, { club: string; date: string }>;
  currentSeason: number;
  dataEnd: string;
}

/**
 * Careers, loans, contracts and values per player (docs/import.md): sets each transfer's loan flag,
 * each value's club, each player's national team and whether he can be analysed.
 */
export function buildCareers(rd: TableReader, book: ClubBook, inputs: CareerInputs): Careers {
  const { players, transfers, playedBy, nationalTeamOf, currentSeason, dataEnd } = inputs;
  const { marketValues, valuations, scrapeClub, laterClub } = inputs.values;
  const transfersOf = new Map<number, { move: Move; t: TransferIn }[]>();
  transfers.forEach((t, ref) => {
    let list = transfersOf.get(t.tmPlayer);
    if (!list) transfersOf.set(t.tmPlayer, (list = []));
    list.push({ t, move: { ref, date: t.row.date, from: t.row.from_club_id, to: t.row.to_club_id, fee: t.row.fee_eur, loanText: t.loanText } });
  });
  const careerSteps: CareerStepRow[] = [];
  const contracts: ContractRow[] = [];
  const clubsDuring2023 = new Map<number, Set<string>>();
  const valueCount = new Map<string, number>();
  for (const mv of marketValues) valueCount.set(mv.player_id, (valueCount.get(mv.player_id) ?? 0) + 1);
  const careerRules: Record<string, number> = {};
  const countRule = (rule: CareerRule | 'no_career_without_evidence') => (careerRules[rule] = (careerRules[rule] ?? 0) + 1);
  for (const p of players.values()) {
    // The snapshot's club is his club in his last season; he is a current player only when that season is the current one (or later).
    const snapshotClub = p.currentClubTm !== null && p.lastSeason !== null ? (book.ensure(p.currentClubTm)?.id ?? null) : null;
    const currentClub = snapshotClub !== null && (p.lastSeason as number) >= currentSeason ? snapshotClub : null;
    const own = transfersOf.get(p.tmId) ?? [];
    const career = buildCareer({
      moves: own.map((o) => o.move), played: [...(playedBy.get(p.tmId)?.values() ?? [])], snapshotClub, lastSeason: p.lastSeason, currentSeason, dataEnd,
    });
    for (const o of own) if (career.loanRefs.has(o.move.ref)) o.t.row.is_loan = true;
    for (const s of career.steps) careerSteps.push({ player_id: p.row.id, ...s });
    for (const rule of career.rules) countRule(rule);
    if (career.steps.length === 0 && (valuations.get(p.tmId)?.length ?? 0) > 0) countRule('no_career_without_evidence');
    // A value's club is his club on its date by his career; the file's club column is the club at scrape time.
    for (const i of valuations.get(p.tmId) ?? []) {
      const mv = marketValues[i];
      const step = career.steps.findLast((s) => s.start_date <= mv.date);
      mv.club_id = step && (step.end_date === null || mv.date < step.end_date) ? step.club_id : null;
      if (mv.club_id !== scrapeClub[i]) rd.note('player_valuations', mv.club_id === null ? 'club_none_on_that_date_by_career' : 'club_set_from_career');
    }
    const seen2023 = new Set<string>();
    for (const s of career.steps) if (s.start_date <= '2024-06-30' && (s.end_date === null || s.end_date >= '2023-07-01')) seen2023.add(s.club_id);
    if (currentClub) seen2023.add(currentClub);
    clubsDuring2023.set(p.tmId, seen2023);
    const last = career.steps[career.steps.length - 1];
    if (currentClub && last?.end_date === null) {
      // The contract is with the club of his running step (he may have left the snapshot's club); a loanee's with the club that lent him.
      const contractClub = last.is_loan && last.parent_club_id ? last.parent_club_id : last.club_id;
      const joined = [...career.steps].reverse().find((s) => s.club_id === contractClub && !s.is_loan);
      if (joined) {
        // players.csv is a later snapshot than the data's end: its contract may be one signed with the club he went on to
        // (Mbappé, at Paris on the last day of the data, carries his later Real Madrid contract). Where the valuations'
        // scrape-time club is neither his club nor his owner, he moved after the data's end and the contract is unknown,
        // unless it ended by then (a new club's contract does not).
        const later = laterClub.get(p.tmId);
        const moved = later !== undefined && later.club !== last.club_id && later.club !== contractClub;
        const borrowed = moved && p.contractEnd !== null && p.contractEnd > dataEnd;
        if (borrowed) rd.note('players', 'contract_of_a_later_club_unknown');
        contracts.push({ player_id: p.row.id, club_id: contractClub, signed_date: joined.start_date, end_date: borrowed ? null : p.contractEnd, agency_name: p.agent });
      } else rd.note('players', 'contract_without_join_date_skipped');
    }
    const nt = nationalTeamOf.get(p.tmId);
    if (nt) p.row.national_team_id = nt.club;
    p.row.analysis_available = p.row.birth_date !== null && p.row.position !== null && (valueCount.get(p.row.id) ?? 0) >= 2;
  }
  return { careerSteps, contracts, clubsDuring2023, careerRules };
}
