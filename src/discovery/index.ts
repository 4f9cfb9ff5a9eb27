/**
 * The discovery indexes of the snapshot in force: search by name, the scouting list and value
 * history. Built once per snapshot (the list also once per model version, for its expected fees)
 * and kept beside the snapshot, so a request never builds one.
 */
import type { Snapshot } from '../domain/snapshot.js';
import type { ModelBundle } from '../valuation/bundle.js';
import { ListIndex } from './list-index.js';
import { SearchIndex } from './search-index.js';

const searches = new WeakMap<Snapshot, SearchIndex>();
const lists = new WeakMap<Snapshot, ListIndex>();

export function searchIndex(snapshot: Snapshot): SearchIndex {
  let index = searches.get(snapshot);
  if (!index) searches.set(snapshot, (index = SearchIndex.build(snapshot)));
  return index;
}

export function listIndex(snapshot: Snapshot, bundle: ModelBundle | null): ListIndex {
  let index = lists.get(snapshot);
  if (!index || index.modelVersion !== (bundle?.version ?? null)) lists.set(snapshot, (index = ListIndex.build(snapshot, bundle)));
  return index;
}

/** Builds both for the snapshot and models in force, so the first request after a change pays nothing. */
export function warmDiscovery(snapshot: Snapshot, bundle: ModelBundle | null): void {
  searchIndex(snapshot);
  listIndex(snapshot, bundle);
}
