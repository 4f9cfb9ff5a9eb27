/**
 * The discovery indexes of the snapshot in force: search by name, the scouting list, players like
 * one another and value history. Built once per snapshot data (the list also once per model version, for its expected fees)
 * and kept beside it, so a request never builds one; a change of next season's clubs keeps them.
 */
import type { Snapshot } from '../domain/snapshot.js';
import type { ModelBundle } from '../valuation/bundle.js';
import { ListIndex } from './list-index.js';
import { SearchIndex } from './search-index.js';
import { SimilarIndex } from './similar-index.js';

const searches = new WeakMap<Snapshot['dataIdentity'], SearchIndex>();
const lists = new WeakMap<Snapshot['dataIdentity'], ListIndex>();
const similars = new WeakMap<Snapshot['dataIdentity'], SimilarIndex>();

export function searchIndex(snapshot: Snapshot): SearchIndex {
  let index = searches.get(snapshot.dataIdentity);
  if (!index) searches.set(snapshot.dataIdentity, (index = SearchIndex.build(snapshot)));
  return index;
}

export function listIndex(snapshot: Snapshot, bundle: ModelBundle | null): ListIndex {
  let index = lists.get(snapshot.dataIdentity);
  if (!index || index.modelVersion !== (bundle?.version ?? null)) lists.set(snapshot.dataIdentity, (index = ListIndex.build(snapshot, bundle)));
  return index;
}

/** Players like one another: profiles built once per snapshot data and model version (fees and our ratings). */
export function similarIndex(snapshot: Snapshot, bundle: ModelBundle | null): SimilarIndex {
  const list = listIndex(snapshot, bundle);
  let index = similars.get(snapshot.dataIdentity);
  if (!index || index.modelVersion !== list.modelVersion) similars.set(snapshot.dataIdentity, (index = SimilarIndex.build(snapshot, list)));
  return index;
}

/** Builds all three for the snapshot and models in force, so the first request after a change pays nothing. */
export function warmDiscovery(snapshot: Snapshot, bundle: ModelBundle | null): void {
  searchIndex(snapshot);
  listIndex(snapshot, bundle);
  similarIndex(snapshot, bundle);
}
