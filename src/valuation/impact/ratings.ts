import type { RatingRow } from '../../domain/world.js';
import type { Snapshot } from '../../domain/snapshot.js';

/**
 * The snapshot with `rows` as its model ratings (e.g. `rateAll` output), for worlds whose stored
 * ratings are not ours yet. Rows dated after the snapshot's current season are dropped.
 */
export function withModelRatings(snapshot: Snapshot, rows: readonly RatingRow[]): Snapshot {
  const ratings = new Map<string, RatingRow[]>();
  for (const r of rows) {
    if (r.season > snapshot.currentSeason) continue;
    const list = ratings.get(r.player_id);
    if (list) list.push(r);
    else ratings.set(r.player_id, [r]);
  }
  for (const list of ratings.values()) list.sort((a, b) => a.season - b.season);
  // Other ratings, other player facts and features: not the same data.
  return { ...snapshot, dataIdentity: {}, ratings };
}
