import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Model artifacts are JSON files named by their version; what they hold is the models room's business. */
function fileOf(dir: string, version: string): string {
  return join(dir, `models-${version.replace(/[^A-Za-z0-9._-]/g, '_')}.json`);
}

/** An artifact as JSON text: a typed array is written as a plain array (NaN as null); its model turns it back when read. */
export function artifactJson(artifact: unknown): string {
  return JSON.stringify(artifact, (_key, value: unknown) => (ArrayBuffer.isView(value) && !(value instanceof DataView) ? Array.from(value as unknown as ArrayLike<number>) : value));
}

export function writeArtifact(dir: string, version: string, artifact: unknown): string {
  mkdirSync(dir, { recursive: true });
  const file = fileOf(dir, version);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, artifactJson(artifact));
  renameSync(tmp, file); // readers never see half a file
  return file;
}

/** The artifact last parsed, by file and modification: a start-up checks it and then serves it. */
let lastRead: { file: string; stamp: string; artifact: unknown } | null = null;

/** The parsed artifact stored for a version, or null when there is none. */
export function readArtifact(dir: string, version: string): unknown {
  const file = fileOf(dir, version);
  if (!existsSync(file)) return null;
  const { mtimeMs, size } = statSync(file);
  const stamp = `${mtimeMs}:${size}`;
  if (lastRead?.file === file && lastRead.stamp === stamp) return lastRead.artifact;
  const artifact: unknown = JSON.parse(readFileSync(file, 'utf8'));
  lastRead = { file, stamp, artifact };
  return artifact;
}
