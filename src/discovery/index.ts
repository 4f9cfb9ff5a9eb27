/**
 * The discovery indexes of the snapshot in force: search by name, the scouting list, players like
 * one another and value history. Built once per snapshot data (the list also once per model version, for its expected fees)
 * and kept beside it, so a request never builds one; a change of next season's clubs keeps them.
 */
import type { Snapshot } from '../domain/snapshot.js';
import type { ModelBundle } from '../valuation/bundle.js';
import { ListIndex } from './list-index.js';
import { SearchIndex } from './search-index.js';
import { memoFor, memoTable } from '../domain/memo.js';
import { SimilarIndex } from './similar-index.js';

export function searchIndex(snapshot: Snapshot): SearchIndex {
  return memoFor(snapshot.dataIdentity, 'discovery.search', () => SearchIndex.build(snapshot));
}

export function listIndex(snapshot: Snapshot, bundle: ModelBundle | null): ListIndex {
  // One list per data, for the model version in force: a new version replaces it.
  const lists = memoTable<ListIndex>(snapshot.dataIdentity, 'discovery.list');
  let index = lists.get('current');
  if (!index || index.modelVersion !== (bundle?.version ?? null)) lists.set('current', (index = ListIndex.build(snapshot, bundle)));
  return index;
}

/** Players like one another: profiles built once per snapshot data and model version (fees and our ratings). */
export function similarIndex(snapshot: Snapshot, bundle: ModelBundle | null): SimilarIndex {
  const list = listIndex(snapshot, bundle);
  const similars = memoTable<SimilarIndex>(snapshot.dataIdentity, 'discovery.similar');
  let index = similars.get('current');
  if (!index || index.modelVersion !== list.modelVersion) similars.set('current', (index = SimilarIndex.build(snapshot, list)));
  return index;
}

/** Builds all three for the snapshot and models in force, so the first request after a change pays nothing. */
export function warmDiscovery(snapshot: Snapshot, bundle: ModelBundle | null): void {
  searchIndex(snapshot);
  listIndex(snapshot, bundle);
  similarIndex(snapshot, bundle);
}
