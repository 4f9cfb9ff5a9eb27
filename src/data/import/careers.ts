import { daysBetween } from '../../domain/season.js';

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

export interface Valuation {
  date: string;
  club: string | null;
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
  valuations: Valuation[];
  /** The snapshot's current club, given only for players the snapshot lists as active. */
  currentClub: string | null;
  /** Last date the data covers: start of a current club seen nowhere else. */
  dataEnd: string;
}

export interface Career {
  steps: CareerStep[];
  /** `ref`s of the moves that are a loan or the return from one. */
  loanRefs: Set<number>;
}

/** A loan return is expected within two seasons (plus a month of slack for late registrations). */
export const LOAN_RETURN_MAX_DAYS = 800;
/** A club that paid for a player within this many days and lets him go for nothing is lending him. */
export const PAID_THEN_LOANED_MAX_DAYS = 4 * 365;

const byDate = <T extends { date: string }>(a: T, b: T) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0);

/**
 * Builds a player's career from his transfers (see docs/import.md for the rules): each move starts
 * a step at the destination and ends the previous one; a move to a pseudo-club only ends it. Loans
 * are inferred (no loan flag upstream): a free move A->B followed by a free or fee-less return
 * B->A within LOAN_RETURN_MAX_DAYS; a fee text saying loan; or, for the last move, a free move out
 * of a club that had paid for him recently, close to the end of the data (an ongoing loan).
 * Without transfers, the steps follow changes of the valuation club. The snapshot's current club
 * is then made the current step when it is not already: if he was there just before his last move,
 * that step is reopened (the snapshot predates the move); otherwise a step there is added, from his
 * first valuation there after his last move, else from the end of the data.
 */
export function buildCareer(input: CareerInput): Career {
  const moves = [...input.moves].sort(byDate);
  const valuations = [...input.valuations].sort(byDate);
  const loanRefs = new Set<number>();
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
  if (moves.length > 0) {
    const first = moves[0];
    if (first.from) {
      // The club before the first recorded move: its start is the first valuation there, if any.
      const seen = valuations.find((v) => v.club === first.from && v.date < first.date);
      if (seen) open = push(steps, { club_id: first.from, start_date: seen.date, end_date: null, is_loan: false, parent_club_id: null });
    }
    moves.forEach((m, i) => {
      if (m.to && open?.club_id === m.to) return;
      close(m.date);
      if (!m.to) return;
      const parent = loanParent.get(i) ?? null;
      open = push(steps, { club_id: m.to, start_date: m.date, end_date: null, is_loan: parent !== null, parent_club_id: parent });
    });
  } else {
    for (const v of valuations) {
      if (!v.club || open?.club_id === v.club) continue;
      close(v.date);
      open = push(steps, { club_id: v.club, start_date: v.date, end_date: null, is_loan: false, parent_club_id: null });
    }
  }

  const current = open as CareerStep | null;
  const before = steps.length >= 2 ? steps[steps.length - 2] : null;
  if (
    input.currentClub &&
    current?.club_id !== input.currentClub &&
    current !== null &&
    moves.length > 0 &&
    current.start_date === moves[moves.length - 1].date &&
    before?.club_id === input.currentClub &&
    before.end_date === current.start_date
  ) {
    // The snapshot predates his last move (a loan return on the last day of the data): he is still where the snapshot says.
    steps.pop();
    before.end_date = null;
    open = before;
  }
  if (input.currentClub && (open as CareerStep | null)?.club_id !== input.currentClub) {
    const after = moves.length > 0 ? moves[moves.length - 1].date : ((open as CareerStep | null)?.start_date ?? '');
    const seen = valuations.find((v) => v.club === input.currentClub && v.date > after);
    const start = seen?.date ?? (input.dataEnd > after ? input.dataEnd : after);
    close(start);
    open = push(steps, { club_id: input.currentClub, start_date: start, end_date: null, is_loan: false, parent_club_id: null });
  }

  // Same-day hops (a loan return and a new loan on one date) leave empty steps: drop them.
  const seen = new Set<string>();
  const kept = steps.filter((s) => {
    const key = `${s.start_date}|${s.club_id}`;
    if (s.end_date === s.start_date || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { steps: kept, loanRefs };
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
