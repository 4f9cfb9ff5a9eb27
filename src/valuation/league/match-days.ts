/**
 * squadStrength of a squad plus one player, from the kept match days of the squad without him.
 *
 * Every signing evaluated for a club adds one player to the same squad, and each player's match
 * days come from his own stream (squad.ts), so the squad's days are the same for every candidate.
 * They are solved once per (squad, formation, settings) and kept: per day, every player's form
 * rating and availability, the XI's total and starters, and the slots' potentials (the optimal
 * assignment's row duals). A candidate's day is then:
 *  - the kept day, when he is unavailable (the same players compete for the same slots), or when
 *    his cost in every slot exceeds that slot's potential by a margin: then no assignment that uses
 *    him can beat the kept optimum (the assignment's duality), so he does not start and the XI is
 *    the kept one. The margin (1e-5 rating points) covers the tie-break weights (squad.ts's TIE_EPS,
 *    1e-7 per column: his column shifts the later ones by one) and rounding;
 *  - else solved in full, as squadStrength solves it.
 * This is squad.ts's own `without` rule (a day he does not start is the same XI without him), read
 * the other way round. The answer has squadStrength's fields and values.
 */
import { LRUCache } from 'lru-cache';
import { bestXi, benchOf, canonical, MatchDaySolver, normal, positionPenalty, resolved, type SquadPlayer, type SquadSettings, type SquadStrength } from './squad.js';
import { seededGenerator, uniform01 } from '../../domain/random.js';

/** bytes of kept match days per thread, least recently used dropped first */
export const MATCH_DAY_BYTES = 16 * 1024 * 1024;
const MARGIN = 1e-5;
const TIE_EPS = 1e-7;

interface KeptDays {
  /** the squad without him, in canonical order */
  players: SquadPlayer[];
  draws: number;
  ratings: Float64Array;
  available: Uint8Array;
  total: Float64Array;
  started: Uint8Array;
  /** per day, the potential of each slot */
  duals: Float64Array;
  bytes: number;
}

const kept = new LRUCache<string, KeptDays>({ maxSize: MATCH_DAY_BYTES, sizeCalculation: (k) => Math.max(1, k.bytes) });

function keptDays(players: SquadPlayer[], formationName: string, s: ReturnType<typeof resolved>): KeptDays {
  const key = `${formationName}|${s.replacementRating}|${s.availability}|${s.formSd}|${s.shareDraws}|${s.seed}|` +
    players.map((p) => `${p.playerId}:${p.position}:${p.rating}`).join(',');
  let k = kept.get(key);
  if (k) return k;
  const formation = s.formations[formationName];
  const n = formation.length, P = players.length;
  const draws = Math.max(1, Math.floor(s.shareDraws));
  const solver = new MatchDaySolver(players, formation, s.replacementRating);
  const streams = players.map((p) => seededGenerator(s.seed, p.playerId));
  k = {
    players, draws,
    ratings: new Float64Array(draws * P), available: new Uint8Array(draws * P),
    total: new Float64Array(draws), started: new Uint8Array(draws * P), duals: new Float64Array(draws * n),
    bytes: draws * (P * 10 + 8 + n * 8),
  };
  for (let d = 0; d < draws; d++) {
    const ratings = k.ratings.subarray(d * P, (d + 1) * P), available = k.available.subarray(d * P, (d + 1) * P);
    for (let j = 0; j < P; j++) {
      const rng = streams[j];
      available[j] = uniform01(rng) < s.availability ? 1 : 0;
      ratings[j] = players[j].rating + s.formSd * normal(rng);
    }
    k.total[d] = solver.solve(ratings, available, -1, k.started.subarray(d * P, (d + 1) * P), k.duals, d * n);
  }
  kept.set(key, k);
  return k;
}

/** squadStrength([...squad, player], settings), the squad's days kept (see the header); `player` must not be in `squad`. */
export function squadStrengthWith(squad: readonly SquadPlayer[], player: SquadPlayer, settings: SquadSettings = {}): SquadStrength {
  const s = resolved(settings);
  const players = canonical([...squad, player]);
  const q = players.findIndex((p) => p.playerId === player.playerId);
  const xi = bestXi(players, settings);
  const { bench, depthRating } = benchOf(players, xi, s);
  const formation = s.formations[xi.formation];
  const n = formation.length, P = players.length;
  const base = keptDays(players.filter((_, j) => j !== q), xi.formation, s);
  const pen = new Float64Array(n);
  for (let i = 0; i < n; i++) pen[i] = positionPenalty(player.position, formation[i]);
  const R = s.replacementRating;
  const stream = seededGenerator(s.seed, player.playerId);
  let solver: MatchDaySolver | null = null;
  const ratings = new Float64Array(P), available = new Uint8Array(P), started = new Uint8Array(P);
  const starts = new Float64Array(P);
  let matchDayTotal = 0;
  for (let d = 0; d < base.draws; d++) {
    // his draws, as squadStrength makes them from his own stream
    const hisAvailable = uniform01(stream) < s.availability;
    const hisRating = player.rating + s.formSd * normal(stream);
    let same = !hisAvailable;
    if (!same) {
      // his column's index among the day's available players (the tie-break weight's)
      let c = 0;
      for (let j = 0; j < q; j++) c += base.available[d * (P - 1) + j];
      same = true;
      for (let i = 0; i < n && same; i++) {
        const cost = -Math.max(R, hisRating - pen[i]) + TIE_EPS * c;
        same = cost - base.duals[d * n + i] > MARGIN;
      }
    }
    if (same) {
      matchDayTotal += base.total[d];
      for (let j = 0; j < P - 1; j++) starts[j < q ? j : j + 1] += base.started[d * (P - 1) + j];
      continue;
    }
    solver ??= new MatchDaySolver(players, formation, R);
    for (let j = 0; j < P; j++) {
      if (j === q) { ratings[j] = hisRating; available[j] = 1; continue; }
      const b = d * (P - 1) + (j < q ? j : j - 1);
      ratings[j] = base.ratings[b];
      available[j] = base.available[b];
    }
    started.fill(0);
    matchDayTotal += solver.solve(ratings, available, -1, started);
    for (let j = 0; j < P; j++) starts[j] += started[j];
  }
  const startShares: Record<string, number> = {};
  const byId = players.map((p, j) => ({ id: p.playerId, j })).sort((a, b) => (a.id < b.id ? -1 : 1));
  for (const { id, j } of byId) startShares[id] = starts[j] / base.draws;
  const matchDayXiRating = matchDayTotal / (base.draws * n);
  return { ...xi, depthRating, bench, startShares, matchDayXiRating, features: { xi: xi.xiRating, depth: depthRating } };
}

/** Keeps the match days of `squad` in its own best formation (what most newcomers keep), ahead of its first candidate. */
export function keepMatchDays(squad: readonly SquadPlayer[], settings: SquadSettings = {}): void {
  const players = canonical(squad);
  keptDays(players, bestXi(players, settings).formation, resolved(settings));
}

/** Match days kept on this thread, and their bytes (benches report them). */
export function keptMatchDays(): { count: number; bytes: number } {
  return { count: kept.size, bytes: kept.calculatedSize };
}
