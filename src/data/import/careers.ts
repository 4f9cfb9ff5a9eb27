import { daysBetween, seasonEnd, seasonOf, seasonStart } from '../../domain/season.js';

/** One transfer row of a player, clubs already mapped to our ids (null = pseudo-club or none). */
export interface Move {
  /** Position of the row in the importer's transfer list, to flag loans on it. */
  ref: number;
  date: string;
  from: string | null;
  to: string | null;
  fee: number | null;
  /** The fee column said "loan". */
  loanText: boolean;
}

/** Appearance evidence: first and last game a player played for a club in one season. */
export interface Played {
  club: string;
  first: string;
  last: string;
}

export interface CareerStep {
  club_id: string;
  start_date: string;
  end_date: string | null;
  is_loan: boolean;
  parent_club_id: string | null;
}

export interface CareerInput {
  moves: Move[];
  /** Appearances for clubs (national teams aside), where the data has appearances. */
  played: Played[];
  /** The snapshot's club (players.current_club_id): his club in his last season. */
  snapshotClub: string | null;
  /** The snapshot's last season he played in the covered leagues (null for bio-only rows). */
  lastSeason: number | null;
  /** Season of the import's as-of date. */
  currentSeason: number;
  /** Last date the data covers: start of a current club seen nowhere else. */
  dataEnd: string;
}

/** What the rules of docs/import.md did to one career; the importer counts them in its summary. */
export type CareerRule =
  | 'ended_at_end_of_last_season'
  | 'late_move_ended_at_end_of_its_season'
  | 'step_started_at_an_appearance'
  | 'snapshot_club_from_start_of_last_season'
  | 'snapshot_club_from_end_of_data'
  | 'snapshot_club_left_during_last_season'
  | 'snapshot_club_step_reopened';

export interface Career {
  steps: CareerStep[];
  /** `ref`s of the moves that are a loan or the return from one. */
  loanRefs: Set<number>;
  rules: Set<CareerRule>;
}

/** A loan return is expected within two seasons (plus a month of slack for late registrations). */
export const LOAN_RETURN_MAX_DAYS = 800;
/** A club that paid for a player within this many days and lets him go for nothing is lending him. */
export const PAID_THEN_LOANED_MAX_DAYS = 4 * 365;

const byDate = <T extends { date: string }>(a: T, b: T) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0);

/** Consecutive appearances for one club, oldest first. */
function spellsOf(played: readonly Played[]): Played[] {
  const out: Played[] = [];
  for (const p of [...played].sort((a, b) => a.first.localeCompare(b.first) || a.club.localeCompare(b.club))) {
    const prev = out[out.length - 1];
    if (prev?.club === p.club) prev.last = p.last > prev.last ? p.last : prev.last;
    else out.push({ ...p });
  }
  return out;
}

/**
 * Builds a player's career from what the data vouches for (rules in docs/import.md): transfers,
 * appearances, and the snapshot's last season and club. Never from the valuations' club column,
 * which is the club at scrape time, not at the valuation's date.
 * - Each move starts a step at the destination and ends the previous one; a move to a pseudo-club
 *   only ends it. Loans are inferred (no loan flag upstream): a free move A->B followed by a free or
 *   fee-less return B->A within LOAN_RETURN_MAX_DAYS; a fee text saying loan; or, for the last move,
 *   a free move out of a club that had paid for him recently, close to the end of the data.
 * - Appearances before the first move (all of them without moves) make steps from their first game.
 * - The snapshot's club is his club in his last season: when the career does not end there, a step
 *   there is added from the start of that season when that follows his last move; when he left it
 *   during that season the later transfers stand; otherwise a current player gets a step there from
 *   the end of the data. A snapshot that predates a last-day loan return keeps him at the loan club.
 * - A last season before the current one ends the last step at the end of that season (a step
 *   begun later, by a move out of the covered leagues, at the end of its own season).
 */
export function buildCareer(input: CareerInput): Career {
  const moves = [...input.moves].sort(byDate);
  const loanRefs = new Set<number>();
  const rules = new Set<CareerRule>();
  const loanParent = new Map<number, string>();
  const isReturn = new Set<number>();

  for (let i = 0; i < moves.length; i++) {
    const m = moves[i];
    if (!m.from || !m.to || m.from === m.to || isReturn.has(i)) continue;
    if (m.fee !== 0 && !m.loanText) continue;
    const next = moves[i + 1];
    const returned =
      next !== undefined &&
      next.from === m.to &&
      next.to === m.from &&
      (next.fee === 0 || next.fee === null) &&
      daysBetween(m.date, next.date) <= LOAN_RETURN_MAX_DAYS;
    let loan = returned || m.loanText;
    if (!loan && next === undefined) loan = ongoingLoan(moves, i, isReturn, input.dataEnd);
    if (loan) {
      loanRefs.add(m.ref);
      loanParent.set(i, m.from);
      if (returned) {
        loanRefs.add(next.ref);
        isReturn.add(i + 1);
      }
    }
  }

  const steps: CareerStep[] = [];
  let open: CareerStep | null = null;
  const close = (date: string) => {
    if (open) open.end_date = date;
    open = null;
  };
  const plain = (club_id: string, start_date: string): CareerStep => ({ club_id, start_date, end_date: null, is_loan: false, parent_club_id: null });
  // Appearances vouch for a club from the first game: before the first move, or all along without moves.
  const firstMove = moves[0]?.date;
  for (const sp of spellsOf(input.played)) {
    if (firstMove !== undefined && sp.first >= firstMove) break;
    close(sp.first);
    open = push(steps, plain(sp.club, sp.first));
    rules.add('step_started_at_an_appearance');
  }
  moves.forEach((m, i) => {
    if (m.to && open?.club_id === m.to) return;
    close(m.date);
    if (!m.to) return;
    const parent = loanParent.get(i) ?? null;
    open = push(steps, { club_id: m.to, start_date: m.date, end_date: null, is_loan: parent !== null, parent_club_id: parent });
  });

  const club = input.snapshotClub;
  const season = input.lastSeason;
  if (club && season !== null && (open as CareerStep | null)?.club_id !== club) {
    const current = open as CareerStep | null;
    const before = steps.length >= 2 ? steps[steps.length - 2] : null;
    const active = season >= input.currentSeason;
    if (
      current !== null &&
      moves.length > 0 &&
      current.start_date === moves[moves.length - 1].date &&
      current.start_date === input.dataEnd &&
      before?.club_id === club &&
      before.end_date === current.start_date
    ) {
      // The snapshot predates his last move (a loan return on the last day of the data): he is still where the snapshot says.
      steps.pop();
      before.end_date = null;
      open = before;
      rules.add('snapshot_club_step_reopened');
    } else {
      const after = moves.length > 0 ? moves[moves.length - 1].date : (current?.start_date ?? '');
      const seasonStarts = seasonStart(season);
      if (seasonStarts > after) {
        close(seasonStarts);
        open = push(steps, plain(club, seasonStarts));
        rules.add('snapshot_club_from_start_of_last_season');
      } else if (steps.some((s) => s.club_id === club && s.start_date <= seasonEnd(season) && (s.end_date === null || s.end_date > seasonStarts))) {
        // He left the snapshot's club during his last season (Laporte, Man City to Al-Nassr in August 2023): the
        // snapshot keeps the last club of the covered leagues, the later transfer says where he went.
        if (active) rules.add('snapshot_club_left_during_last_season');
      } else if (active) {
        // He moved during his last season and the snapshot has him elsewhere: the data vouches for that club only at its end.
        const start = input.dataEnd > after ? input.dataEnd : after;
        close(start);
        open = push(steps, plain(club, start));
        rules.add('snapshot_club_from_end_of_data');
      }
    }
  }

  const at = open as CareerStep | null;
  if (club && season !== null && moves.length === 0 && at?.club_id === club && at.start_date > seasonStart(season)) {
    // Without moves, his last season there vouches for its start even when his first game there came later.
    const prev = steps.length >= 2 ? steps[steps.length - 2] : null;
    if (!prev || prev.start_date < seasonStart(season)) {
      at.start_date = seasonStart(season);
      if (prev) prev.end_date = at.start_date;
      rules.add('snapshot_club_from_start_of_last_season');
    }
  }

  if (season !== null && season < input.currentSeason && open !== null) {
    const last = open as CareerStep;
    const ends = seasonEnd(season);
    if (last.start_date < ends) {
      last.end_date = ends;
      rules.add('ended_at_end_of_last_season');
    } else {
      last.end_date = seasonEnd(seasonOf(last.start_date));
      rules.add('late_move_ended_at_end_of_its_season');
    }
    open = null;
  }

  // Same-day hops (a loan return and a new loan on one date) leave empty steps: drop them.
  const seen = new Set<string>();
  const kept = steps.filter((s) => {
    const key = `${s.start_date}|${s.club_id}`;
    if (s.end_date === s.start_date || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { steps: kept, loanRefs, rules };
}

function push(steps: CareerStep[], s: CareerStep): CareerStep {
  steps.push(s);
  return s;
}

/**
 * The last move is free: is it a loan still running? Only when it is recent enough that its return
 * could not be in the data yet, and the selling club paid for him within PAID_THEN_LOANED_MAX_DAYS
 * (returns from earlier loans are looked through to the move that brought him there).
 */
function ongoingLoan(moves: Move[], i: number, isReturn: Set<number>, dataEnd: string): boolean {
  const m = moves[i];
  if (daysBetween(m.date, dataEnd) > LOAN_RETURN_MAX_DAYS) return false;
  for (let k = i - 1; k >= 0; k--) {
    const prev = moves[k];
    if (prev.to !== m.from || isReturn.has(k)) continue;
    return prev.fee !== null && prev.fee > 0 && daysBetween(prev.date, m.date) <= PAID_THEN_LOANED_MAX_DAYS;
  }
  return false;
}
