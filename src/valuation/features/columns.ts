/**
 * The feature index's data (features/index.ts reads it): market values, career steps and club
 * strengths as typed columns, built once from a snapshot. Typed arrays and plain maps only, so the
 * analysis workers read the main thread's columns in place (engine/package.ts) instead of each
 * building a copy (about 44 MB a worker on the real data).
 */
import type { ClubSeasonRow } from '../../domain/world.js';
import type { Snapshot } from '../../domain/snapshot.js';
import { seasonOf } from '../../domain/season.js';
import { median } from '../ml/metrics.js';
import { dayOf, isoOfDay } from '../../domain/days.js';

/** Club strength counts the most valuable players of the squad, so squad size does not decide it. */
export const SQUAD_TOP = 25;

/**
 * A row per player (those with market values first, in the snapshot's order, then those with only
 * a career), each owning a range of the value and career columns; clubs by number.
 */
export interface FeatureColumns {
  /** The snapshot the columns were built from: its as-of date and data version. */
  readonly asOf: string;
  readonly dataVersion: string;
  readonly playerIds: readonly string[];
  /** Players [0, valued) have at least one market value. */
  readonly valued: number;
  /** Player row r's values are [valueFrom[r], valueFrom[r + 1]), oldest first. */
  readonly valueFrom: Int32Array;
  readonly valueDays: Int32Array;
  readonly valueEur: Float64Array;
  /** The value's club (a number of clubIds), -1 when none. */
  readonly valueClub: Int32Array;
  /** Running maximum of log value up to each value of the player (-Infinity before the first positive). */
  readonly peakLog: Float64Array;
  /** Player row r's career steps are [careerFrom[r], careerFrom[r + 1]), oldest first. */
  readonly careerFrom: Int32Array;
  readonly careerStarts: Int32Array;
  /** RUNNING for a step still running at the as-of date. */
  readonly careerEnds: Int32Array;
  readonly careerClub: Int32Array;
  readonly clubIds: readonly string[];
  /** Reference days (1 January and 1 July) on which club strength was computed, ascending. */
  readonly refDays: Int32Array;
  /** [reference day × club]: log1p(value of the SQUAD_TOP most valuable players, EUR); NaN when the club had none valued. */
  readonly clubStrength: Float64Array;
  /** Domestic league per `club|season`. */
  readonly leagueOf: ReadonlyMap<string, string>;
  /** Per reference day: league id -> median club strength of its clubs that season. */
  readonly leagueStrength: readonly ReadonlyMap<string, number>[];
  /** Per calendar year: median log market value of the values published that year (inflation). */
  readonly inflation: ReadonlyMap<number, number>;
  readonly inflationYears: Int32Array;
  /** Per `club|season`: league match count, for minutes shares. */
  readonly leagueGames: ReadonlyMap<string, number>;
  /**
   * Seasons in which the data knows who started (some appearance counts a start): the dataset's
   * game_lineups. Without them every start count is 0, which says nothing, so the starts share is missing.
   */
  readonly startsKnown: ReadonlySet<number>;
}

const RUNNING = 2 ** 30;

/** Ids numbered 0, 1, ... in the order first seen. */
function numbering(): { ids: string[]; numberOf: (id: string) => number } {
  const ids: string[] = [];
  const numbers = new Map<string, number>();
  const numberOf = (id: string) => {
    let n = numbers.get(id);
    if (n === undefined) {
      n = ids.push(id) - 1;
      numbers.set(id, n);
    }
    return n;
  };
  return { ids, numberOf };
}

export function buildFeatureColumns(snapshot: Snapshot): FeatureColumns {
  const asOfDay = dayOf(snapshot.asOf);
  const { ids: playerIds, numberOf: rowOf } = numbering();
  const { ids: clubIds, numberOf: clubOf } = numbering();

  let valueRows = 0;
  for (const rows of snapshot.values.values()) valueRows += rows.length;
  const valueDays = new Int32Array(valueRows);
  const valueEur = new Float64Array(valueRows);
  const valueClub = new Int32Array(valueRows);
  const peakLog = new Float64Array(valueRows);
  const valueEnds: number[] = [];
  let minDay = asOfDay;
  const logsByYear = new Map<number, number[]>();
  let at = 0;
  for (const [pid, rows] of snapshot.values) {
    rowOf(pid);
    let peak = -Infinity;
    for (const r of rows) {
      const d = dayOf(r.date);
      valueDays[at] = d;
      valueEur[at] = r.value_eur;
      valueClub[at] = r.club_id === null ? -1 : clubOf(r.club_id);
      if (r.value_eur > 0) peak = Math.max(peak, Math.log(r.value_eur));
      peakLog[at] = peak;
      at++;
      if (d < minDay) minDay = d;
      if (r.value_eur > 0) {
        const y = Number(r.date.slice(0, 4));
        let list = logsByYear.get(y);
        if (!list) logsByYear.set(y, (list = []));
        list.push(Math.log(r.value_eur));
      }
    }
    valueEnds.push(at);
  }
  const valued = playerIds.length;
  const inflation = new Map<number, number>();
  for (const [y, list] of logsByYear) if (list.length >= 20) inflation.set(y, median(list));
  const inflationYears = Int32Array.from([...inflation.keys()].sort((a, b) => a - b));

  for (const pid of snapshot.careers.keys()) rowOf(pid);
  const valueFrom = new Int32Array(playerIds.length + 1);
  for (let r = 0; r < playerIds.length; r++) valueFrom[r + 1] = r < valued ? valueEnds[r] : valueRows;
  let stepRows = 0;
  for (const steps of snapshot.careers.values()) stepRows += steps.length;
  const careerFrom = new Int32Array(playerIds.length + 1);
  const careerStarts = new Int32Array(stepRows);
  const careerEnds = new Int32Array(stepRows);
  const careerClub = new Int32Array(stepRows);
  at = 0;
  for (let r = 0; r < playerIds.length; r++) {
    for (const step of snapshot.careers.get(playerIds[r]) ?? []) {
      careerStarts[at] = dayOf(step.start_date);
      careerEnds[at] = step.end_date === null ? RUNNING : dayOf(step.end_date);
      careerClub[at] = clubOf(step.club_id);
      at++;
    }
    careerFrom[r + 1] = at;
  }

  const leagueOf = new Map<string, string>();
  const leagueType = (cs: ClubSeasonRow) => snapshot.competitions.get(cs.competition_id)?.type === 'DOMESTIC_LEAGUE';
  for (const cs of snapshot.clubSeasons) if (leagueType(cs)) leagueOf.set(`${cs.club_id}|${cs.season}`, cs.competition_id);

  // Reference days: every 1 January and 1 July from the first value to the as-of date.
  const refs: number[] = [];
  const firstYear = Number(isoOfDay(minDay).slice(0, 4));
  const lastYear = Number(snapshot.asOf.slice(0, 4));
  for (let y = firstYear; y <= lastYear; y++) {
    for (const md of ['01-01', '07-01']) {
      const d = dayOf(`${y}-${md}`);
      if (d >= minDay && d <= asOfDay) refs.push(d);
    }
  }
  const refDays = Int32Array.from(refs);
  const partial = {
    valueFrom, valueDays, valueClub, careerFrom, careerStarts, careerEnds, careerClub,
  };
  const clubStrength = new Float64Array(refs.length * clubIds.length).fill(NaN);
  const leagueStrength: Map<string, number>[] = [];
  refs.forEach((ref, k) => {
    const byClub = new Map<number, number[]>();
    for (let r = 0; r < valued; r++) {
      const i = valueIndexAtDay(partial, r, ref);
      if (i < 0 || !(valueEur[i] > 0)) continue;
      const club = clubNumberAtDay(partial, r, ref) ?? valueClub[i];
      if (club < 0) continue;
      let list = byClub.get(club);
      if (!list) byClub.set(club, (list = []));
      list.push(valueEur[i]);
    }
    const season = seasonOf(isoOfDay(ref));
    const perLeague = new Map<string, number[]>();
    for (const [club, list] of byClub) {
      list.sort((a, b) => b - a);
      let sum = 0;
      for (let i = 0; i < Math.min(SQUAD_TOP, list.length); i++) sum += list[i];
      const strength = Math.log1p(sum);
      clubStrength[k * clubIds.length + club] = strength;
      const league = leagueOf.get(`${clubIds[club]}|${season}`) ?? leagueOf.get(`${clubIds[club]}|${season - 1}`);
      if (!league) continue;
      let perList = perLeague.get(league);
      if (!perList) perLeague.set(league, (perList = []));
      perList.push(strength);
    }
    const ls = new Map<string, number>();
    for (const [league, list] of perLeague) if (list.length >= 3) ls.set(league, median(list));
    leagueStrength.push(ls);
  });

  const leagueGames = new Map<string, number>();
  for (const m of snapshot.matches) {
    if (snapshot.competitions.get(m.competition_id)?.type !== 'DOMESTIC_LEAGUE') continue;
    for (const c of [m.home_club_id, m.away_club_id]) {
      const k = `${c}|${m.season}`;
      leagueGames.set(k, (leagueGames.get(k) ?? 0) + 1);
    }
  }
  const startsKnown = new Set<number>();
  for (const rows of snapshot.appearances.values()) for (const a of rows) if (a.starts > 0) startsKnown.add(a.season);
  return {
    asOf: snapshot.asOf, dataVersion: snapshot.dataVersion, playerIds, valued, valueFrom, valueDays, valueEur, valueClub, peakLog, careerFrom, careerStarts,
    careerEnds, careerClub, clubIds, refDays, clubStrength, leagueOf, leagueStrength, inflation, inflationYears, leagueGames, startsKnown,
  };
}

/** Last index i in [from, to) with arr[i] <= x, or -1 (arr ascending over the range). */
export function lastInRange(arr: ArrayLike<number>, from: number, to: number, x: number): number {
  let lo = from;
  let hi = to - 1;
  let ans = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (arr[mid] <= x) {
      ans = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return ans;
}

type ValueColumns = Pick<FeatureColumns, 'valueFrom' | 'valueDays'>;
type CareerColumns = Pick<FeatureColumns, 'careerFrom' | 'careerStarts' | 'careerEnds' | 'careerClub'>;

/** The index in the value columns of player row r's latest value on or before the day, -1 when none. */
export function valueIndexAtDay(c: ValueColumns, r: number, day: number): number {
  return lastInRange(c.valueDays, c.valueFrom[r], c.valueFrom[r + 1], day);
}

/** The index in the career columns of player row r's step running on the day (the latest started on or before it, if not ended before it), -1 when none. */
export function stepIndexAtDay(c: CareerColumns, r: number, day: number): number {
  const i = lastInRange(c.careerStarts, c.careerFrom[r], c.careerFrom[r + 1], day);
  return i >= 0 && c.careerEnds[i] >= day ? i : -1;
}

export function clubNumberAtDay(c: CareerColumns, r: number, day: number): number | null {
  const i = stepIndexAtDay(c, r, day);
  return i >= 0 ? c.careerClub[i] : null;
}
