/**
 * What a move to a stronger or weaker club does to a player's value, as the market showed it.
 *
 * The boosted location model learns a player's value path at his own club; read at another club's
 * features it extrapolates (a star at a club far weaker than any star ever stayed at looked like a
 * bargain about to rise). So the club asked about enters only through this effect, learned from the
 * moves in the data: for every permanent transfer with a fresh value the day before and a value
 * `horizon` years on, the change of log value in excess of players of his age and value who did not
 * move in those years (same start year), regressed on the difference of club strength (buyer minus
 * seller, features/clubStrengthAt) with separate slopes up and down, per age group, shrunk towards
 * the slope of all ages. Slopes are kept >= 0: a weaker club never raises the value.
 */
import type { Snapshot } from '../../domain/snapshot.js';
import { ageAt, clubStrengthAt, logValueAt, valueSeries, type FeatureIndex } from '../features/index.js';
import { addDays, addYears, dayOf } from '../../domain/days.js';
import { median } from '../ml/metrics.js';

/** Upper ends of the age groups (years at the move). */
export const MOVE_AGE_UPPER = [21, 24, 28, 31, Infinity] as const;
/** Moves of weight equal to the pooled slope in the shrinkage of a group's slope. */
const SHRINK_ROWS = 500;
/** Non-movers per cell below which a cell gives no expected change. */
const MIN_CELL = 15;
/** Excess changes are clipped to this (log units) so a handful of collapses or explosions do not set a slope. */
const CLIP = 2;
const FRESH_DAYS = 200;
/** Start years read (the latest whose horizon has passed), as many as the future model's comparables. */
const YEARS = 10;

export interface ClubMoveEffect {
  horizonYears: number;
  /** Per age group of MOVE_AGE_UPPER: log value change per unit of club strength, moving down / up (>= 0). */
  down: number[];
  up: number[];
  /** Moves per age group the slopes were read from. */
  rows: number[];
}

const ageGroup = (age: number) => MOVE_AGE_UPPER.findIndex((u) => age < u);

/** Least-squares slope through the origin of y on x (0 without data). */
function slopeThroughOrigin(rows: { d: number; ex: number }[], centre: number): number {
  let sxy = 0;
  let sxx = 0;
  for (const r of rows) {
    sxy += r.d * (r.ex - centre);
    sxx += r.d * r.d;
  }
  return sxx > 0 ? sxy / sxx : 0;
}

/**
 * Reads the effect from the snapshot's moves whose horizon ends on or before the as-of date (null
 * when fewer than 200 such moves).
 */
export function fitClubMoveEffect(snapshot: Snapshot, idx: FeatureIndex, horizonYears: number): ClubMoveEffect | null {
  const asOf = snapshot.asOf;
  const startYear = Number(asOf.slice(0, 4)) - horizonYears - YEARS;
  const moveYears = new Map<string, Set<number>>();
  for (const t of snapshot.transfers) {
    let s = moveYears.get(t.player_id);
    if (!s) moveYears.set(t.player_id, (s = new Set()));
    s.add(Number(t.date.slice(0, 4)));
  }
  const key = (y: number, age: number, lv: number) => `${y}|${Math.floor(age / 2)}|${Math.floor(lv)}`;
  // Expected change of players who stayed: median per start year, two-year age band and log value unit.
  const stayed = new Map<string, number[]>();
  for (let y = startYear; ; y++) {
    const d0 = `${y}-07-31`;
    const d1 = addYears(d0, horizonYears);
    if (d1 > asOf) break;
    const first = dayOf(d0) - FRESH_DAYS;
    const last = dayOf(d1) - 365;
    for (const [pid, series] of valueSeries(idx)) {
      // Cheap bounds first: a value before the start and one in the year before the end.
      if (series.days.length < 2 || series.days[0] > dayOf(d0) || series.days[series.days.length - 1] < last || series.days[series.days.length - 1] < first) continue;
      const moved = moveYears.get(pid);
      let any = false;
      for (let k = 0; k <= horizonYears && moved; k++) if (moved.has(y + k)) any = true;
      if (any) continue;
      const a = logValueAt(idx, pid, d0, FRESH_DAYS);
      const b = logValueAt(idx, pid, d1, 365);
      const age = ageAt(idx, pid, d0);
      if (!Number.isFinite(a) || !Number.isFinite(b) || !Number.isFinite(age)) continue;
      const k = key(y, age, a);
      let list = stayed.get(k);
      if (!list) stayed.set(k, (list = []));
      list.push(b - a);
    }
  }
  const expected = new Map<string, number>();
  for (const [k, list] of stayed) if (list.length >= MIN_CELL) expected.set(k, median(list));

  const moves: { g: number; d: number; ex: number }[] = [];
  for (const t of snapshot.transfers) {
    if (t.is_loan || !t.from_club_id || !t.to_club_id) continue;
    const y = Number(t.date.slice(0, 4)) - (t.date.slice(5) < '07-01' ? 1 : 0);
    if (y < startYear) continue;
    const d1 = addYears(`${y}-07-31`, horizonYears);
    if (d1 > asOf) continue;
    const before = addDays(t.date, -1);
    const a = logValueAt(idx, t.player_id, before, FRESH_DAYS);
    const b = logValueAt(idx, t.player_id, d1, 365);
    const age = ageAt(idx, t.player_id, before);
    if (!Number.isFinite(a) || !Number.isFinite(b) || !Number.isFinite(age)) continue;
    const e = expected.get(key(y, age, a));
    const d = clubStrengthAt(idx, t.to_club_id, before) - clubStrengthAt(idx, t.from_club_id, before);
    if (e === undefined || !Number.isFinite(d)) continue;
    moves.push({ g: ageGroup(age), d, ex: Math.max(-CLIP, Math.min(CLIP, b - a - e)) });
  }
  if (moves.length < 200) return null;
  // The excess of a move between equal clubs (movers are a selected lot) is the centre both slopes start from.
  const level = (rows: typeof moves) => {
    const near = rows.filter((r) => Math.abs(r.d) < 0.5).map((r) => r.ex);
    return near.length >= 20 ? median(near) : median(rows.map((r) => r.ex));
  };
  const fitSide = (rows: typeof moves, centre: number) => Math.max(0, slopeThroughOrigin(rows, centre));
  const allCentre = level(moves);
  const pooledDown = fitSide(moves.filter((r) => r.d < 0), allCentre);
  const pooledUp = fitSide(moves.filter((r) => r.d > 0), allCentre);
  const down: number[] = [];
  const up: number[] = [];
  const rows: number[] = [];
  MOVE_AGE_UPPER.forEach((_, g) => {
    const mine = moves.filter((r) => r.g === g);
    const centre = mine.length >= 50 ? level(mine) : allCentre;
    const dn = mine.filter((r) => r.d < 0);
    const upRows = mine.filter((r) => r.d > 0);
    down.push((dn.length * fitSide(dn, centre) + SHRINK_ROWS * pooledDown) / (dn.length + SHRINK_ROWS));
    up.push((upRows.length * fitSide(upRows, centre) + SHRINK_ROWS * pooledUp) / (upRows.length + SHRINK_ROWS));
    rows.push(mine.length);
  });
  return { horizonYears, down, up, rows };
}

/** Log change of the value in `horizonYears` for a move of `delta` in club strength at his age (0 without an effect). */
export function clubMoveLogEffect(effect: ClubMoveEffect | null, age: number, delta: number): number {
  if (!effect || !Number.isFinite(delta) || delta === 0) return 0;
  const g = Number.isFinite(age) ? ageGroup(age) : 2;
  return delta < 0 ? effect.down[g] * delta : effect.up[g] * delta;
}
