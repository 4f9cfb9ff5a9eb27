/**
 * The world and the models as the workers receive them: serialised once per (snapshot source,
 * model bundle) into a SharedArrayBuffer, which every task carries by reference (postMessage
 * shares it, it does not copy it). A worker unpacks it once, when a task names a package it does
 * not hold yet; so a world swap (import, retraining, `leagues set-clubs`) reaches every worker with
 * its first task on the new data, and nothing is copied per task.
 */
import { deserialize, serialize } from 'node:v8';
import type { Snapshot } from '../domain/snapshot.js';
import { snapshotOf, type SnapshotSource } from '../domain/snapshot-source.js';
import type { ModelBundle } from '../valuation/bundle.js';

export interface EnginePackage {
  /** Names the snapshot and models inside: equal keys, equal contents. */
  readonly key: string;
  readonly bytes: SharedArrayBuffer;
}

interface Packed {
  source: SnapshotSource;
  bundle: ModelBundle;
}

export function packageKey(source: SnapshotSource, bundle: ModelBundle): string {
  return `${source.asOf}|${source.dataVersion}|${source.ratingsVersion}|${source.membershipVersion}|${bundle.version}`;
}

export function pack(source: SnapshotSource, bundle: ModelBundle): EnginePackage {
  const buf = serialize({ source, bundle } satisfies Packed);
  const bytes = new SharedArrayBuffer(buf.byteLength);
  new Uint8Array(bytes).set(buf);
  return { key: packageKey(source, bundle), bytes };
}

/** The snapshot and models of a package, built exactly as the main thread builds its own. */
export function unpack(pkg: EnginePackage): { snapshot: Snapshot; bundle: ModelBundle } {
  // deserialize copies out of the shared memory: it reads a Buffer view of it without copying first
  const { source, bundle } = deserialize(Buffer.from(pkg.bytes)) as Packed;
  return { snapshot: snapshotOf(source), bundle };
}
