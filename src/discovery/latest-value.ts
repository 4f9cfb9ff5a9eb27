import type { Snapshot } from '../domain/snapshot.js';
import type { MarketValueRow } from '../domain/world.js';

/** The latest crowd value on or before the snapshot's as-of date (the snapshot keeps no later one). */
export function latestValue(snapshot: Snapshot, playerId: string): MarketValueRow | null {
  const rows = snapshot.values.get(playerId);
  return rows && rows.length > 0 ? rows[rows.length - 1] : null;
}
