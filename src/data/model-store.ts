import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelBundle } from '../valuation/bundle.js';

/** Model artifacts are versioned JSON files; a version names its data, as-of date and settings. */
function fileOf(dir: string, version: string): string {
  return join(dir, `models-${version.replace(/[^A-Za-z0-9._-]/g, '_')}.json`);
}

export function saveBundle(dir: string, bundle: ModelBundle): string {
  mkdirSync(dir, { recursive: true });
  const file = fileOf(dir, bundle.version);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(bundle));
  renameSync(tmp, file); // readers never see half a file
  return file;
}

/** The artifact last parsed, by file and modification: a start-up checks it and then serves it. */
let lastLoaded: { file: string; stamp: string; bundle: ModelBundle } | null = null;

export function loadBundle(dir: string, version: string): ModelBundle | null {
  const file = fileOf(dir, version);
  if (!existsSync(file)) return null;
  const { mtimeMs, size } = statSync(file);
  const stamp = `${mtimeMs}:${size}`;
  if (lastLoaded?.file === file && lastLoaded.stamp === stamp) return lastLoaded.bundle;
  const bundle = JSON.parse(readFileSync(file, 'utf8')) as ModelBundle;
  if (bundle.kind !== 'touchline-models' || bundle.version !== version) return null;
  lastLoaded = { file, stamp, bundle };
  return bundle;
}
