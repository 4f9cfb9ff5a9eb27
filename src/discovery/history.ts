import type { Snapshot } from '../domain/snapshot.js';
import type { MarketValueRow, RatingRow } from '../domain/world.js';

export interface ValueHistory {
  /** Crowd values, oldest first. */
  readonly marketValues: readonly MarketValueRow[];
  /** Our ratings by season, oldest first. */
  readonly ratings: readonly RatingRow[];
}

/**
 * A player's market values and our ratings over time. The snapshot already holds nothing dated
 * after its as-of date (values after it, ratings of later seasons); the filters say so again.
 */
export function valueHistory(snapshot: Snapshot, playerId: string): ValueHistory {
  return {
    marketValues: (snapshot.values.get(playerId) ?? []).filter((v) => v.date <= snapshot.asOf),
    ratings: (snapshot.ratings.get(playerId) ?? []).filter((r) => r.season <= snapshot.currentSeason),
  };
}
