/**
 * The future model's comparables (player-seasons with a value now and three years later) held as
 * columns, in the order of the model's nearest-neighbour index: no object per comparable, so
 * 100,000 of them are a few megabytes, and the analysis workers read them from the shared package
 * (engine/package.ts). `comparableAt` gives one as an object, for the few a query shows.
 */
export interface Comparable {
  /** player id */
  p: string;
  /** season start year */
  s: number;
  /** value at the start, EUR */
  v0: number;
  /** value 3 years later, EUR */
  v3: number;
  /** rating, whole points (NaN: none) */
  r: number;
  /** potential, whole points (NaN: none) */
  pt: number;
  /** age at the start, whole years */
  a: number;
  pos: string;
  /** band of v3 / v0 */
  c: number;
}

export interface Comparables {
  size: number;
  /** each comparable's player, an index into `players` */
  player: Int32Array;
  players: string[];
  season: Int16Array;
  v0: Float64Array;
  v3: Float64Array;
  rating: Float32Array;
  potential: Float32Array;
  age: Int16Array;
  /** each comparable's position, an index into `positions` */
  position: Uint8Array;
  positions: string[];
  band: Uint8Array;
}

/** The columns of `rows`, in their order. */
export function comparablesOf(rows: readonly Comparable[]): Comparables {
  const n = rows.length;
  const players = new Map<string, number>();
  const positions = new Map<string, number>();
  const idOf = (ids: Map<string, number>, key: string) => {
    let id = ids.get(key);
    if (id === undefined) ids.set(key, (id = ids.size));
    return id;
  };
  const out: Comparables = {
    size: n, player: new Int32Array(n), players: [], season: new Int16Array(n), v0: new Float64Array(n), v3: new Float64Array(n),
    rating: new Float32Array(n), potential: new Float32Array(n), age: new Int16Array(n), position: new Uint8Array(n), positions: [], band: new Uint8Array(n),
  };
  rows.forEach((c, i) => {
    out.player[i] = idOf(players, c.p);
    out.season[i] = c.s;
    out.v0[i] = c.v0;
    out.v3[i] = c.v3;
    out.rating[i] = c.r;
    out.potential[i] = c.pt;
    out.age[i] = c.a;
    out.position[i] = idOf(positions, c.pos);
    out.band[i] = c.c;
  });
  if (positions.size > 256) throw new RangeError(`comparables: ${positions.size} positions, at most 256`);
  out.players = [...players.keys()];
  out.positions = [...positions.keys()];
  return out;
}

export function comparableAt(c: Comparables, i: number): Comparable {
  return {
    p: c.players[c.player[i]], s: c.season[i], v0: c.v0[i], v3: c.v3[i], r: c.rating[i], pt: c.potential[i], a: c.age[i], pos: c.positions[c.position[i]], c: c.band[i],
  };
}

/** The columns from an artifact's JSON, where typed arrays were written as arrays. */
export function revivedComparables(json: Comparables): Comparables {
  const numbers = (a: ArrayLike<number | null>) => Float32Array.from(a, (v) => v ?? NaN);
  return {
    ...json,
    player: Int32Array.from(json.player), season: Int16Array.from(json.season), v0: Float64Array.from(json.v0), v3: Float64Array.from(json.v3),
    rating: numbers(json.rating), potential: numbers(json.potential), age: Int16Array.from(json.age),
    position: Uint8Array.from(json.position), band: Uint8Array.from(json.band),
  };
}
