import { readArtifact, writeArtifact } from '../data/artifact-files.js';
import { revivedBundle, type ModelBundle } from '../valuation/bundle.js';

export function saveBundle(dir: string, bundle: ModelBundle): string {
  return writeArtifact(dir, bundle.version, bundle);
}

/** The bundle trained for a version, or null when none is stored (or the file holds something else). */
export function loadBundle(dir: string, version: string): ModelBundle | null {
  const artifact = readArtifact(dir, version) as Partial<ModelBundle> | null;
  if (artifact?.kind !== 'touchline-models' || artifact.version !== version) return null;
  return revivedBundle(artifact as ModelBundle);
}
