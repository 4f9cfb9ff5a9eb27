import { buildSnapshot, withSeasonClubs, type SeasonClubsRow, type Snapshot } from './snapshot.js';
import type { WorldData } from './world.js';

/**
 * What a snapshot is built from: the stored rows and the versions that name them. The main thread
 * and every analysis worker build their snapshot from the same source with `snapshotOf`, so both
 * hold the same read model and give the same answers.
 */
export interface SnapshotSource {
  readonly world: WorldData;
  readonly asOf: string;
  readonly dataVersion: string;
  readonly ratingsVersion: string;
  readonly seasonClubs: readonly SeasonClubsRow[];
  readonly membershipVersion: string;
}

export function baseSnapshotOf(src: SnapshotSource): Snapshot {
  return buildSnapshot(src.world, src.asOf, src.dataVersion, src.ratingsVersion);
}

export function snapshotOf(src: SnapshotSource, base: Snapshot = baseSnapshotOf(src)): Snapshot {
  return withSeasonClubs(base, src.seasonClubs, src.membershipVersion);
}
