/**
 * Squad strength from player ratings: the best XI over a few standard formations (an optimal
 * assignment of players to slots, with penalties for playing out of position), a depth term from
 * the next best players by group, and, over simulated match days, each player's expected share of
 * starts and the mean rating of the XI that actually takes the pitch.
 */
import { POSITION_GROUP, type PositionCode, type PositionGroup } from '../../domain/positions.js';
import { normalOf, seededGenerator, uniform01, type RandomGenerator } from '../../domain/random.js';

export interface SquadPlayer {
  playerId: string;
  position: PositionCode;
  rating: number;
}

export type Formation = readonly PositionCode[];

export const FORMATIONS: Readonly<Record<string, Formation>> = {
  '4-3-3': ['GK', 'LB', 'CB', 'CB', 'RB', 'CDM', 'CM', 'CM', 'LW', 'ST', 'RW'],
  '4-4-2': ['GK', 'LB', 'CB', 'CB', 'RB', 'LM', 'CM', 'CM', 'RM', 'ST', 'ST'],
  '4-2-3-1': ['GK', 'LB', 'CB', 'CB', 'RB', 'CDM', 'CDM', 'LW', 'CAM', 'RW', 'ST'],
  '3-5-2': ['GK', 'CB', 'CB', 'CB', 'LWB', 'CDM', 'CM', 'CM', 'RWB', 'ST', 'ST'],
  '3-4-3': ['GK', 'CB', 'CB', 'CB', 'LWB', 'CM', 'CM', 'RWB', 'LW', 'ST', 'RW'],
  '4-1-2-1-2': ['GK', 'LB', 'CB', 'CB', 'RB', 'CDM', 'CM', 'CM', 'CAM', 'ST', 'ST'],
};

/** Rating points lost when a player of one position plays another (symmetric pairs). */
const NEIGHBOURS: readonly [PositionCode, PositionCode, number][] = [
  // defence
  ['LB', 'LWB', 1], ['RB', 'RWB', 1], ['LB', 'RB', 3], ['LWB', 'RWB', 3], ['LB', 'RWB', 4], ['RB', 'LWB', 4],
  ['CB', 'LB', 4], ['CB', 'RB', 4], ['CB', 'LWB', 6], ['CB', 'RWB', 6],
  // defence <-> midfield
  ['CB', 'CDM', 3], ['LWB', 'LM', 2], ['RWB', 'RM', 2], ['LB', 'LM', 3], ['RB', 'RM', 3],
  // midfield
  ['CDM', 'CM', 1], ['CM', 'CAM', 2], ['CDM', 'CAM', 4], ['CM', 'LM', 3], ['CM', 'RM', 3], ['LM', 'RM', 3],
  ['CAM', 'LM', 4], ['CAM', 'RM', 4], ['CDM', 'LM', 5], ['CDM', 'RM', 5],
  // midfield <-> attack
  ['LM', 'LW', 2], ['RM', 'RW', 2], ['LM', 'LF', 4], ['RM', 'RF', 4], ['CAM', 'CF', 2], ['CAM', 'LW', 4],
  ['CAM', 'RW', 4], ['CAM', 'ST', 4], ['CAM', 'LF', 4], ['CAM', 'RF', 4],
  // attack
  ['CF', 'ST', 1], ['LF', 'LW', 1], ['RF', 'RW', 1], ['LF', 'CF', 2], ['RF', 'CF', 2], ['LF', 'RF', 3],
  ['LW', 'RW', 3], ['LF', 'ST', 3], ['RF', 'ST', 3], ['LW', 'ST', 4], ['RW', 'ST', 4], ['LW', 'CF', 4],
  ['RW', 'CF', 4], ['LF', 'RW', 4], ['RF', 'LW', 4],
];
const SAME_GROUP_DEFAULT = 6;
const OTHER_GROUP = 12;
/** an outfield player in goal: allowed, but a stand-in is nearly always better */
const OUTFIELD_IN_GOAL = 40;

// by own position, then slot (no string built per lookup: the match days look up thousands)
const penaltyTable = new Map<PositionCode, Map<PositionCode, number>>();
for (const [a, b, p] of NEIGHBOURS) {
  for (const [x, y] of [[a, b], [b, a]] as const) {
    let row = penaltyTable.get(x);
    if (!row) penaltyTable.set(x, (row = new Map()));
    row.set(y, p);
  }
}

/** Penalty for a player whose position is `own` playing in slot `slot`; a goalkeeper plays only in goal (Infinity). */
export function positionPenalty(own: PositionCode, slot: PositionCode): number {
  if (own === slot) return 0;
  if (own === 'GK') return Number.POSITIVE_INFINITY;
  if (slot === 'GK') return OUTFIELD_IN_GOAL;
  const p = penaltyTable.get(own)?.get(slot);
  if (p !== undefined) return p;
  return POSITION_GROUP[own] === POSITION_GROUP[slot] ? SAME_GROUP_DEFAULT : OTHER_GROUP;
}

export interface SquadSettings {
  /** formations tried, in order of preference on exact ties; default all of FORMATIONS */
  formations?: Record<string, Formation>;
  /**
   * Rating of a stand-in (youth player) filling a slot nobody in the squad fills better, and any
   * missing bench place; default 40 on the 0-100 scale.
   */
  replacementRating?: number;
  /** bench places counted by the depth term; default 1 GK, 2 DEF, 2 MID, 2 FWD */
  bench?: Partial<Record<PositionGroup, number>>;
  /** start shares: chance a player is available for a match (injury, suspension); default 0.9 */
  availability?: number;
  /** start shares: match-to-match form noise, sd in rating points; default 2.5 */
  formSd?: number;
  /** start shares: simulated matches; default 400 */
  shareDraws?: number;
  seed?: number;
  /** a player of the squad: also give the match-day XI rating of the squad without him, on the same match days */
  without?: string;
}

export interface XiPick {
  slot: PositionCode;
  /** null when the slot goes to a stand-in at replacementRating */
  playerId: string | null;
  position: PositionCode | null;
  rating: number;
  penalty: number;
  effectiveRating: number;
}

export interface BestXi {
  formation: string;
  picks: XiPick[];
  /** mean effective rating of the XI (rating minus out-of-position penalty) */
  xiRating: number;
}

export interface BenchPick {
  group: PositionGroup;
  playerId: string | null;
  rating: number;
}

export interface SquadStrength extends BestXi {
  /** mean rating of the bench places (the next best players by group) */
  depthRating: number;
  bench: BenchPick[];
  /** expected share of matches each player starts, 0 to availability */
  startShares: Record<string, number>;
  /**
   * Mean effective rating of the XI that takes the pitch over the simulated match days (the
   * formation above, players unavailable or out of form left out). A player adds to it only on the
   * days he starts, so what he adds follows his start share.
   */
  matchDayXiRating: number;
  /** with `without` set: matchDayXiRating of the squad without that player, on the same match days */
  matchDayXiRatingWithout?: number;
  /** features for the results/squad tie */
  features: SquadFeatures;
}

export interface SquadFeatures {
  xi: number;
  depth: number;
}

const DEFAULT_BENCH: Record<PositionGroup, number> = { GK: 1, DEF: 2, MID: 2, FWD: 2 };
// tie-break weight: prefers players earlier in the canonical order among otherwise equal XIs
const TIE_EPS = 1e-7;
const FORBIDDEN = -1e9;

export function resolved(settings: SquadSettings) {
  return {
    formations: settings.formations ?? FORMATIONS,
    replacementRating: settings.replacementRating ?? 40,
    bench: { ...DEFAULT_BENCH, ...settings.bench },
    availability: settings.availability ?? 0.9,
    formSd: settings.formSd ?? 2.5,
    shareDraws: settings.shareDraws ?? 400,
    seed: settings.seed ?? 1,
  };
}

/** Higher rating first, then player id: the order every tie is broken by. */
export function canonical(squad: readonly SquadPlayer[]): SquadPlayer[] {
  const seen = new Set<string>();
  for (const p of squad) {
    if (seen.has(p.playerId)) throw new Error(`duplicate player ${p.playerId} in squad`);
    if (!Number.isFinite(p.rating)) throw new Error(`rating of ${p.playerId} is not a number`);
    if (!(p.position in POSITION_GROUP)) throw new Error(`unknown position ${p.position}`);
    seen.add(p.playerId);
  }
  return [...squad].sort((a, b) => b.rating - a.rating || (a.playerId < b.playerId ? -1 : a.playerId > b.playerId ? 1 : 0));
}

/**
 * Minimum-cost assignment of n rows to distinct columns (n <= m), Hungarian algorithm with
 * potentials (O(n^2 m)). cost is row-major n x m. Returns the column of each row.
 */
// assign's buffers, reused from call to call (thousands of calls per analysis; a thread runs one at a time)
let ws = { size: 0, u: new Float64Array(0), v: new Float64Array(0), p: new Int32Array(0), way: new Int32Array(0), minv: new Float64Array(0), used: new Uint8Array(0) };

function workspace(size: number): typeof ws {
  if (ws.size < size) {
    ws = { size, u: new Float64Array(size), v: new Float64Array(size), p: new Int32Array(size), way: new Int32Array(size), minv: new Float64Array(size), used: new Uint8Array(size) };
  }
  return ws;
}

function assign(cost: Float64Array, n: number, m: number): Int32Array {
  const { u, v, p, way, minv, used } = workspace(Math.max(n, m) + 1);
  u.fill(0, 0, n + 1);
  v.fill(0, 0, m + 1);
  p.fill(0, 0, m + 1);
  way.fill(0, 0, m + 1);
  for (let i = 1; i <= n; i++) {
    p[0] = i;
    let j0 = 0;
    minv.fill(Number.POSITIVE_INFINITY, 0, m + 1);
    used.fill(0, 0, m + 1);
    do {
      used[j0] = 1;
      const i0 = p[j0];
      let delta = Number.POSITIVE_INFINITY, j1 = 0;
      for (let j = 1; j <= m; j++) {
        if (used[j]) continue;
        const cur = cost[(i0 - 1) * m + (j - 1)] - u[i0] - v[j];
        if (cur < minv[j]) { minv[j] = cur; way[j] = j0; }
        if (minv[j] < delta) { delta = minv[j]; j1 = j; }
      }
      for (let j = 0; j <= m; j++) {
        if (used[j]) { u[p[j]] += delta; v[j] -= delta; } else minv[j] -= delta;
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do { const j1 = way[j0]; p[j0] = p[j1]; j0 = j1; } while (j0 !== 0);
  }
  const rowCol = new Int32Array(n);
  for (let j = 1; j <= m; j++) if (p[j] !== 0) rowCol[p[j] - 1] = j - 1;
  return rowCol;
}

/**
 * Best XI for one formation. Players are columns in canonical order, followed by one stand-in
 * per slot at replacementRating. `ratings` may override the squad's ratings (form noise) and
 * `available` drop players; both are indexed like `players`.
 */
function xiFor(
  players: readonly SquadPlayer[],
  formation: Formation,
  replacementRating: number,
  ratings?: Float64Array,
  available?: Uint8Array,
): { cols: Int32Array; total: number } {
  const n = formation.length;
  const P = players.length;
  const m = P + n;
  const pen = penaltyMatrix(players, formation);
  const value = new Float64Array(n * m);
  const cost = new Float64Array(n * m);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < m; j++) {
      let v: number;
      if (j < P) {
        v = available && !available[j] ? FORBIDDEN : (ratings ? ratings[j] : players[j].rating) - pen[i * P + j];
        // the stand-in columns are always finite, so a forbidden pairing is never chosen
        if (!(v > FORBIDDEN)) v = FORBIDDEN;
      } else v = replacementRating;
      value[i * m + j] = v;
      cost[i * m + j] = -v + TIE_EPS * j;
    }
  }
  const cols = assign(cost, n, m);
  let total = 0;
  for (let i = 0; i < n; i++) total += value[i * m + cols[i]];
  return { cols, total };
}

/** Out-of-position penalty of each player (column) in each slot (row), row-major slots x players. */
function penaltyMatrix(players: readonly SquadPlayer[], formation: Formation): Float64Array {
  const P = players.length;
  const pen = new Float64Array(formation.length * P);
  formation.forEach((slot, i) => {
    for (let j = 0; j < P; j++) pen[i * P + j] = positionPenalty(players[j].position, slot);
  });
  return pen;
}

/**
 * The best XI of one match day in a fixed formation, with buffers reused from day to day. Only
 * available players are columns, and a player worth less in a slot than a stand-in counts as the
 * stand-in there (value clamped to replacementRating, not a start): the optimum is that of xiFor,
 * on fewer columns.
 */
export class MatchDaySolver {
  private readonly n: number;
  private readonly P: number;
  private readonly pen: Float64Array;
  private readonly value: Float64Array;
  private readonly cost: Float64Array;
  private readonly column: Int32Array;

  constructor(private readonly players: readonly SquadPlayer[], formation: Formation, private readonly replacementRating: number) {
    this.n = formation.length;
    this.P = players.length;
    this.pen = penaltyMatrix(players, formation);
    const m = this.P + this.n;
    this.value = new Float64Array(this.n * m);
    this.cost = new Float64Array(this.n * m);
    this.column = new Int32Array(m);
  }

  /**
   * Total effective rating of the day's XI; `started[j]` is set for each player who starts. `skip`
   * leaves one player out. `duals`, when given, receives the slots' potentials of the optimum (the
   * assignment's row duals: a column whose cost in every slot exceeds its slot's potential cannot
   * enter the optimum; match-days.ts uses it).
   */
  solve(ratings: Float64Array, available: Uint8Array, skip: number, started: Uint8Array | null, duals?: Float64Array, dualsAt = 0): number {
    const { n, P, pen, value, cost, column } = this;
    const R = this.replacementRating;
    let m = 0;
    for (let j = 0; j < P; j++) if (available[j] && j !== skip) column[m++] = j;
    const real = m;
    while (m < n) column[m++] = -1; // stand-ins when too few players are available
    for (let i = 0; i < n; i++) {
      for (let c = 0; c < m; c++) {
        const j = column[c];
        const v = j < 0 ? R : Math.max(R, ratings[j] - pen[i * P + j]);
        value[i * m + c] = v;
        cost[i * m + c] = -v + TIE_EPS * c;
      }
    }
    const cols = assign(cost, n, m);
    if (duals) for (let i = 0; i < n; i++) duals[dualsAt + i] = ws.u[i + 1];
    let total = 0;
    for (let i = 0; i < n; i++) {
      const c = cols[i];
      total += value[i * m + c];
      if (started && c < real && ratings[column[c]] - pen[i * P + column[c]] > R) started[column[c]] = 1;
    }
    return total;
  }
}

function picksOf(players: readonly SquadPlayer[], formation: Formation, cols: Int32Array, replacementRating: number): XiPick[] {
  return formation.map((slot, i) => {
    const j = cols[i];
    if (j >= players.length) {
      return { slot, playerId: null, position: null, rating: replacementRating, penalty: 0, effectiveRating: replacementRating };
    }
    const pl = players[j];
    const penalty = positionPenalty(pl.position, slot);
    return { slot, playerId: pl.playerId, position: pl.position, rating: pl.rating, penalty, effectiveRating: pl.rating - penalty };
  });
}

/** The best XI over the formations; exact ties go to the formation listed first. */
export function bestXi(squad: readonly SquadPlayer[], settings: SquadSettings = {}): BestXi {
  const s = resolved(settings);
  const players = canonical(squad);
  let best: BestXi | null = null;
  let bestTotal = Number.NEGATIVE_INFINITY;
  for (const [name, formation] of Object.entries(s.formations)) {
    const { cols, total } = xiFor(players, formation, s.replacementRating);
    if (total > bestTotal + 1e-9) {
      bestTotal = total;
      best = { formation: name, picks: picksOf(players, formation, cols, s.replacementRating), xiRating: total / formation.length };
    }
  }
  if (!best) throw new Error('no formation given');
  return best;
}

export function normal(rng: RandomGenerator): number {
  // 1 - u keeps the logarithm finite
  const u1 = 1 - uniform01(rng), u2 = uniform01(rng);
  return normalOf(u1, u2);
}

/** The bench places (the next best players by group, not in the XI) and their mean rating. */
export function benchOf(players: readonly SquadPlayer[], xi: BestXi, s: ReturnType<typeof resolved>): { bench: BenchPick[]; depthRating: number } {
  const inXi = new Set(xi.picks.map((p) => p.playerId).filter((id): id is string => id !== null));
  const bench: BenchPick[] = [];
  for (const group of ['GK', 'DEF', 'MID', 'FWD'] as const) {
    const candidates = players.filter((p) => !inXi.has(p.playerId) && POSITION_GROUP[p.position] === group);
    for (let k = 0; k < s.bench[group]; k++) {
      const c = candidates[k];
      bench.push(c ? { group, playerId: c.playerId, rating: c.rating } : { group, playerId: null, rating: s.replacementRating });
    }
  }
  const depthRating = bench.length ? bench.reduce((a, b) => a + b.rating, 0) / bench.length : s.replacementRating;
  return { bench, depthRating };
}

/**
 * Squad strength: best XI, depth and start shares.
 *
 * Start shares are the chance a player is in the best XI of the chosen formation on a match day
 * where each player is available with probability `availability` and his rating moves by form
 * noise. Each player draws from his own stream (seed, playerId), so adding or removing one player
 * leaves everybody else's draws unchanged (common random numbers for with/without comparisons).
 */
export function squadStrength(squad: readonly SquadPlayer[], settings: SquadSettings = {}): SquadStrength {
  const s = resolved(settings);
  const players = canonical(squad);
  const xi = bestXi(players, settings);
  const { bench, depthRating } = benchOf(players, xi, s);

  const formation = s.formations[xi.formation];
  const solver = new MatchDaySolver(players, formation, s.replacementRating);
  const starts = new Float64Array(players.length);
  const draws = Math.max(1, Math.floor(s.shareDraws));
  const streams = players.map((p) => seededGenerator(s.seed, p.playerId));
  const ratings = new Float64Array(players.length);
  const available = new Uint8Array(players.length);
  const started = new Uint8Array(players.length);
  // "without": on a day he does not start, the XI without him is the same XI; only his starts are solved again
  let skip = settings.without === undefined ? -1 : players.findIndex((p) => p.playerId === settings.without);
  let separateWithout: number | undefined;
  if (skip >= 0) {
    const rest = players.filter((_, j) => j !== skip);
    if (bestXi(rest, settings).formation !== xi.formation) {
      separateWithout = squadStrength(rest, { ...settings, without: undefined }).matchDayXiRating;
      skip = -1;
    }
  }
  let matchDayTotal = 0;
  let withoutTotal = 0;
  for (let d = 0; d < draws; d++) {
    for (let j = 0; j < players.length; j++) {
      const rng = streams[j];
      available[j] = uniform01(rng) < s.availability ? 1 : 0;
      ratings[j] = players[j].rating + s.formSd * normal(rng);
    }
    started.fill(0);
    const total = solver.solve(ratings, available, -1, started);
    matchDayTotal += total;
    for (let j = 0; j < players.length; j++) starts[j] += started[j];
    if (skip >= 0) withoutTotal += started[skip] ? solver.solve(ratings, available, skip, null) : total;
  }
  const startShares: Record<string, number> = {};
  for (const p of [...players].sort((a, b) => (a.playerId < b.playerId ? -1 : 1))) {
    startShares[p.playerId] = starts[players.indexOf(p)] / draws;
  }
  const matchDayXiRating = matchDayTotal / (draws * formation.length);
  const out: SquadStrength = { ...xi, depthRating, bench, startShares, matchDayXiRating, features: { xi: xi.xiRating, depth: depthRating } };
  if (separateWithout !== undefined) out.matchDayXiRatingWithout = separateWithout;
  else if (skip >= 0) out.matchDayXiRatingWithout = withoutTotal / (draws * formation.length);
  return out;
}
